import { describe, expect, it } from 'vitest';
import { challengeOf, refusalOf, violationOf } from '../../src/machines/connection-outcomes.js';
import type { AuthChallenge } from '../../src/wire/core/www-authenticate.js';
import { isUnauthorizedStatus } from '../../src/wire/http/refusal.js';

const challenge: AuthChallenge = { scheme: 'bearer', realm: 'api' };
const answer = (output: Record<string, unknown>) =>
  ({ event: { output: { kind: 'http-error', ...output } } }) as Parameters<typeof refusalOf>[0];

describe('refusalOf', () => {
  it("takes a refused answer's status, body, challenge and Retry-After", () => {
    expect(
      refusalOf(answer({ status: 429, body: 'slow down', challenge, retryAfterMs: 2_000 })),
    ).toEqual({ status: 429, body: 'slow down', challenge, retryAfterMs: 2_000 });
  });

  it('reads an answer without a body as an empty excerpt', () => {
    expect(refusalOf(answer({ status: 500 }))).toEqual({
      status: 500,
      body: '',
      challenge: undefined,
      retryAfterMs: undefined,
    });
  });

  it('gives nothing of an answer of another kind', () => {
    expect(refusalOf(answer({ kind: 'json', status: 200, body: '{}' }))).toEqual({
      status: 0,
      body: '',
      challenge: undefined,
    });
  });
});

describe('challengeOf', () => {
  it("takes a refused answer's challenge, and none from another kind", () => {
    expect(challengeOf(answer({ status: 401, challenge }))).toEqual({ challenge });
    expect(challengeOf(answer({ kind: 'json', challenge }))).toEqual({ challenge: undefined });
  });
});

describe('violationOf', () => {
  it("takes a malformed answer's violation, empty when it names none or is another kind", () => {
    expect(violationOf(answer({ kind: 'malformed', violation: 'no id' }))).toEqual({
      violation: 'no id',
    });
    expect(violationOf(answer({ kind: 'malformed' }))).toEqual({ violation: '' });
    expect(violationOf(answer({ violation: 'no id' }))).toEqual({ violation: '' });
  });
});

describe('isUnauthorizedStatus', () => {
  it.each([
    [401, true],
    [403, false],
    [400, false],
  ])('%d -> %s', (status, expected) => {
    expect(isUnauthorizedStatus(status)).toBe(expected);
  });
});
