import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listenMachine } from '../../../src/machines/listen/listen.machine.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { expectPinnedEdges, expectPinnedNeverWalked } from '../../support/model-edge-file.js';
import { buildModelGraph } from '../../support/model-graph.js';
import {
  listenModelOptions,
  listenSessionModelOptions,
  listenTokenlessModelOptions,
  listenWalkHarness,
} from '../../support/model-listen.js';
import { walkEveryEdge } from '../../support/model-walk.js';

describe('listen machine model', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('satisfies the model invariants (no trap, teardown, cleanup, deadlines, delays)', () => {
    const report = checkModel(listenMachine, listenModelOptions);
    expect(modelCheckProblems(report)).toEqual([]);
    expect({ states: report.states, edges: report.edges }).toEqual({ states: 19, edges: 68 });
  });

  it('decides an outcome on every edge into the final state (the output fallback is unreachable)', () => {
    const graph = buildModelGraph(listenMachine, listenModelOptions);
    const final = graph.edges.filter((edge) => edge.targetSnapshot.status === 'done');
    const withoutOutcome = final.filter(
      (edge) => (edge.targetSnapshot.context as { outcome?: unknown }).outcome === undefined,
    );
    expect(withoutOutcome.map((edge) => edge.event.type)).toEqual([]);
  });

  it('tells a change only after a burst settles, or when a dropped stream listens again', () => {
    const graph = buildModelGraph(listenMachine, listenModelOptions);
    const telling = graph.edges
      .filter((edge) => edge.targetSnapshot.context.changes > edge.sourceSnapshot.context.changes)
      .map(
        (edge) =>
          `${JSON.stringify(edge.sourceSnapshot.value)} --${edge.event.type}${edge.sourceSnapshot.context.opened > 0 ? ' (listened before)' : ''}`,
      );
    expect([...new Set(telling)].sort()).toEqual([
      '{"streaming":"connecting"} --OPENED (listened before)',
      '{"streaming":{"listening":"settling"}} --xstate.after.DEBOUNCE.listen.streaming.listening.settling (listened before)',
    ]);
  });

  it('drives the real actor along every edge of the model, taking the pinned edge set', async () => {
    const { machine, options } = listenWalkHarness();
    const report = await walkEveryEdge(machine, options);
    console.info(`listen: walked ${report.walked}/${report.total} edges in ${report.paths} paths`);
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(68);
    expectPinnedEdges('listen', 'listen', report.edges);
  });

  it('on a connection without a token provider, connects without credentials, taking the pinned edge set', async () => {
    const checked = checkModel(listenMachine, listenTokenlessModelOptions);
    expect(modelCheckProblems(checked)).toEqual([]);
    expect({ states: checked.states, edges: checked.edges }).toEqual({ states: 14, edges: 52 });
    const { machine, options } = listenWalkHarness(listenMachine, listenTokenlessModelOptions);
    const report = await walkEveryEdge(machine, options);
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(52);
    expectPinnedEdges('listen', 'listen, no token provider', report.edges);
  });

  it('on a 2025 session, ends the session its stream opened before connecting again and before the end, taking the pinned edge set', async () => {
    const checked = checkModel(listenMachine, listenSessionModelOptions);
    expect(modelCheckProblems(checked)).toEqual([]);
    expect({ states: checked.states, edges: checked.edges }).toEqual({ states: 32, edges: 142 });
    const graph = buildModelGraph(listenMachine, listenSessionModelOptions);
    // Every way out of a stream that holds a session goes through its DELETE.
    const leavingWithSession = graph.edges.filter(
      (edge) =>
        edge.sourceSnapshot.context.session !== undefined &&
        edge.sourceSnapshot.matches('streaming') &&
        !edge.targetSnapshot.matches('streaming'),
    );
    expect(
      [
        ...new Set(leavingWithSession.map((edge) => JSON.stringify(edge.targetSnapshot.value))),
      ].sort(),
    ).toEqual(['"endingSession"', '{"reconnecting":"endingSession"}']);
    const { machine, options } = listenWalkHarness(listenMachine, listenSessionModelOptions);
    const report = await walkEveryEdge(machine, options);
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expectPinnedEdges('listen', 'listen, a 2025 session', report.edges);
  });

  it('leaves no transition of the definition unwalked by its three models', async () => {
    const taken = new Set<string>();
    for (const modelOptions of [
      listenModelOptions,
      listenTokenlessModelOptions,
      listenSessionModelOptions,
    ]) {
      const { machine, options } = listenWalkHarness(listenMachine, modelOptions);
      for (const row of (await walkEveryEdge(machine, options)).taken) taken.add(row);
    }
    expectPinnedNeverWalked('listen', listenMachine, taken);
  });
});
