/**
 * `openApiCall` on its real actors and the wire's own request against a loopback server: what a
 * refused answer tells the caller (a 401's challenge, a 429's Retry-After), and the cookie rule of
 * the credentials step (a `;` cannot go into a cookie, and may go into a header).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { makeOpenApiCallActors } from '../../../src/machines/open-api-call/open-api-call.actors.js';
import { openApiCallMachine } from '../../../src/machines/open-api-call/open-api-call.machine.js';
import type { OpenApiCallInput } from '../../../src/machines/open-api-call/open-api-call.types.js';
import { runMachine } from '../../../src/machines/run-machine.js';
import type { CredentialPlacement } from '../../../src/openapi/types.js';
import { createHostFence } from '../../../src/wire/http/url-fence.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionCredentialError,
  ConnectionRequestError,
} from '../../../src/wire/index.js';
import { serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();

function callInput(
  origin: string,
  credential: CredentialPlacement,
  timeoutMs = 10_000,
): OpenApiCallInput {
  const url = `${origin}/pets`;
  return {
    connectionName: 'pets',
    request: {
      method: 'GET',
      url,
      headers: { accept: 'application/json' },
      cookies: [],
      credential,
    },
    fence: createHostFence('pets', new URL(url)),
    principal: { user: 'u1' },
    limits: { timeoutMs, maxResponseBytes: 10_000 },
  };
}

function call(origin: string, token: string, credential: CredentialPlacement, timeoutMs?: number) {
  const machine = openApiCallMachine.provide({
    actors: makeOpenApiCallActors({ resolveToken: async () => token }),
  });
  return runMachine(machine, callInput(origin, credential, timeoutMs)).catch(
    (error: unknown) => error,
  );
}

const bearer: CredentialPlacement = { kind: 'authorization', scheme: 'Bearer' };

describe('openApiCall refused answers', () => {
  it("tells a 401's challenge to the caller", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="pets", scope="pets:read"' });
      res.end('no');
    });
    const error = await call(server.origin, 'tok', bearer);
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect((error as ConnectionAuthorizationRequiredError).challenge).toMatchObject({
      scheme: 'bearer',
      realm: 'pets',
      scope: 'pets:read',
    });
  });

  // Decision 0041: a 401's body is cancelled, not read, so neither a body that never ends nor one
  // past the byte ceiling turns it into a deadline or a size failure.
  it.each([
    ['never ends', (res: ServerResponse) => res.write('still writing')],
    ['is past the byte ceiling', (res: ServerResponse) => res.end('x'.repeat(20_000))],
  ])('ends a 401 whose body %s as authorization required, the body unread', async (_c, send) => {
    const server = await serve((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer scope="pets:read"' });
      send(res);
    });
    const error = await call(server.origin, 'tok', bearer, 2_000);
    expect(error).toBeInstanceOf(ConnectionAuthorizationRequiredError);
    expect(error).toMatchObject({
      operation: 'openapi/call',
      observedReadBytes: 0,
      challenge: { scheme: 'bearer', scope: 'pets:read' },
    });
  });

  it("tells a 429's Retry-After in ms", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '3' });
      res.end('slow down');
    });
    const error = await call(server.origin, 'tok', bearer);
    expect(error).toBeInstanceOf(ConnectionRequestError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3_000 });
  });
});

describe('openApiCall credentials and cookies', () => {
  it("refuses a token with ';' for a cookie before any request, and sends it in a header", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const refused = await call(server.origin, 'a;b', { kind: 'cookie', name: 'session' });
    expect(refused).toBeInstanceOf(ConnectionCredentialError);
    expect(server.requests).toEqual([]);
    const sent = await call(server.origin, 'a;b', { kind: 'header', name: 'x-api-key' });
    expect(sent).toEqual({ ok: true, status: 200, value: { ok: true } });
    expect(server.requests).toHaveLength(1);
  });
});
