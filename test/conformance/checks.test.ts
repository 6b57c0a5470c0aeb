/**
 * How `npm run conformance` judges a scenario run check by check (conformance/checks.ts): a
 * check that does not pass and is not listed is named, a listed check that passes is named, and
 * a check the direct run reported that the gateway run did not is named unless listed.
 */
import { describe, expect, it } from 'vitest';
import {
  type ConformanceCheck,
  failingChecks,
  type ScenarioRun,
  scoreCell,
  unexpectedChecks,
} from '../../conformance/checks.js';

function runOf(...checks: ConformanceCheck[]): ScenarioRun {
  return { checks, failing: failingChecks(checks), output: '' };
}

const pass = (id: string): ConformanceCheck => ({ id, status: 'SUCCESS' });
const fail = (id: string, status = 'FAILURE'): ConformanceCheck => ({
  id,
  status,
  errorMessage: `${id} went wrong`,
});

describe('failingChecks', () => {
  it('names every id with a check that did not pass (FAILURE, WARNING, SKIPPED), once', () => {
    const failing = failingChecks([
      pass('a'),
      fail('b'),
      fail('b', 'WARNING'),
      fail('c', 'WARNING'),
      fail('d', 'SKIPPED'),
      pass('e'),
      fail('e'),
    ]);
    expect([...failing]).toEqual([
      ['b', 'FAILURE: b went wrong'],
      ['c', 'WARNING: c went wrong'],
      ['d', 'SKIPPED: d went wrong'],
      ['e', 'FAILURE: e went wrong'],
    ]);
  });

  it('fails a run that reported no check at all', () => {
    expect([...failingChecks([])]).toEqual([['(no checks)', 'the run reported no checks']]);
  });
});

describe('unexpectedChecks', () => {
  it('is empty when exactly the listed checks fail', () => {
    expect(unexpectedChecks(runOf(pass('a'), fail('b')), { b: 'why' })).toEqual([]);
  });

  it('names an unlisted failing check and a listed check that passes', () => {
    expect(unexpectedChecks(runOf(pass('a'), fail('b')), { a: 'why' })).toEqual([
      'b: FAILURE: b went wrong',
      'a is listed as failing, and passes: remove it from the list',
    ]);
  });

  it('names a check the reference run reported and this run did not, unless listed', () => {
    const direct = runOf(pass('a'), pass('b'), pass('c'));
    const relayed = runOf(pass('a'));
    expect(unexpectedChecks(relayed, { b: 'why' }, direct)).toEqual(['c: not reported']);
  });
});

describe('scoreCell', () => {
  it('prints the score and, on a failure, the failing ids', () => {
    expect(scoreCell(runOf(pass('a'), pass('b')))).toBe('pass 2/2');
    expect(scoreCell(runOf(pass('a'), fail('b'), fail('c', 'SKIPPED')))).toBe('FAIL 1/3: b, c');
  });
});
