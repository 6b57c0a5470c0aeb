/**
 * `npm run demo`: stitchkit-transport against embedded servers. It mounts one MCP server over
 * Streamable HTTP and one that only speaks legacy HTTP+SSE, calls their tools through the agent
 * mount with per-call credentials, shows the transitions of one call, mounts an OpenAPI service
 * from its document's URL, shows a deadline firing on a server that never answers, and a managed
 * wait tool.
 */
import { z } from 'zod';
import { mountAgent, runTool, toolCauseFromResult } from '../binding/index.js';
import {
  defineMcpClientConnection,
  defineOpenApiConnection,
  describeCatalog,
  mountConnections,
  type SkippedTool,
} from '../connections/index.js';
import type { TransitionRecord } from '../machines/observe.js';
import { defineWaitTool } from '../operations/index.js';
import { startDemoServers } from './demo-servers.js';

function line(text = ''): void {
  process.stdout.write(`${text}\n`);
}

async function main(): Promise<void> {
  const servers = await startDemoServers();
  try {
    const records: TransitionRecord[] = [];
    const weather = defineMcpClientConnection({
      name: 'weather',
      transport: { url: `${servers.origin}/mcp` },
      token: (context) =>
        context === undefined ? 'discovery-token' : `token-for-${String(context.user)}`,
      observe: (record) => records.push(record),
    });
    const legacy = defineMcpClientConnection({
      name: 'legacy-weather',
      transport: { url: `${servers.origin}/legacy` },
      tools: { allow: ['forecast'] },
    });
    // The legacy server exposes the same tool names; mount them separately to keep names unique.
    const tools = await mountConnections([weather]);
    const legacyTools = await mountConnections([legacy]);
    line('== discovery');
    for (const entry of describeCatalog([...tools, ...legacyTools]).connections) {
      line(`  ${entry.connection}: ${entry.tools} tool(s), ${entry.schemaBytes} schema bytes`);
    }

    line('\n== a call through the agent mount (Streamable HTTP, per-call credential)');
    const agentTools = mountAgent({ runtimeTools: tools, context: { user: 'ada' } });
    records.length = 0;
    const forecast = await agentTools.forecast?.execute(
      { city: 'Lisbon', days: 3 },
      { toolCallId: 'call-1', abortSignal: new AbortController().signal },
    );
    line(
      `  result: ${JSON.stringify((forecast as { structuredContent?: unknown }).structuredContent)}`,
    );
    const whoami = await agentTools.whoami?.execute(
      {},
      { toolCallId: 'call-2', abortSignal: new AbortController().signal },
    );
    line(
      `  the server saw: ${JSON.stringify((whoami as { content: { text: string }[] }).content[0]?.text)}`,
    );
    line('  transitions of the first call:');
    const firstCall = records.slice(0, records.findIndex((r) => r.to === 'closed') + 1);
    for (const record of firstCall) {
      line(`    ${record.from || '(start)'} -> ${record.to}  [${record.event}]`);
    }

    line('\n== the same tool on a legacy HTTP+SSE server (POST answered 405, so: fallback)');
    const legacyForecast = legacyTools.find((tool) => tool.name === 'forecast');
    if (legacyForecast !== undefined) {
      servers.seen.length = 0;
      const result = await runTool(legacyForecast, { city: 'Oslo', days: 1 }, { source: 'agent' });
      line(`  ok: ${result.ok}; requests: ${servers.seen.join(', ')}`);
    }

    line('\n== an OpenAPI service: its document loaded from a URL, one tool per operation');
    const skipped: SkippedTool[] = [];
    const forecasts = await mountConnections(
      [
        defineOpenApiConnection({
          name: 'forecasts',
          spec: `${servers.origin}/openapi.json`,
          token: (context) =>
            context === undefined ? undefined : `key-of-${String(context.user)}`,
        }),
      ],
      { onSkippedTool: (entry) => skipped.push(entry) },
    );
    line(`  mounted: ${forecasts.map((tool) => tool.name).join(', ')}`);
    for (const entry of skipped)
      line(`  skipped: ${entry.tool} (${entry.reason}): ${entry.message}`);
    const getForecast = forecasts.find((tool) => tool.name === 'forecasts__getForecast');
    if (getForecast !== undefined) {
      const result = await runTool(
        getForecast,
        { city: 'Porto', days: 2 },
        { source: 'agent', context: { user: 'ada' } },
      );
      line(`  ${JSON.stringify(result)}`);
    }

    line('\n== a server that never answers: the deadline fires, nothing hangs');
    const hung = defineMcpClientConnection({
      name: 'hung',
      transport: { url: `${servers.origin}/hang` },
      timeoutMs: 300,
    });
    const started = performance.now();
    const failure = await mountConnections([hung]).catch((error: unknown) => error);
    line(
      `  ${(failure as Error).name} after ${Math.round(performance.now() - started)} ms: ${JSON.stringify(
        {
          operation: (failure as { operation?: string }).operation,
          timeoutMs: (failure as { timeoutMs?: number }).timeoutMs,
        },
      )}`,
    );

    line('\n== a managed wait tool (ADR 0081) with a short backoff');
    let polls = 0;
    const wait = defineWaitTool({
      description: 'Waits until the export is ready',
      identity: { serviceName: 'exports', action: 'export.wait' },
      input: z.object({ id: z.string() }),
      state: z.object({ status: z.enum(['pending', 'ready']), polls: z.number() }),
      poll: () => {
        polls += 1;
        return { status: polls >= 3 ? 'ready' : 'pending', polls };
      },
      done: (state) => state.status === 'ready',
      backoff: [0.05],
    });
    const waited = await runTool(wait, { id: 'exp-1' }, { source: 'agent' });
    line(`  ${JSON.stringify(waited)}`);
    const refused = await runTool(wait, { id: 42 }, { source: 'agent' });
    line(
      `  invalid input -> ${JSON.stringify(refused)} (cause kept in-process: ${toolCauseFromResult(refused) !== undefined})`,
    );
  } finally {
    await servers.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
