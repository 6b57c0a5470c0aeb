/**
 * The result budget in a definition's presenters and in the mounts' `resultBudget` option
 * (decision 0044): the MCP presentation and the agent's model output cut, `structuredContent`
 * kept whole for a tool with an output schema, a budgeted definition never cut twice, and
 * `read_result` registered on the gateway when results spill.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  budgetAgentOutput,
  resultBudgetOf,
  withResultBudget,
} from '../../../src/binding/contract/budgeted-tool.js';
import { defineRuntimeTool, mountMcp, runTool } from '../../../src/binding/index.js';
import { createFileBoundary } from '../../../src/operations/index.js';
import { type McpPeer, startMcpPeer } from '../../support/binding-mcp-peer.js';

const LINES = `${Array.from({ length: 2000 }, (_, index) => `entry ${index + 1}: the cache was warm`).join('\n')}\n`;
const ENTRIES = LINES.trimEnd().split('\n');
const NEXT =
  'To see what was cut, narrow the request (a filter, a query, a smaller page or limit, fewer fields).]';

const journal = defineRuntimeTool({
  name: 'journal',
  description: 'The whole journal.',
  identity: { serviceName: 'demo', action: 'journal', method: 'GET' },
  input: z.object({}),
  handler: () => ({ lines: LINES }),
});

const typed = defineRuntimeTool({
  name: 'typed',
  description: 'A journal with an output schema.',
  identity: { serviceName: 'demo', action: 'typed', method: 'GET' },
  input: z.object({}),
  outputJsonSchema: { type: 'object', properties: { entries: { type: 'array' } } },
  handler: () => ({ entries: ENTRIES }),
});

let root: string;
let peer: McpPeer | undefined;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mount-budget-'));
});
afterEach(async () => {
  await peer?.stop();
  peer = undefined;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('withResultBudget', () => {
  it('presents a result within budget exactly as the definition does', async () => {
    const small = withResultBudget(
      defineRuntimeTool({ ...journal, handler: () => ({ lines: 'one line' }) }),
      { maxTokens: 1000 },
    );
    expect(resultBudgetOf(small)).toEqual({ maxTokens: 1000 });
    expect(resultBudgetOf(journal)).toBeUndefined();
    const mcp = await runTool(small, {}, { source: 'mcp', transport: 'MCP' });
    expect(mcp).toEqual({
      ok: true,
      data: {
        content: [{ type: 'text', text: '{"lines":"one line"}' }],
        structuredContent: { lines: 'one line' },
      },
    });
    const agent = await runTool(small, {}, { source: 'agent', transport: 'AGENT' });
    expect(agent).toEqual({ ok: true, data: { type: 'json', value: { lines: 'one line' } } });
  });

  it('keeps structuredContent whole for a tool with an output schema, and cuts its text', async () => {
    const budgeted = withResultBudget(typed, { maxTokens: 600 });
    const result = await runTool(budgeted, {}, { source: 'mcp', transport: 'MCP' });
    const data = (result.ok ? result.data : undefined) as {
      content: { type: string; text: string }[];
      structuredContent: unknown;
    };
    expect(data.structuredContent).toEqual({ entries: ENTRIES });
    expect(data.content.map((block) => block.type)).toEqual(['text', 'text']);
    expect(data.content[1]?.text).toBe(
      `[Result cut to fit the model's budget of 600 tokens: the original is 64,906 characters, about 17,005 tokens. Kept: elements 1–39 and 1,989–2,000 of the 2,000 elements of "entries" (the kept JSON parses). ${NEXT}`,
    );
  });

  it('hands the model images as media parts beside the cut text', () => {
    const output = budgetAgentOutput(
      {
        content: [
          { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
          { type: 'text', text: LINES },
        ],
      },
      { maxTokens: 2000 },
    );
    expect(output.type).toBe('content');
    const parts = output.type === 'content' ? output.value : [];
    expect(parts.map((part) => part.type)).toEqual(['media', 'text', 'text', 'text']);
    expect(parts[0]).toEqual({ type: 'media', data: 'aGVsbG8=', mediaType: 'image/png' });
  });
});

describe('mountMcp({ resultBudget })', () => {
  it('cuts a definition from elsewhere and leaves a budgeted one to its own budget', async () => {
    const own = withResultBudget(defineRuntimeTool({ ...journal, name: 'own_journal' }), {
      maxTokens: 5000,
    });
    peer = await startMcpPeer((server) =>
      mountMcp(server, [journal, own], { resultBudget: { maxTokens: 1000 } }),
    );
    const cut = await peer.client.callTool({ name: 'journal', arguments: {} });
    const ownCut = await peer.client.callTool({ name: 'own_journal', arguments: {} });
    const markerOf = (result: typeof cut) =>
      (result.content as { text: string }[]).find((block) => block.text.startsWith('[Result'))
        ?.text;
    expect(markerOf(cut)).toMatch(/^\[Result cut to fit the model's budget of 1,000 tokens/);
    expect(markerOf(ownCut)).toMatch(/^\[Result cut to fit the model's budget of 5,000 tokens/);
    expect(cut.structuredContent).toBeUndefined();
  });

  it('registers read_result when results spill, and the client reads the payload through it', async () => {
    const boundary = createFileBoundary({ root });
    peer = await startMcpPeer((server) =>
      mountMcp(server, [journal], { resultBudget: { maxTokens: 1000, spill: { boundary } } }),
    );
    const { tools } = await peer.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['journal', 'read_result']);
    const cut = await peer.client.callTool({ name: 'journal', arguments: {} });
    const marker = (cut.content as { text: string }[])[1]?.text ?? '';
    const id = /"id":"(r[0-9a-f]{16})"/.exec(marker)?.[1];
    expect(marker).toContain('The whole result is kept as stitchkit-results/');
    const page = await peer.client.callTool({ name: 'read_result', arguments: { id, length: 40 } });
    expect(page.content).toEqual([
      // The payload is the JSON text: its line breaks are the two characters `\n`.
      { type: 'text', text: '{"lines":"entry 1: the cache was warm\\ne' },
      {
        type: 'text',
        text: `[Characters 0–40 of 62,905 of result ${id}. Read on with read_result {"id":"${id}","offset":40}.]`,
      },
    ]);
  });
});
