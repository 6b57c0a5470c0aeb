import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countTransitions } from '../../../src/diagrams/table.js';
import { openApiCallMachine } from '../../../src/machines/open-api-call/open-api-call.machine.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { expectPinnedEdges, expectPinnedNeverWalked } from '../../support/model-edge-file.js';
import { buildModelGraph } from '../../support/model-graph.js';
import {
  CALL_URL,
  MODEL_TOKEN,
  openApiCallModelOptions,
  openApiCallTokenlessModelOptions,
  openApiCallWalkHarness,
} from '../../support/model-open-api-call.js';
import { walkEveryEdge } from '../../support/model-walk.js';

/** The rows of the definition the walks below took, over both models. */
const taken = new Set<string>();

describe('openApiCall machine model', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('satisfies the model invariants (no trap, teardown, cleanup, deadlines, delays)', () => {
    const report = checkModel(openApiCallMachine, openApiCallModelOptions);
    expect(modelCheckProblems(report)).toEqual([]);
    // Vertices: credentials, requesting before and after a byte report, and 14 final outcomes
    // (2 token failures; 200, 204, malformed, 401, 403, 500; 3 send failures; the deadline with
    // 0 and with 512 bytes reported; CANCEL). Edges: credentials 6 (2 tokens, 2 failures, the
    // deadline, CANCEL), each requesting vertex 12 (6 answers, 3 failures, the deadline, CANCEL,
    // BYTES_READ).
    expect({ states: report.states, edges: report.edges }).toEqual({ states: 17, edges: 30 });
  });

  it('decides an outcome on every edge into the final state (the output fallback is unreachable)', () => {
    const graph = buildModelGraph(openApiCallMachine, openApiCallModelOptions);
    const final = graph.edges.filter((edge) => edge.targetSnapshot.status === 'done');
    expect(final).toHaveLength(26);
    const withoutOutcome = final.filter(
      (edge) => (edge.targetSnapshot.context as { outcome?: unknown }).outcome === undefined,
    );
    expect(withoutOutcome.map((edge) => edge.event.type)).toEqual([]);
  });

  it('drives the real actor along every edge of the model, taking the pinned edge set', async () => {
    const { machine, options, wire, principals } = openApiCallWalkHarness();
    const report = await walkEveryEdge(machine, options);
    console.info(
      `openApiCall: walked ${report.walked}/${report.total} edges in ${report.paths} paths`,
    );
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(30);
    expectPinnedEdges('open-api-call', 'openApiCall', report.edges);
    for (const row of report.taken) taken.add(row);
    // No edge is first taken on the way to another, so every edge is its own path; each path
    // asked the provider once, for the run's principal.
    expect(report.paths).toBe(30);
    expect(principals).toEqual(Array.from({ length: 30 }, () => ({ user: 'u1' })));
    // 26 paths reached `requesting`: 25 by the first token edge (the bearer is placed), one by
    // the anonymous edge (no authorization header).
    const sent = wire.requests.map(({ url, method, headers }) => ({
      url: url.href,
      method,
      authorization: headers.authorization,
    }));
    expect(sent).toHaveLength(26);
    expect(
      sent.filter((request) => request.authorization === `Bearer ${MODEL_TOKEN}`),
    ).toHaveLength(25);
    expect(sent.filter((request) => request.authorization === undefined)).toEqual([
      { url: CALL_URL, method: 'GET', authorization: undefined },
    ]);
    expect(new Set(sent.map((request) => `${request.method} ${request.url}`))).toEqual(
      new Set([`GET ${CALL_URL}`]),
    );
  });

  it('walks the call of a connection without a token provider: no provider, no credential', async () => {
    const { machine, options, wire, principals } = openApiCallWalkHarness(
      openApiCallMachine,
      openApiCallTokenlessModelOptions,
    );
    const report = await walkEveryEdge(machine, options);
    expect(report.failures).toEqual([]);
    // The two requesting vertices and their 12 edges each; no `credentials`.
    expect({ walked: report.walked, total: report.total }).toEqual({ walked: 24, total: 24 });
    expectPinnedEdges('open-api-call', 'openApiCall, no token provider', report.edges);
    for (const row of report.taken) taken.add(row);
    expect(principals).toEqual([]);
    expect(
      wire.requests.map(({ url, method, headers }) => ({
        url: url.href,
        method,
        authorization: headers.authorization,
      })),
    ).toEqual(
      Array.from({ length: report.paths }, () => ({
        url: CALL_URL,
        method: 'GET',
        authorization: undefined,
      })),
    );
  });

  it('takes every row of the definition over both walks', () => {
    // Every row of the table (the walks ran, and took them all).
    expect(taken.size).toBe(countTransitions(openApiCallMachine));
    expectPinnedNeverWalked('open-api-call', openApiCallMachine, taken);
  });
});
