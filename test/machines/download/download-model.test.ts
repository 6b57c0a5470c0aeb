import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadMachine } from '../../../src/machines/download/download.machine.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { downloadModelOptions, downloadWalkHarness } from '../../support/model-download.js';
import { expectPinnedEdges, expectPinnedNeverWalked } from '../../support/model-edge-file.js';
import { walkEveryEdge } from '../../support/model-walk.js';

describe('download machine model', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('satisfies the model invariants (no trap, teardown, cleanup, deadlines, delays)', () => {
    const report = checkModel(downloadMachine, downloadModelOptions);
    expect(modelCheckProblems(report)).toEqual([]);
    expect({ states: report.states, edges: report.edges }).toEqual({ states: 10, edges: 15 });
  });

  it('drives the real actor along every edge of the model, taking the pinned edge set', async () => {
    const { machine, options, commands, transfersStopped } = downloadWalkHarness();
    const report = await walkEveryEdge(machine, options);
    console.info(
      `download: walked ${report.walked}/${report.total} edges in ${report.paths} paths`,
    );
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(15);
    expectPinnedEdges('download', 'download', report.edges);
    expectPinnedNeverWalked('download', downloadMachine, report.taken);
    // Each of the 5 paths that reached the body told the transfer where to write, with the cap;
    // each of the 11 paths that started a transfer stopped it.
    expect(commands).toEqual(
      Array.from({ length: 5 }, () => ({
        type: 'WRITE',
        path: 'cat.png',
        mediaType: 'image/png',
        maxBytes: 1_000,
      })),
    );
    expect(transfersStopped()).toBe(11);
  });
});
