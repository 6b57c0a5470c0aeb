/**
 * `mcpTask` walked on the real actor, model by model, each walk compared with its pinned section
 * of `mcp-task.edges.txt`; then the definition's transitions no model took, pinned in the file's
 * last section. Regenerate with `npm run edges -- mcp-task` once a change of the chart is reviewed.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mcpTaskMachine } from '../../../src/machines/mcp-task/mcp-task.machine.js';
import { expectPinnedEdges, expectPinnedNeverWalked } from '../../support/model-edge-file.js';
import { MCP_TASK_MODELS, mcpTaskWalkHarness } from '../../support/model-mcp-task.js';
import { walkEveryEdge } from '../../support/model-walk.js';

const taken = new Set<string>();
const walkedModels = new Set<string>();

describe.each(MCP_TASK_MODELS)('mcpTask ($name) walked on the real actor', ({ name, options }) => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes every edge of the model as predicted, and the pinned edge set', async () => {
    const harness = mcpTaskWalkHarness(options);
    const report = await walkEveryEdge(harness.machine, harness.options);
    for (const transition of report.taken) taken.add(transition);
    walkedModels.add(name);
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expectPinnedEdges('mcp-task', name, report.edges);
  }, 60_000);
});

describe('mcpTask over every model', () => {
  afterAll(() => {
    taken.clear();
  });

  it('takes every transition of the definition but those pinned as never walked', () => {
    expect([...walkedModels]).toEqual(MCP_TASK_MODELS.map(({ name }) => name));
    expectPinnedNeverWalked('mcp-task', mcpTaskMachine, taken);
  });
});
