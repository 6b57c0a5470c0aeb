/**
 * The demo's steps, each one lifecycle a host meets: a stateless call in one request, the fallback
 * chain to legacy SSE with its endpoint wait, a 401 and the next call with a new token, upstream
 * progress, an `input_required` round answered by the caller, a deadline, a caller cancellation
 * reaching the server, an approval, a refused OpenAPI operation, a download into a file boundary,
 * a 2 MB answer cut to the model's budget and read on with `read_result`, GitHub's
 * 1,202 operations found and called through the search meta-tools, and a wait. Every call goes through `mountAgent`, as an agent's would.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  type AgentToolSet,
  type AnyRuntimeToolDefinition,
  isAgentToolError,
  mountAgent,
  runTool,
  toolCauseFromResult,
} from '../binding/index.js';
import {
  ConnectionAuthorizationRequiredError,
  defineMcpClientConnection,
  defineOpenApiConnection,
  mountConnections,
  type SkippedTool,
  type TransitionObserver,
} from '../connections/index.js';
import { createFileBoundary, defineDownloadTool, defineWaitTool } from '../operations/index.js';
import { resultBudgetStep } from './demo-result-budget.js';
import { catalogSearchStep } from './demo-search-step.js';
import { type DemoServers, FIRST_TOKEN } from './demo-servers.js';

/** What one step reports: its wire, its outcome in a few words, and what to print under it. */
export interface StepOutcome {
  readonly wire: string;
  readonly outcome: string;
  readonly lines: readonly string[];
}

/** One step of the demo. */
export interface DemoStep {
  /** A few words for the summary table. */
  readonly name: string;
  readonly title: string;
  run(): Promise<StepOutcome>;
}

/** The mounted tools and what the steps share. */
export interface DemoWorld {
  readonly servers: DemoServers;
  readonly tools: AgentToolSet;
  readonly runtime: readonly AnyRuntimeToolDefinition[];
  readonly skipped: readonly SkippedTool[];
  /** The token the `crm` connection sends now (the host's store). */
  token: string;
}

/** Mounts every connection of the demo once, with `observe` on each. */
export async function mountDemo(
  servers: DemoServers,
  observe: TransitionObserver,
): Promise<DemoWorld> {
  const skipped: SkippedTool[] = [];
  const { origin } = servers;
  const world = { token: FIRST_TOKEN } as { token: string };
  const runtime = await mountConnections(
    [
      // `users` answers 2 MB: the result budget step mounts it with a larger byte ceiling.
      defineMcpClientConnection({
        name: 'desk',
        transport: { url: `${origin}/stateless` },
        tools: { block: ['users'] },
      }),
      defineMcpClientConnection({
        name: 'tight',
        transport: { url: `${origin}/stateless` },
        tools: { allow: ['slow'], prefix: 'tight' },
        limits: { call: { timeoutMs: 300 } },
      }),
      defineMcpClientConnection({
        name: 'crm',
        transport: { url: `${origin}/crm` },
        token: () => world.token,
      }),
      defineMcpClientConnection({ name: 'weather', transport: { url: `${origin}/legacy` } }),
      defineOpenApiConnection({ name: 'forecasts', spec: `${origin}/openapi.json` }),
    ],
    { observe, onSkippedTool: (entry) => skipped.push(entry) },
  );
  const tools = mountAgent({
    runtimeTools: runtime,
    approval: 'destructive',
    // The caller answers what a tool asks it: here, yes to every confirmation.
    caller: {
      capabilities: { elicitation: {} },
      request: () => ({ result: { action: 'accept', content: { confirm: true } } }),
    },
  });
  return Object.assign(world, { servers, tools, runtime, skipped });
}

/** Runs one agent tool as the AI SDK would, returning its output or the typed failure's code. */
async function execute(
  world: DemoWorld,
  name: string,
  input: unknown,
  signal = new AbortController().signal,
): Promise<unknown> {
  const tool = world.tools[name];
  if (tool?.execute === undefined) throw new Error(`the demo has no tool ${name}`);
  try {
    return await tool.execute(input, {
      toolCallId: `demo-${name}`,
      messages: [],
      abortSignal: signal,
    });
  } catch (error) {
    // A failed call reaches the AI SDK as this error, whose envelope the model then reads.
    if (isAgentToolError(error)) return error.output;
    throw error;
  }
}

/** The text of an MCP result, or the failure envelope's code. */
function summary(output: unknown): string {
  const result = output as { content?: { text?: string }[]; error?: string };
  if (typeof result.error === 'string') return result.error;
  return result.content?.map((part) => part.text).join(' ') ?? JSON.stringify(output);
}

/** The demo's steps, in order. */
export function demoSteps(world: DemoWorld): DemoStep[] {
  return [
    {
      name: 'stateless call',
      title: 'a stateless call: MCP 2026-07-28 in one request',
      run: async () => ({
        wire: '2026-07-28',
        outcome: summary(await execute(world, 'lookup', { id: '42' })),
        lines: [],
      }),
    },
    {
      name: 'fallback to legacy SSE',
      title: 'the fallback chain: Streamable POST refused 405, legacy SSE, the endpoint wait',
      run: async () => ({
        wire: 'legacy SSE',
        outcome: summary(await execute(world, 'forecast', { city: 'Lisbon' })),
        lines: [],
      }),
    },
    {
      name: '401, then a new token',
      title: 'a 401 with its challenge, then the next call with a new token',
      run: async () => {
        world.servers.rotateToken('token-2');
        const refused = await runTool(findTool(world, 'whoami'), {}, { source: 'agent' });
        const cause = refused.ok ? undefined : toolCauseFromResult(refused);
        const challenge = ConnectionAuthorizationRequiredError.isInstance(cause)
          ? cause.challenge
          : undefined;
        world.token = 'token-2'; // the host reauthorizes where the challenge says
        const retried = await execute(world, 'whoami', {});
        return {
          wire: '2025-11-25',
          outcome: `401, then ${summary(retried)}`,
          lines: [
            `challenge: resource_metadata ${challenge?.resourceMetadata}, scope ${challenge?.scope}`,
          ],
        };
      },
    },
    {
      name: 'upstream progress',
      title: 'upstream progress',
      run: async () => {
        const reports: string[] = [];
        const result = await runTool(
          findTool(world, 'report'),
          {},
          {
            source: 'agent',
            reportProgress: (progress, total, message) => {
              reports.push(`${progress}/${total} ${message}`);
            },
          },
        );
        return {
          wire: '2026-07-28',
          outcome: result.ok ? 'report ready' : result.code,
          lines: [`progress: ${reports.join(', ')}`],
        };
      },
    },
    {
      name: 'input_required round',
      title: 'an input_required round, answered by the caller',
      run: async () => ({
        wire: '2026-07-28',
        outcome: summary(await execute(world, 'deploy', { env: 'staging' })),
        lines: ['the server asked "Deploy to staging?"; the caller answered { confirm: true }'],
      }),
    },
    {
      name: 'deadline',
      title: 'a deadline firing (300 ms), the server told',
      run: async () => {
        const before = world.servers.cancelledOnServer();
        const output = await execute(world, 'tight__slow', {});
        await settled(() => world.servers.cancelledOnServer() > before);
        return {
          wire: '2026-07-28',
          outcome: summary(output),
          lines: [`the server saw the request end: ${world.servers.cancelledOnServer() - before}`],
        };
      },
    },
    {
      name: 'caller cancellation',
      title: 'a caller cancellation reaching the server',
      run: async () => {
        const before = world.servers.cancelledOnServer();
        const controller = new AbortController();
        setTimeout(() => controller.abort(new Error('the user stopped it')), 150);
        const outcome = await execute(world, 'slow', {}, controller.signal).then(
          summary,
          (error: unknown) => `aborted: ${(error as Error).message}`,
        );
        await settled(() => world.servers.cancelledOnServer() > before);
        return {
          wire: '2026-07-28',
          outcome,
          lines: [`the server saw the request end: ${world.servers.cancelledOnServer() - before}`],
        };
      },
    },
    {
      name: 'approval',
      title: 'an approval: a destructive tool asks the host first',
      run: async () => {
        const deploy = await needsApproval(world, 'deploy', { env: 'production' });
        const lookup = await needsApproval(world, 'lookup', { id: '42' });
        return {
          wire: '—',
          outcome: `deploy asks: ${deploy}; lookup asks: ${lookup}`,
          lines: ['a denied call never reaches the runner or the upstream'],
        };
      },
    },
    {
      name: 'refused OpenAPI operation',
      title: 'a refused OpenAPI operation, with its reason; the one that mounted, called',
      run: async () => {
        const refused = world.skipped.find((entry) => entry.connection === 'forecasts');
        const output = await execute(world, 'forecasts__getForecast', { city: 'Porto' });
        return {
          wire: 'OpenAPI',
          outcome: JSON.stringify(output),
          lines: [`refused: ${refused?.tool} (${refused?.reason}): ${refused?.message}`],
        };
      },
    },
    {
      name: 'download',
      title: 'a download into a file boundary',
      run: async () => {
        const root = await mkdtemp(join(tmpdir(), 'demo-downloads-'));
        try {
          const download = defineDownloadTool({
            description: 'Downloads a report into the workspace',
            identity: { serviceName: 'files', action: 'report.download' },
            input: z.object({ url: z.string() }),
            files: createFileBoundary({ root }),
            resolveUrl: (input) => input.url,
            // The demo's file server is on loopback, which downloads refuse unless told.
            allowPrivateHosts: true,
          });
          const url = `${world.servers.origin}/files/report.txt`;
          const result = await runTool(download, { url }, { source: 'agent' });
          const saved = result.ok ? (result.data as { path: string }).path : undefined;
          const text = saved === undefined ? '' : await readFile(join(root, saved), 'utf8');
          return {
            wire: 'guarded GET',
            outcome: result.ok ? `saved ${saved}` : result.code,
            lines: [`content: ${JSON.stringify(text)}`],
          };
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      },
    },
    {
      name: 'result budget',
      title: "a 2 MB answer cut to the model's budget, then read on with read_result",
      run: () => resultBudgetStep(world),
    },
    {
      name: 'catalog search',
      title: "GitHub's 1,202 operations found through search_tools",
      run: catalogSearchStep,
    },
    {
      name: 'wait',
      title: 'a wait: polls until ready',
      run: async () => {
        let polls = 0;
        const wait = defineWaitTool({
          description: 'Waits until the export is ready',
          identity: { serviceName: 'exports', action: 'export.wait' },
          input: z.object({ id: z.string() }),
          state: z.object({ status: z.enum(['pending', 'ready']) }),
          poll: () => ({ status: ++polls >= 3 ? ('ready' as const) : ('pending' as const) }),
          done: (state) => state.status === 'ready',
          backoff: [0.02],
          defaultTimeout: 5,
        });
        const result = await runTool(wait, { id: 'exp-1' }, { source: 'agent' });
        return {
          wire: '—',
          outcome: result.ok ? `ready after ${polls} polls` : result.code,
          lines: [],
        };
      },
    },
  ];
}

/** Whether the AI SDK would ask the host before running `name` with `input`. */
async function needsApproval(world: DemoWorld, name: string, input: unknown): Promise<boolean> {
  const asks = world.tools[name]?.needsApproval;
  return typeof asks === 'function' ? asks(input) : asks === true;
}

function findTool(world: DemoWorld, name: string): AnyRuntimeToolDefinition {
  const tool = world.runtime.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`the demo has no tool ${name}`);
  return tool;
}

/** Waits (at most 2 s) for a server-side effect the client does not wait for. */
async function settled(done: () => boolean): Promise<void> {
  for (let waited = 0; waited < 2_000 && !done(); waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
