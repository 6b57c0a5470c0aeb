/** The guards of `openApiCall`, one table per guard, over the exchange the chart maps. */
import { describe, expect, it } from 'vitest';
import { openApiCallGuards as guards } from '../../../src/machines/open-api-call/open-api-call.guards.js';
import type { OpenApiExchange } from '../../../src/machines/open-api-call/open-api-call.types.js';

const httpError = (status: number): OpenApiExchange => ({ kind: 'http-error', status, body: '' });
const decoded: OpenApiExchange = { kind: 'decoded', status: 200, value: { id: 1 } };
const decodedEmpty: OpenApiExchange = { kind: 'decoded', status: 204, value: null };
const malformed: OpenApiExchange = { kind: 'malformed', violation: 'not JSON' };

const EXCHANGES: readonly [string, OpenApiExchange][] = [
  ['decoded 200', decoded],
  ['decoded 204', decodedEmpty],
  ['malformed', malformed],
  ['http-error 400', httpError(400)],
  ['http-error 401', httpError(401)],
  ['http-error 403', httpError(403)],
  ['http-error 500', httpError(500)],
];

/** Each guard's verdict on each exchange of {@link EXCHANGES}, in order. */
const VERDICTS: Record<Exclude<keyof typeof guards, 'resolvesToken'>, readonly boolean[]> = {
  isUnauthorized: [false, false, false, false, true, false, false],
  // Any non-2xx, 401 included: the chart asks isUnauthorized first, so a 401 never gets here.
  isHttpError: [false, false, false, true, true, true, true],
  isMalformed: [false, false, true, false, false, false, false],
};

describe.each(Object.keys(VERDICTS) as (keyof typeof VERDICTS)[])('%s', (name) => {
  it.each(EXCHANGES.map(([label, exchange], index) => [label, exchange, VERDICTS[name][index]]))(
    '%s -> %s',
    (_label, exchange, expected) => {
      expect(guards[name](undefined, { exchange: exchange as OpenApiExchange })).toBe(expected);
    },
  );
});

describe('isUnauthorized over every status', () => {
  it('is true for 401 only, from 100 to 599 (403 stays a request refusal)', () => {
    const statuses = Array.from({ length: 500 }, (_, index) => index + 100);
    expect(
      statuses.filter((status) =>
        guards.isUnauthorized(undefined, { exchange: httpError(status) }),
      ),
    ).toEqual([401]);
  });
});

describe('resolvesToken', () => {
  it.each([true, false])('is %s exactly when the connection has a token provider', (has) => {
    expect(guards.resolvesToken(undefined, { resolvesToken: has })).toBe(has);
  });
});

describe('the guard list', () => {
  it('names exactly the guards the chart uses', () => {
    expect(Object.keys(guards).sort()).toEqual([
      'isHttpError',
      'isMalformed',
      'isUnauthorized',
      'resolvesToken',
    ]);
  });
});
