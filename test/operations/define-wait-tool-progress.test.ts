import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type AnyRuntimeToolDefinition, mountAgent, mountMcp } from '../../src/binding/index.js';
import { defineWaitTool } from '../../src/operations/define-wait-tool.js';
import { modelCalling, run } from '../support/agent-model.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';
import { expectNoOpenSockets } from '../support/leaks.js';

const JobState = z.object({
  jobId: z.string(),
  phase: z.enum(['queued', 'rendering', 'ready']),
});
const SCRIPT = ['queued', 'rendering', 'ready'] as const;
const START = Date.UTC(2030, 0, 1);

/**
 * One definition for every transport. Each call (keyed by source and job) walks through SCRIPT,
 * one phase per poll, and poll N moves the fake wall clock to START + (N - 1) * 2.5 s, so the
 * elapsed time in each progress message is exact.
 */
function jobWait() {
  const polls = new Map<string, number>();
  const definition = defineWaitTool({
    description: 'Waits for a render job',
    identity: { serviceName: 'jobs', action: 'waitForRender' },
    input: z.object({ jobId: z.string() }),
    state: JobState,
    poll: (input, context) => {
      const key = `${context.source}:${input.jobId}`;
      const poll = (polls.get(key) ?? 0) + 1;
      polls.set(key, poll);
      vi.setSystemTime(START + (poll - 1) * 2_500);
      return { jobId: input.jobId, phase: SCRIPT[Math.min(poll, SCRIPT.length) - 1] };
    },
    done: (state) => state.phase === 'ready',
    backoff: [0.01],
  });
  return { definition: definition as AnyRuntimeToolDefinition, polls };
}

let peer: McpPeer | undefined;
// Only `Date` is faked: real sockets and real (10 ms) sleeps, a wall clock the polls control.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: START });
});
afterEach(async () => {
  vi.useRealTimers();
  await peer?.stop();
  peer = undefined;
});
afterAll(expectNoOpenSockets);

describe('defineWaitTool progress', () => {
  it('sends one progress notification per non-final poll on MCP, then the final data', async () => {
    const { definition, polls } = jobWait();
    peer = await startMcpPeer((server) => mountMcp(server, [definition]));
    const progress: unknown[] = [];
    const result = await peer.client.callTool(
      { name: 'wait', arguments: { jobId: 'j-1' } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(progress).toEqual([
      { progress: 1, message: 'queued — poll 1, 0s elapsed' },
      { progress: 2, message: 'rendering — poll 2, 3s elapsed' },
    ]);
    expect(result.structuredContent).toEqual({ jobId: 'j-1', phase: 'ready' });
    expect(result.isError).toBeFalsy();
    expect(polls.get('mcp:j-1')).toBe(3);
  });

  it('sends no progress notification on MCP when the request has no progressToken', async () => {
    const { definition, polls } = jobWait();
    peer = await startMcpPeer((server) => mountMcp(server, [definition]));
    const seen: unknown[] = [];
    peer.client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      seen.push(notification);
    });
    const result = await peer.client.callTool({ name: 'wait', arguments: { jobId: 'j-2' } });
    expect(result.structuredContent).toEqual({ jobId: 'j-2', phase: 'ready' });
    expect(polls.get('mcp:j-2')).toBe(3);
    expect(seen).toEqual([]);
  });

  it('returns the same data on Agent from the same definition', async () => {
    const { definition, polls } = jobWait();
    peer = await startMcpPeer((server) => mountMcp(server, [definition]));
    const viaMcp = await peer.client.callTool(
      { name: 'wait', arguments: { jobId: 'j-3' } },
      undefined,
      { onprogress: () => {} },
    );
    const tools = mountAgent({ runtimeTools: [definition] });
    const viaAgent = await run(modelCalling('wait', { jobId: 'j-3' }), tools, 'wait for j-3');
    const expected = { jobId: 'j-3', phase: 'ready' };
    expect(viaMcp.structuredContent).toEqual(expected);
    expect(viaAgent.steps[0]?.toolResults.map((result) => result.output)).toEqual([expected]);
    expect(Object.fromEntries(polls)).toEqual({ 'mcp:j-3': 3, 'agent:j-3': 3 });
  });
});
