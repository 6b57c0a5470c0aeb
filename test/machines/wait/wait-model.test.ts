import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitMachine } from '../../../src/machines/wait/wait.machine.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { expectPinnedEdges, expectPinnedNeverWalked } from '../../support/model-edge-file.js';
import { waitModelOptions, waitWalkHarness } from '../../support/model-wait.js';
import { walkEveryEdge } from '../../support/model-walk.js';

describe('wait machine model', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('satisfies the model invariants (no trap, teardown, cleanup, deadlines, delays)', () => {
    const report = checkModel(waitMachine, waitModelOptions);
    expect(modelCheckProblems(report)).toEqual([]);
    expect({ states: report.states, edges: report.edges }).toEqual({ states: 7, edges: 16 });
  });

  it('drives the real actor along every edge of the model, taking the pinned edge set', async () => {
    const { machine, options } = waitWalkHarness();
    const report = await walkEveryEdge(machine, options);
    console.info(`wait: walked ${report.walked}/${report.total} edges in ${report.paths} paths`);
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(16);
    expectPinnedEdges('wait', 'wait', report.edges);
    expectPinnedNeverWalked('wait', waitMachine, report.taken);
  });
});
