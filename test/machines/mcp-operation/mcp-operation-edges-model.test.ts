/**
 * `mcpOperation` walked on the real actor, model by model, each walk compared with its pinned
 * section of `mcp-operation.edges.txt`; then the definition's transitions no model took, pinned
 * in the file's last section. Regenerate with `npm run edges -- mcp-operation` once a change of
 * the chart is reviewed.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mcpOperationMachine } from '../../../src/machines/mcp-operation/mcp-operation.machine.js';
import { expectPinnedEdges, expectPinnedNeverWalked } from '../../support/model-edge-file.js';
import { MCP_MODELS, mcpWalkHarness } from '../../support/model-mcp-walk.js';
import { walkEveryEdge } from '../../support/model-walk.js';

/** The definition's transitions the walks took, over every model. */
const taken = new Set<string>();
const walkedModels = new Set<string>();

describe.each(MCP_MODELS)('mcpOperation ($name) walked on the real actor', ({ name, options }) => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes every edge of the model as predicted, and the pinned edge set', async () => {
    const harness = mcpWalkHarness(options);
    const report = await walkEveryEdge(harness.machine, harness.options);
    for (const transition of report.taken) taken.add(transition);
    walkedModels.add(name);
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expectPinnedEdges('mcp-operation', name, report.edges);
    // Generous: the largest model is about 860 edges on a shared machine; nothing here is timed.
  }, 60_000);
});

describe('mcpOperation over every model', () => {
  afterAll(() => {
    taken.clear();
  });

  it('takes every transition of the definition but those pinned as never walked', () => {
    expect([...walkedModels]).toEqual(MCP_MODELS.map(({ name }) => name));
    expectPinnedNeverWalked('mcp-operation', mcpOperationMachine, taken);
  });
});
