/**
 * Secrets in machine context never serialise, and a wiped secret cannot be used again.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SecretValue, secretHeaders } from '../../src/machines/secret-value.js';

const MARKER = 'tok-SECRET-9913';

describe('SecretValue', () => {
  it('prints [redacted] through JSON, string conversion, util.inspect and template literals', () => {
    const secret = new SecretValue(MARKER);
    const views = [
      JSON.stringify({ token: secret }),
      String(secret),
      `${secret}`,
      inspect({ nested: { secret } }, { depth: 5 }),
    ];
    expect(views.join(' ')).not.toContain(MARKER);
    expect(JSON.stringify({ token: secret })).toBe('{"token":"[redacted]"}');
    expect(secret.reveal()).toBe(MARKER);
  });

  it('refuses to reveal once wiped', () => {
    const secret = new SecretValue(MARKER);
    secret.wipe();
    expect(secret.wiped).toBe(true);
    expect(() => secret.reveal()).toThrow(/wiped/);
  });

  it('wraps header values and lowercases their names', () => {
    const headers = secretHeaders({ 'X-Api-Key': MARKER });
    expect(Object.keys(headers)).toEqual(['x-api-key']);
    expect(JSON.stringify(headers)).toBe('{"x-api-key":"[redacted]"}');
    expect(headers['x-api-key']?.reveal()).toBe(MARKER);
  });
});
