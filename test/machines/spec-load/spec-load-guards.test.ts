/** The guards of `specLoad`, one table per guard, over the exchange the chart maps. */
import { describe, expect, it } from 'vitest';
import { specLoadGuards as guards } from '../../../src/machines/spec-load/spec-load.guards.js';
import type { SpecExchange } from '../../../src/machines/spec-load/spec-load.types.js';

const EXCHANGES: readonly [string, SpecExchange][] = [
  ['a document', { kind: 'document', document: { openapi: '3.0.3' } }],
  ['malformed', { kind: 'malformed', violation: 'not JSON' }],
  ['http-error 401', { kind: 'http-error', status: 401, body: '' }],
  ['http-error 404', { kind: 'http-error', status: 404, body: 'missing' }],
  ['http-error 500', { kind: 'http-error', status: 500, body: '' }],
];

/** Each guard's verdict on each exchange of {@link EXCHANGES}, in order. */
const VERDICTS: Record<keyof typeof guards, readonly boolean[]> = {
  isHttpError: [false, false, true, true, true],
  isMalformed: [false, true, false, false, false],
};

describe.each(Object.keys(VERDICTS) as (keyof typeof guards)[])('%s', (name) => {
  it.each(EXCHANGES.map(([label, exchange], index) => [label, exchange, VERDICTS[name][index]]))(
    '%s -> %s',
    (_label, exchange, expected) => {
      expect(guards[name](undefined, { exchange: exchange as SpecExchange })).toBe(expected);
    },
  );
});

describe('the guard list', () => {
  it('names exactly the guards the chart uses', () => {
    expect(Object.keys(guards).sort()).toEqual(['isHttpError', 'isMalformed']);
  });
});
