/**
 * Model checks of `mcpTask` (docs/architecture.md, "Invariants"): invariants 1–5 over each explored
 * model, an outcome on every edge into the final state, and the task's own rules: which states
 * each revision uses, and that a task the server ended, failed, cancelled or forgot is never sent
 * `tasks/cancel` while every other ending is. Model sizes are pinned; the real actor is walked
 * along every edge in `mcp-task-edges-model.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { mcpTaskMachine } from '../../../src/machines/mcp-task/mcp-task.machine.js';
import type { McpTaskContext } from '../../../src/machines/mcp-task/mcp-task.types.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { buildModelGraph, type ModelEdge } from '../../support/model-graph.js';
import {
  mcpTaskResumedModelOptions,
  mcpTaskSessionModelOptions,
  mcpTaskStatelessModelOptions,
} from '../../support/model-mcp-task.js';

/** The endings the server decided, which send no `tasks/cancel`, on every model. */
const SERVER_ENDINGS = ['CONNECTION_AUTHORIZATION_REQUIRED', 'cancelled', 'failed', 'lost', 'ok'];

const MODELS = [
  {
    name: '2026-07-28',
    options: mcpTaskStatelessModelOptions,
    // The outcome is part of each vertex, so `cancelling` and `done` count once per outcome; the
    // polls failed in a row (0 or 1 in the model) double the rest.
    size: { states: 386, edges: 1097, finalEdges: 687 },
    states: ['asking', 'cancelling', 'done', 'polling', 'updating', 'working'],
    straightEnds: SERVER_ENDINGS,
  },
  {
    name: '2025-11-25',
    options: mcpTaskSessionModelOptions,
    size: { states: 64, edges: 183, finalEdges: 109 },
    states: ['cancelling', 'done', 'fetchingResult', 'polling', 'working'],
    straightEnds: SERVER_ENDINGS,
  },
  {
    // A retry resumes the task with its caller's answers (`updating` first); a new question ends
    // the call with the questions (input required), and the task waits upstream: no cancel.
    name: '2026-07-28, resumed by a caller that answers by a retry',
    options: mcpTaskResumedModelOptions,
    // `updating` is where it starts, never re-entered: a new question ends the call.
    size: { states: 65, edges: 182, finalEdges: 119 },
    states: ['cancelling', 'done', 'polling', 'working'],
    straightEnds: [...SERVER_ENDINGS, 'CONNECTION_INPUT_REQUIRED'].sort(),
  },
] as const;

const stateOf = (edge: ModelEdge, side: 'sourceSnapshot' | 'targetSnapshot') =>
  String(edge[side].value);

describe.each(MODELS)('mcpTask model of $name', ({ options, size, states, straightEnds }) => {
  const graph = buildModelGraph(mcpTaskMachine, options);

  it('satisfies invariants 1–4: no trap state, teardown into final, cleanup on exit, deadlines and CANCEL, delays resolve', () => {
    const report = checkModel(mcpTaskMachine, options);
    expect(modelCheckProblems(report)).toEqual([]);
    expect({ states: report.states, edges: report.edges }).toEqual({
      states: size.states,
      edges: size.edges,
    });
  });

  it('decides an outcome on every edge into the final state', () => {
    const final = graph.edges.filter((edge) => edge.targetSnapshot.status === 'done');
    expect(final).toHaveLength(size.finalEdges);
    const withoutOutcome = final.filter(
      (edge) => (edge.targetSnapshot.context as McpTaskContext).outcome === undefined,
    );
    expect(withoutOutcome).toEqual([]);
  });

  it("uses only its revision's states", () => {
    const reached = new Set(graph.edges.map((edge) => stateOf(edge, 'targetSnapshot')));
    expect([...reached].sort()).toEqual([...states]);
  });

  it('sends tasks/cancel on every ending but those the server decided', () => {
    // Straight from a request into the final state: the server ended, failed, cancelled or
    // forgot the task, or refused the credential; nothing is left to cancel.
    const straight = graph.edges.filter(
      (edge) =>
        edge.targetSnapshot.status === 'done' && stateOf(edge, 'sourceSnapshot') !== 'cancelling',
    );
    const ends = straight.map((edge) => {
      const outcome = (edge.targetSnapshot.context as McpTaskContext).outcome;
      if (outcome === undefined || outcome.ok) return 'ok';
      const error = outcome.error as { code?: string; end?: string };
      return error.end ?? error.code ?? 'other';
    });
    expect([...new Set(ends)].sort()).toEqual(straightEnds);
    // Every other ending passes through `cancelling`: a deadline, the caller's abort, a refusal or
    // a broken answer.
    const intoCancelling = graph.edges.filter(
      (edge) =>
        stateOf(edge, 'targetSnapshot') === 'cancelling' &&
        stateOf(edge, 'sourceSnapshot') !== 'cancelling',
    );
    expect(
      intoCancelling.every(
        (edge) => (edge.targetSnapshot.context as McpTaskContext).outcome?.ok === false,
      ),
    ).toBe(true);
  });
});
