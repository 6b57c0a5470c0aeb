/**
 * The credentials step every connection machine shares: a token that cannot be sent (not a
 * string, holding CR, LF or NUL, or a `;` when it goes into a cookie) is refused typed, in the
 * run's scope, without echoing it.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { makeResolveCredentials } from '../../src/machines/credentials.js';
import type { SecretValue } from '../../src/machines/secret-value.js';
import {
  ConnectionCredentialError,
  type OperationScope,
  operationScope,
} from '../../src/wire/index.js';

const scope = operationScope('crm', 'initialize');

function resolve(
  token: unknown,
  placed: { scope?: OperationScope; cookie?: boolean } = {},
): Promise<SecretValue | undefined> {
  const actor = createActor(
    makeResolveCredentials(() => token as string),
    {
      input: { principal: undefined, scope: placed.scope ?? scope, cookie: placed.cookie === true },
    },
  );
  actor.start();
  return toPromise(actor);
}

describe('resolveCredentials', () => {
  it.each([
    ['secret-\r-1', 'header-break'],
    ['secret-\n-2', 'header-break'],
    ['secret-\r\nx-injected: 1', 'header-break'],
    ['secret-\0-4', 'header-break'],
    [42, 'not-a-string'],
    [{ token: 'secret' }, 'not-a-string'],
  ])('refuses %j as %s, typed and in the run scope, without the token', async (token, problem) => {
    const error = await resolve(token).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(ConnectionCredentialError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ problem, operation: 'initialize', phase: 'discovery' });
    expect((error as Error).message).toMatch(/^Connection "crm" refused its credential: /);
    expect(JSON.stringify(error)).not.toContain('secret');
    expect((error as Error).message).not.toContain('secret');
  });

  it('wraps a token it can send, and reads an empty one as none', async () => {
    expect((await resolve('tok-1'))?.reveal()).toBe('tok-1');
    expect(await resolve('')).toBeUndefined();
    expect(await resolve(undefined)).toBeUndefined();
  });

  it('refuses a cookie token with ";", which would add a cookie, without echoing it', async () => {
    const placing = () =>
      resolve('tok; admin=1', { scope: operationScope('pets', 'openapi/call'), cookie: true });
    await expect(placing()).rejects.toThrow(
      'Connection "pets" refused its credential: its token is placed in a cookie and contains ";" during openapi/call',
    );
    await expect(placing()).rejects.toThrow(ConnectionCredentialError);
    // The same token is sendable anywhere else.
    expect((await resolve('tok; admin=1'))?.reveal()).toBe('tok; admin=1');
  });
});
