/**
 * The result budget wired into every model-facing presentation (issue 46, decision 0044), on
 * real peers: the MCP SDK v2's own server on loopback answering 2 MB of JSON, mounted with
 * `mountConnections` and run through `mountAgent` with the real `ai` `generateText`, through the
 * gateway (`mountMcp`) to the SDK's own client, an OpenAPI service answering a big body, and a
 * definition from elsewhere. The model sees the cut with its marker; `runTool`'s data stays whole.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyRuntimeToolDefinition,
  defineRuntimeTool,
  estimateTokens,
  mountAgent,
  mountMcp,
  runTool,
} from '../../src/binding/index.js';
import {
  defineMcpClientConnection,
  defineOpenApiConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { createFileBoundary } from '../../src/operations/index.js';
import { type FaultServer, reply, startFaultServer } from '../fixtures/fault-server.js';
import { serveWebHandler } from '../fixtures/http-helpers.js';
import { modelCalling, run, toolMessageOf } from '../support/agent-model.js';
import { startMcpPeer } from '../support/binding-mcp-peer.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

/** `n` user records with URLs and 40-character hex hashes (the 2 MB answer of decision 0043). */
function records(n: number) {
  return Array.from({ length: n }, (_, index) => ({
    id: index + 1,
    login: `user-${index + 1}`,
    url: `https://example.org/users/${index + 1}`,
    sha: (((index + 1) * 2654435761) >>> 0).toString(16).padStart(8, '0').repeat(5),
  }));
}

const ALL = records(17_600);
const BIG = JSON.stringify(ALL);
/** 1,500 lines of a log: about 15,000 estimated tokens, over the default budget. */
const LOG = Array.from(
  { length: 1500 },
  (_, index) => `line ${index + 1}: GET /items?page=${index} 200`,
).join('\n');

/** The marker's last sentence when nothing was spilled. */
const NEXT =
  'To see what was cut, narrow the request (a filter, a query, a smaller page or limit, fewer fields).]';
/** The marker the 2 MB answer gets under the default budget (decision 0043, verbatim). */
const MARKER_2MB = `[Result cut to fit the model's budget of 10,000 tokens: the original is 2,131,483 characters, about 899,133 tokens. Kept: elements 1–151 and 17,554–17,600 of the 17,600 top-level elements (the kept JSON parses). ${NEXT}`;

function bigServer(): McpServer {
  const server = new McpServer({ name: 'big-peer', version: '1.0.0' });
  server.registerTool(
    'search',
    { description: 'Searches every user.', inputSchema: z.object({}) },
    async () => ({ content: [{ type: 'text', text: BIG }], structuredContent: { items: ALL } }),
  );
  server.registerTool(
    'log',
    { description: 'The request log.', inputSchema: z.object({}) },
    async () => ({ content: [{ type: 'text', text: LOG }] }),
  );
  server.registerTool(
    'log_declared',
    {
      description: 'The request log, its size declared.',
      inputSchema: z.object({}),
      _meta: { 'anthropic/maxResultSizeChars': 100_000 },
    },
    async () => ({ content: [{ type: 'text', text: LOG }] }),
  );
  return server;
}

const ITEMS_DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'items', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        summary: 'Lists every item.',
        responses: { '200': { description: 'The items.' } },
      },
    },
  },
};

const handler = createMcpHandler(bigServer);
let mcp: Awaited<ReturnType<typeof serveWebHandler>>;
let service: FaultServer;
let spillRoot: string;
let baseline: ReturnType<typeof activeResourceCounts>;
const unhandled = trackUnhandledRejections();

beforeAll(async () => {
  baseline = activeResourceCounts();
  mcp = await serveWebHandler(handler);
  service = await startFaultServer((request) =>
    request.path === '/openapi.json' ? reply.json(200, ITEMS_DOCUMENT) : reply.json(200, ALL),
  );
  spillRoot = await mkdtemp(join(tmpdir(), 'result-spill-'));
});
afterAll(async () => {
  await handler.close();
  await mcp.close();
  await service.close();
  await rm(spillRoot, { recursive: true, force: true });
  await expectNoLeakedResources(baseline);
  expect(unhandled).toEqual([]);
});

function bigConnection(results?: { maxTokens?: number }) {
  return defineMcpClientConnection({
    name: 'big',
    transport: { url: `${mcp.origin}/mcp` },
    maxResponseBytes: 16 * 1_048_576,
    ...(results === undefined ? {} : { results }),
  });
}

function toolNamed(tools: readonly AnyRuntimeToolDefinition[], name: string) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`${name} not mounted`);
  return tool;
}

/** The tool output the model received on its second step. */
async function modelOutputOf(tools: readonly AnyRuntimeToolDefinition[], name: string) {
  const model = modelCalling(name, {});
  const result = await run(model, mountAgent({ runtimeTools: tools }));
  const part = toolMessageOf(model)?.content[0];
  return {
    output: part?.type === 'tool-result' ? part.output : undefined,
    hostOutput: result.steps[0]?.toolResults[0]?.output,
  };
}

/** The texts of a `content` model output. */
function textsOf(output: unknown): string[] {
  const { type, value } = output as { type: string; value: { type: string; text?: string }[] };
  expect(type).toBe('content');
  return value.map((part) => part.text ?? `<${part.type}>`);
}

describe('a 2 MB MCP answer through mountAgent and generateText', () => {
  it('reaches the model cut to 10,000 tokens with its marker; the host gets it whole', async () => {
    const tools = await mountConnections([bigConnection()]);
    const { output, hostOutput } = await modelOutputOf(tools, 'search');

    const [json, marker, ...rest] = textsOf(output);
    expect(rest).toEqual([]);
    expect(marker).toBe(MARKER_2MB);
    expect(JSON.parse(json ?? '')).toEqual([...ALL.slice(0, 151), ...ALL.slice(17_553)]);
    expect(estimateTokens(`${json}${marker}`)).toBeLessThanOrEqual(10_000);
    console.log(
      `What the model sees of the 2 MB answer: ${json?.length} characters of JSON, then\n${marker}`,
    );
    expect(hostOutput).toEqual(
      expect.objectContaining({
        content: [{ type: 'text', text: BIG }],
        structuredContent: { items: ALL },
      }),
    );
  });

  it("leaves runTool's data whole", async () => {
    const tools = await mountConnections([bigConnection()]);
    const result = await runTool(toolNamed(tools, 'search'), {}, { source: 'internal' });
    expect(result).toEqual({
      ok: true,
      data: expect.objectContaining({
        content: [{ type: 'text', text: BIG }],
        structuredContent: { items: ALL },
      }),
    });
  });
});

describe('the allowance of a connection and of a tool', () => {
  it.each([
    ['the default', undefined, undefined, '10,000', '597 and the last 186'],
    ['the mount option', undefined, 4000, '4,000', '229 and the last 70'],
    ["the connection's results, over the mount option", 2000, 4000, '2,000', '111 and the last 33'],
  ])('cuts to %s', async (_, perConnection, perMount, budget, kept) => {
    const tools = await mountConnections(
      [bigConnection(perConnection === undefined ? undefined : { maxTokens: perConnection })],
      perMount === undefined ? {} : { resultBudget: { maxTokens: perMount } },
    );
    const { output } = await modelOutputOf(tools, 'log');
    const texts = textsOf(output);
    expect(texts[1]).toBe(
      `[Result cut to fit the model's budget of ${budget} tokens: the original is 51,782 characters, about 19,000 tokens. Kept: the first ${kept} of 1,500 lines. ${NEXT}`,
    );
    expect(estimateTokens(texts.join(''))).toBeLessThanOrEqual(Number(budget.replace(',', '')));
  });

  it('gives a tool that declares anthropic/maxResultSizeChars its allowance: the model sees its whole answer', async () => {
    const tools = await mountConnections([bigConnection()]);
    const { output } = await modelOutputOf(tools, 'log_declared');
    expect(output).toEqual({
      type: 'json',
      value: expect.objectContaining({ content: [{ type: 'text', text: LOG }] }),
    });
  });
});

describe('a definition mounted by mountConnections and then by mountAgent with a budget', () => {
  it('is cut once, by its own budget', async () => {
    const tools = await mountConnections([bigConnection()]);
    const model = modelCalling('search', {});
    await run(model, mountAgent({ runtimeTools: tools, resultBudget: { maxTokens: 1000 } }));
    const part = toolMessageOf(model)?.content[0];
    expect(textsOf(part?.type === 'tool-result' ? part.output : undefined)[1]).toBe(MARKER_2MB);
  });
});

describe('the gateway (mountMcp) presenting a 2 MB answer to the SDK client', () => {
  it('answers the head and tail records and the marker, without structuredContent', async () => {
    const tools = await mountConnections([bigConnection()]);
    const peer = await startMcpPeer((server) => mountMcp(server, tools));
    try {
      const result = await peer.client.callTool({ name: 'search', arguments: {} });
      const content = result.content as { type: string; text: string }[];
      expect(content.map((block) => block.type)).toEqual(['text', 'text']);
      expect(content[1]?.text).toBe(MARKER_2MB);
      expect(JSON.parse(content[0]?.text ?? '')).toEqual([
        ...ALL.slice(0, 151),
        ...ALL.slice(17_553),
      ]);
      expect(result.structuredContent).toBeUndefined();
      expect(result.isError).toBeUndefined();
    } finally {
      await peer.stop();
    }
  });
});

describe('an OpenAPI operation answering 2 MB of JSON', () => {
  it('reaches the model cut, with the same marker; the host gets the parsed body whole', async () => {
    const connection = defineOpenApiConnection({
      name: 'items',
      spec: `${service.origin}/openapi.json`,
      maxResponseBytes: 16 * 1_048_576,
    });
    const tools = await mountConnections([connection]);
    const { output, hostOutput } = await modelOutputOf(tools, 'items__listItems');
    const [json, marker] = textsOf(output);
    expect(marker).toBe(MARKER_2MB);
    expect(JSON.parse(json ?? '')).toEqual([...ALL.slice(0, 151), ...ALL.slice(17_553)]);
    expect(hostOutput).toEqual(ALL);
  });
});

describe("an OpenAPI connection's own budget under a mount's budget with a spill", () => {
  it("is cut to the connection's budget, and its whole answer is spilled for read_result", async () => {
    // A root of its own: the spill test below counts its files from 00.
    const root = await mkdtemp(join(tmpdir(), 'result-spill-openapi-'));
    const boundary = createFileBoundary({ root });
    const connection = defineOpenApiConnection({
      name: 'items',
      spec: `${service.origin}/openapi.json`,
      maxResponseBytes: 16 * 1_048_576,
      results: { maxTokens: 2_000 },
    });
    const tools = await mountConnections([connection], {
      resultBudget: { maxTokens: 20_000, spill: { boundary } },
    });
    expect(tools.map((tool) => tool.name)).toEqual(['items__listItems', 'read_result']);
    const { output } = await modelOutputOf(tools, 'items__listItems');
    const marker = textsOf(output)[1] ?? '';
    expect(marker).toMatch(
      /^\[Result cut to fit the model's budget of 2,000 tokens: the original is 2,131,483 characters, about 899,133 tokens\./,
    );
    expect(marker).toMatch(
      /The whole result is kept as stitchkit-results\/00\.txt: read it page by page with read_result \{"id":"r[0-9a-f]{16}"\}/,
    );
    // read_result reads on from the spilled file (it waits for the write).
    const id = /read_result \{"id":"(r[0-9a-f]{16})"\}/.exec(marker)?.[1] ?? '';
    const first = await runTool(toolNamed(tools, 'read_result'), { id }, { source: 'agent' });
    if (!first.ok) throw new Error(JSON.stringify(first));
    const page = (first.data as { content: { text: string }[] }).content[0]?.text ?? '';
    expect(page.length).toBeGreaterThan(0);
    expect(BIG.startsWith(page)).toBe(true);
    expect(await readFile(join(root, 'stitchkit-results', '00.txt'), 'utf8')).toBe(BIG);
    await rm(root, { recursive: true, force: true });
  });
});

describe('a definition from elsewhere under mountAgent({ resultBudget })', () => {
  const report = defineRuntimeTool({
    name: 'report',
    description: 'A long report.',
    identity: { serviceName: 'reports', action: 'report', method: 'GET' },
    input: z.object({}),
    handler: () => LOG,
  });

  it('is cut to the mount budget in the model output, its execute output whole', async () => {
    const model = modelCalling('report', {});
    const result = await run(
      model,
      mountAgent({ runtimeTools: [report], resultBudget: { maxTokens: 1000 } }),
    );
    const part = toolMessageOf(model)?.content[0];
    const texts = textsOf(part?.type === 'tool-result' ? part.output : undefined);
    const lines = LOG.split('\n');
    expect(texts).toEqual([
      `${lines.slice(0, 51).join('\n')}\n`,
      `[Result cut to fit the model's budget of 1,000 tokens: the original is 51,782 characters, about 19,000 tokens. Kept: the first 51 and the last 15 of 1,500 lines. ${NEXT}`,
      lines.slice(-15).join('\n'),
    ]);
    expect(estimateTokens(texts.join(''))).toBeLessThanOrEqual(1000);
    expect(result.steps[0]?.toolResults[0]?.output).toBe(LOG);
  });

  it('is seen whole without the option', async () => {
    const model = modelCalling('report', {});
    await run(model, mountAgent({ runtimeTools: [report] }));
    const part = toolMessageOf(model)?.content[0];
    expect(part?.type === 'tool-result' ? part.output : undefined).toEqual({
      type: 'text',
      value: LOG,
    });
  });
});

describe('a spilled result read on with read_result', () => {
  it('names the file and the id, and the pages concatenate to the original', async () => {
    const boundary = createFileBoundary({ root: spillRoot });
    const tools = await mountConnections([bigConnection()], {
      resultBudget: { spill: { boundary } },
    });
    expect(tools.map((tool) => tool.name)).toEqual([
      'search',
      'log',
      'log_declared',
      'read_result',
    ]);
    const { output } = await modelOutputOf(tools, 'search');
    const marker = textsOf(output)[1] ?? '';
    const id = /read_result \{"id":"(r[0-9a-f]{16})"\}/.exec(marker)?.[1] ?? '';
    expect(marker).toBe(
      MARKER_2MB.replace(
        'To see what was cut, narrow the request (a filter, a query, a smaller page or limit, fewer fields).]',
        `The whole result is kept as stitchkit-results/00.txt: read it page by page with read_result {"id":"${id}"} (an offset in characters starts a page there), or narrow the request.]`,
      ),
    );

    const reader = toolNamed(tools, 'read_result');
    const pages: string[] = [];
    let offset = 0;
    for (let read = 0; offset < BIG.length && read < 400; read += 1) {
      const result = await runTool(reader, { id, offset }, { source: 'agent' });
      if (!result.ok) throw new Error(JSON.stringify(result));
      const [page, trailer] = (result.data as { content: { text: string }[] }).content;
      expect(estimateTokens(`${page?.text}${trailer?.text}`)).toBeLessThanOrEqual(10_000);
      pages.push(page?.text ?? '');
      offset += page?.text.length ?? 0;
      if (offset === BIG.length) {
        expect(trailer?.text).toBe(
          `[Characters ${(offset - (page?.text.length ?? 0)).toLocaleString('en-US')}–2,131,483 of 2,131,483 of result ${id}. This is the end of the result.]`,
        );
      }
    }
    expect(pages.join('')).toBe(BIG);
    expect(pages.length).toBe(94);
    expect(await readFile(join(spillRoot, 'stitchkit-results', '00.txt'), 'utf8')).toBe(BIG);
  });

  it('hands the model a page as text parts through generateText', async () => {
    const boundary = createFileBoundary({ root: spillRoot });
    const tools = await mountConnections([bigConnection()], {
      resultBudget: { spill: { boundary } },
    });
    const { output } = await modelOutputOf(tools, 'search');
    const id = /"id":"(r[0-9a-f]{16})"/.exec(textsOf(output)[1] ?? '')?.[1] ?? '';
    const model = modelCalling('read_result', { id, offset: 100, length: 60 });
    await run(model, mountAgent({ runtimeTools: tools }));
    const part = toolMessageOf(model)?.content[0];
    expect(part?.type === 'tool-result' ? part.output : undefined).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: BIG.slice(100, 160) },
        {
          type: 'text',
          text: `[Characters 100–160 of 2,131,483 of result ${id}. Read on with read_result {"id":"${id}","offset":160}.]`,
        },
      ],
    });
  });

  it('shares one read_result between two mounts spilling into one boundary', async () => {
    const boundary = createFileBoundary({ root: spillRoot });
    const first = await mountConnections([bigConnection()], {
      resultBudget: { spill: { boundary } },
    });
    const second = await mountConnections(
      [defineOpenApiConnection({ name: 'items', spec: `${service.origin}/openapi.json` })],
      { resultBudget: { spill: { boundary: createFileBoundary({ root: spillRoot }) } } },
    );
    expect(toolNamed(first, 'read_result')).toBe(toolNamed(second, 'read_result'));
    expect(Object.keys(mountAgent({ runtimeTools: [...first, ...second] }))).toEqual([
      'search',
      'log',
      'log_declared',
      'read_result',
      'items__listItems',
    ]);
  });

  it('answers RESULT_NOT_KEPT for an id it does not keep', async () => {
    const boundary = createFileBoundary({ root: spillRoot });
    const tools = await mountConnections([bigConnection()], {
      resultBudget: { spill: { boundary } },
    });
    const result = await runTool(
      toolNamed(tools, 'read_result'),
      { id: 'r0000000000000000' },
      { source: 'agent' },
    );
    expect(result).toMatchObject({ ok: false, code: 'RESULT_NOT_KEPT', retryable: false });
  });
});

describe('budget options checked at definition and mount', () => {
  it.each([
    [{ maxTokens: 100 }, 'must be an integer from 500 to 25000'],
    [{ maxTokens: 30_000 }, 'must be an integer from 500 to 25000'],
    [{ maxTokens: 1.5 }, 'must be an integer from 500 to 25000'],
  ])('refuses a connection with results %j', (results, message) => {
    expect(() => bigConnection(results)).toThrow(
      new RangeError(
        `MCP connection "big": results.maxTokens ${message} estimated tokens (default 10000); got ${results.maxTokens}`,
      ),
    );
  });

  it('refuses a mount budget over the ceiling and a spill without a boundary', async () => {
    await expect(
      mountConnections([bigConnection()], { resultBudget: { maxTokens: 25_001 } }),
    ).rejects.toThrow(
      new RangeError(
        'mountConnections: resultBudget.maxTokens must be an integer from 500 to 25000 estimated tokens (default 10000); got 25001',
      ),
    );
    expect(() =>
      mountAgent({
        runtimeTools: [],
        resultBudget: { spill: { boundary: {} as never } },
      }),
    ).toThrow(
      new TypeError(
        'mountAgent: resultBudget.spill.boundary must be a file boundary (createFileBoundary({ root }))',
      ),
    );
  });
});
