/**
 * The demo's catalog search step (issue 46, decision 0045): GitHub's OpenAPI document (the trimmed
 * copy the tests use, read from the clone) mounted as 1,202 tools, shown to the model as the three
 * search meta-tools, and a scripted model that finds the operation a request needs, reads its
 * input schema and calls it, against a loopback stand-in for api.github.com embedded here.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import {
  type AgentToolSet,
  inlineFootprintTokens,
  mountAgent,
  searchFootprintTokens,
} from '../binding/index.js';
import { defineOpenApiConnection, mountConnections } from '../connections/index.js';
import type { StepOutcome } from './demo-steps.js';

/** The document, from the repository's fixtures (the demo runs from a clone). */
const DOCUMENT = new URL('../../test/fixtures/catalog-queries/github-api.json.gz', import.meta.url);

/** The request the scripted model is given, in a user's words (a paraphrase of the query set). */
const REQUEST = 'which people get pinged on every change to octo/site';

/** A stand-in for api.github.com: the watchers of octo/site, and 404 for anything else. */
async function startGithubStandIn(): Promise<{ origin: string; server: Server; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const watchers =
      request.method === 'GET' && request.url?.startsWith('/repos/octo/site/subscribers');
    response.writeHead(watchers ? 200 : 404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(watchers ? [{ login: 'ada' }, { login: 'grace' }] : { message: 'Not Found' }),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, server, hits };
}

/** Runs one tool of `tools` as the AI SDK would; the step's calls are expected to succeed. */
function execute(tools: AgentToolSet, name: string, input: unknown): Promise<unknown> {
  const tool = tools[name];
  if (tool === undefined) throw new Error(`the model is not shown ${name}`);
  return tool.execute(input, { toolCallId: `demo-${name}`, messages: [] });
}

/**
 * Mounts the document in search mode and lets a scripted model search, describe and call: it
 * takes the first tool `search_tools` answers, fills the required parameters `describe_tools`
 * names from the request (owner `octo`, repository `site`), and calls it through `call_tool`.
 */
export async function catalogSearchStep(): Promise<StepOutcome> {
  const document = JSON.parse(gunzipSync(await readFile(DOCUMENT)).toString('utf8'));
  const { origin, server, hits } = await startGithubStandIn();
  try {
    const runtime = await mountConnections(
      [defineOpenApiConnection({ name: 'github', spec: document, baseUrl: origin })],
      { onSkippedTool: () => undefined },
    );
    const tools = mountAgent({ runtimeTools: runtime, catalog: { mode: 'search' } });
    const found = (await execute(tools, 'search_tools', { query: REQUEST, limit: 3 })) as {
      tools: { name: string; description: string }[];
    };
    const [first] = found.tools;
    if (first === undefined) throw new Error('search_tools found nothing');
    const described = (await execute(tools, 'describe_tools', { names: [first.name] })) as {
      tools: { inputSchema: { required?: string[] } }[];
    };
    const required = described.tools[0]?.inputSchema.required ?? [];
    const values: Record<string, string> = { owner: 'octo', repo: 'site' };
    const args = Object.fromEntries(required.map((name) => [name, values[name] ?? '']));
    const answer = await execute(tools, 'call_tool', { name: first.name, arguments: args });
    return {
      wire: 'OpenAPI',
      outcome: `${first.name} found first; ${JSON.stringify(answer)}`,
      lines: [
        `mounted ${runtime.length} tools; the model is shown ${Object.keys(tools).join(', ')}: ${searchFootprintTokens(runtime)} estimated tokens instead of ${inlineFootprintTokens(runtime).toLocaleString('en-US')}`,
        `search_tools ${JSON.stringify(REQUEST)}:`,
        ...found.tools.map((tool, rank) => `  ${rank + 1}. ${tool.name}: ${tool.description}`),
        `describe_tools: required ${required.join(', ')}`,
        `call_tool ${JSON.stringify({ name: first.name, arguments: args })}: the stand-in saw ${hits.join(', ')}`,
      ],
    };
  } finally {
    await new Promise((closed) => server.close(closed));
  }
}
