import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { specLoadMachine } from '../../../src/machines/spec-load/spec-load.machine.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { expectPinnedEdges, expectPinnedNeverWalked } from '../../support/model-edge-file.js';
import {
  SPEC_URL,
  specLoadModelOptions,
  specLoadWalkHarness,
} from '../../support/model-spec-load.js';
import { walkEveryEdge } from '../../support/model-walk.js';

describe('specLoad machine model', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('satisfies the model invariants (no trap, teardown, cleanup, deadlines, delays)', () => {
    const report = checkModel(specLoadMachine, specLoadModelOptions);
    expect(modelCheckProblems(report)).toEqual([]);
    // `fetching` and one final vertex per outcome: the document, YAML, 401, 403, 500, the three
    // actor failures (network, redirect, too large), the deadline and CANCEL; one edge to each.
    expect({ states: report.states, edges: report.edges }).toEqual({ states: 11, edges: 10 });
  });

  it('drives the real actor along every edge of the model, taking the pinned edge set', async () => {
    const { machine, options, wire } = specLoadWalkHarness();
    const report = await walkEveryEdge(machine, options);
    console.info(
      `specLoad: walked ${report.walked}/${report.total} edges in ${report.paths} paths`,
    );
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(10);
    expectPinnedEdges('spec-load', 'specLoad', report.edges);
    expectPinnedNeverWalked('spec-load', specLoadMachine, report.taken);
    // Every edge leaves `fetching`, so each is its own path and each path sent one GET: to the
    // document URL, asking for JSON, with no credential of any kind.
    expect(report.paths).toBe(10);
    expect(
      wire.requests.map(({ url, method, headers }) => ({ url: url.href, method, headers })),
    ).toEqual(
      Array.from({ length: 10 }, () => ({
        url: SPEC_URL,
        method: 'GET',
        headers: { accept: 'application/json' },
      })),
    );
  });
});
