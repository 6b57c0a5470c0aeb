import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryMachine } from '../../../src/machines/retry/retry.machine.js';
import { ConnectionTimeoutError } from '../../../src/wire/index.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { expectPinnedEdges, expectPinnedNeverWalked } from '../../support/model-edge-file.js';
import { buildModelGraph } from '../../support/model-graph.js';
import { RETRY_BUDGET_MS, retryModelOptions, retryWalkHarness } from '../../support/model-retry.js';
import { walkEveryEdge } from '../../support/model-walk.js';

describe('retry machine model', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('satisfies the model invariants (no trap, teardown, cleanup, deadlines, delays)', () => {
    const report = checkModel(retryMachine, retryModelOptions);
    expect(modelCheckProblems(report)).toEqual([]);
    // Vertices: each of the two attempts running, and stopping after its deadline or a CANCEL
    // (6); the backoff between them (1); final: a success, the three failures that end at once
    // (reset, the 503 whose wait does not fit, the refusal), the refused second attempt, the
    // deadline and CANCEL (7). Edges: each running vertex 8 (a value, 4 failures, the deadline,
    // CANCEL, and a later deadline asked for, back into itself), each stopping vertex 4 (either
    // attempt ending, CANCEL, its own deadline), the backoff 2 (its delay, CANCEL).
    expect({ states: report.states, edges: report.edges }).toEqual({ states: 14, edges: 34 });
  });

  it('decides an outcome on every edge into the final state (the output fallback is unreachable)', () => {
    const graph = buildModelGraph(retryMachine, retryModelOptions);
    const final = graph.edges.filter((edge) => edge.targetSnapshot.status === 'done');
    const withoutOutcome = final.filter(
      (edge) => (edge.targetSnapshot.context as { outcome?: unknown }).outcome === undefined,
    );
    expect(withoutOutcome.map((edge) => edge.event.type)).toEqual([]);
  });

  it('retries only the refused attempt, and only once', () => {
    const graph = buildModelGraph(retryMachine, retryModelOptions);
    const intoBackoff = graph.edges
      .filter((edge) => edge.targetSnapshot.value === 'backingOff')
      .map((edge) => (edge.event as { error?: { message?: string } }).error?.message);
    expect(intoBackoff).toEqual([
      'Connection "model" failed on the network: the connection was refused during tools/call',
    ]);
  });

  it('drives the real actor along every edge of the model, taking the pinned edge set', async () => {
    const { machine, options, signals } = retryWalkHarness();
    const report = await walkEveryEdge(machine, options);
    console.info(`retry: walked ${report.walked}/${report.total} edges in ${report.paths} paths`);
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(34);
    expectPinnedEdges('retry', 'retry', report.edges);
    expectPinnedNeverWalked('retry', retryMachine, report.taken);
    // Only an attempt told to stop saw its signal aborted, and with the outcome's exact reason
    // (the caller's, or the operation's timeout), or one still running when the walk stopped the
    // actor at the end of its path (the path into the second attempt, and the two paths that end
    // on an attempt's later deadline, one per attempt).
    const reasons = signals
      .filter((signal) => signal.aborted)
      .map((signal) =>
        ConnectionTimeoutError.isInstance(signal.reason)
          ? `timeout ${signal.reason.timeoutMs}`
          : signal.reason instanceof Error
            ? signal.reason.message
            : signal.reason,
      );
    expect(new Set(reasons)).toEqual(
      new Set(['walk cancelled', `timeout ${RETRY_BUDGET_MS}`, 'retry: the attempt was stopped']),
    );
    expect(reasons.filter((reason) => reason === 'retry: the attempt was stopped')).toHaveLength(3);
  });
});
