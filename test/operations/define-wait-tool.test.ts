import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyRuntimeToolDefinition,
  mountAgent,
  mountMcp,
  runTool,
  toolCauseFromResult,
  toolErrorFromResult,
} from '../../src/binding/index.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../src/machines/wait/wait.policy.js';
import { WaitTimeoutError } from '../../src/machines/wait/wait.timeout-error.js';
import { defineWaitTool, type WaitToolConfig } from '../../src/operations/define-wait-tool.js';
import {
  assertWaitTimeoutSeconds,
  DEFAULT_WAIT_TIMEOUT_SECONDS,
  runWaitOperation,
} from '../../src/operations/wait-operation.js';
import { modelCalling, run } from '../support/agent-model.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';
import { expectNoOpenSockets } from '../support/leaks.js';

const JobState = z.object({
  jobId: z.string(),
  status: z.enum(['queued', 'running', 'ready', 'failed']),
});
type JobState = z.infer<typeof JobState>;
const JobInput = z.object({ jobId: z.string(), timeout: z.number().optional() });

/** A job whose status walks through `script` (the last entry repeats), one step per poll. */
function jobTool(
  script: readonly JobState['status'][],
  extra: Partial<WaitToolConfig<typeof JobInput, typeof JobState>> = {},
) {
  const polls: string[] = [];
  const definition = defineWaitTool({
    description: 'Waits for a job to finish',
    identity: { serviceName: 'jobs', action: 'waitForJob' },
    input: JobInput,
    state: JobState,
    poll: (input) => {
      polls.push(input.jobId);
      return { jobId: input.jobId, status: script[Math.min(polls.length - 1, script.length - 1)] };
    },
    done: (state) => state.status === 'ready' || state.status === 'failed',
    timeoutFromInput: (input) => input.timeout,
    backoff: [0.01],
    ...extra,
  });
  return { definition: definition as AnyRuntimeToolDefinition, polls };
}

let peer: McpPeer | undefined;
afterEach(async () => {
  await peer?.stop();
  peer = undefined;
});
afterAll(expectNoOpenSockets);

describe('defineWaitTool', () => {
  it('is a GET tool named wait by default whose output schema is the state schema', () => {
    const { definition } = jobTool(['ready']);
    expect(definition.name).toBe('wait');
    expect(definition.identity).toEqual({
      serviceName: 'jobs',
      action: 'waitForJob',
      method: 'GET',
    });
    expect(definition.output).toBe(JobState);
  });

  it('refuses a default timeout outside the timer range at definition time', () => {
    expect(() => jobTool(['ready'], { defaultTimeout: 3_000_000 })).toThrow(RangeError);
    expect(() => jobTool(['ready'], { defaultTimeout: 0 })).toThrow(RangeError);
  });

  it('names defaultTimeout in the RangeError of a default timeout outside the timer range', () => {
    expect(() => jobTool(['ready'], { defaultTimeout: 0 })).toThrow(
      'defaultTimeout × 1000 must be a positive integer number of milliseconds no greater than 2147483647 (the timer range); got 0',
    );
  });

  it('returns the same data on MCP and on Agent from one definition', async () => {
    const mcpJob = jobTool(['queued', 'running', 'ready']);
    peer = await startMcpPeer((server) => mountMcp(server, [mcpJob.definition]));
    const viaMcp = await peer.client.callTool({ name: 'wait', arguments: { jobId: 'j-1' } });

    const agentJob = jobTool(['queued', 'running', 'ready']);
    const tools = mountAgent({ runtimeTools: [agentJob.definition] });
    const viaAgent = await run(modelCalling('wait', { jobId: 'j-1' }), tools, 'wait for j-1');

    const expected = { jobId: 'j-1', status: 'ready' };
    expect(viaMcp.structuredContent).toEqual(expected);
    expect(viaMcp.isError).toBeFalsy();
    expect(viaAgent.steps[0]?.toolResults.map((result) => result.output)).toEqual([expected]);
    expect({ mcp: mcpJob.polls.length, agent: agentJob.polls.length }).toEqual({
      mcp: 3,
      agent: 3,
    });
  });

  it('makes zero polls when beforeHandle refuses the call, on MCP and on Agent', async () => {
    const { definition, polls } = jobTool(['ready']);
    const lifecycle = {
      beforeHandle: () => {
        throw new Error('not allowed');
      },
    };
    peer = await startMcpPeer((server) => mountMcp(server, [definition], { lifecycle }));
    const viaMcp = await peer.client.callTool({ name: 'wait', arguments: { jobId: 'j-2' } });
    expect(viaMcp.isError).toBe(true);
    const tools = mountAgent({ runtimeTools: [definition], lifecycle });
    const viaAgent = await run(modelCalling('wait', { jobId: 'j-2' }), tools, 'wait');
    expect(viaAgent.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
    expect(polls).toEqual([]);
  });

  it('answers WAIT_TIMEOUT (408) with the rendered text when the deadline passes with a state', async () => {
    const { definition } = jobTool(['running'], {
      render: (state: JobState, timedOut: boolean) => ({
        text: `${state.jobId} is ${state.status}${timedOut ? ' (gave up)' : ''}`,
      }),
    });
    const result = await runTool(
      definition,
      { jobId: 'j-3', timeout: 0.05 },
      { source: 'internal' },
    );
    expect(result).toMatchObject({ ok: false, code: 'WAIT_TIMEOUT' });
    expect(toolCauseFromResult(result)).toMatchObject({
      status: 408,
      message: 'j-3 is running (gave up)',
    });
  });

  it('throws a WaitTimeoutError (the deadline and the rendered text) for a timeout with a state', async () => {
    const { definition } = jobTool(['running'], {
      render: (state: JobState) => ({ text: `${state.jobId} is ${state.status}` }),
    });
    const result = await runTool(
      definition,
      { jobId: 'j-3', timeout: 0.05 },
      { source: 'internal' },
    );
    const cause = toolCauseFromResult(result);
    expect(cause).toBeInstanceOf(WaitTimeoutError);
    expect(cause).toMatchObject({ timeoutMs: 50, message: 'j-3 is running' });
    expect(toolErrorFromResult(result)).toMatchObject({
      code: 'WAIT_TIMEOUT',
      status: 408,
      retryable: false,
      message: 'j-3 is running',
    });
  });

  it('answers WAIT_FAILED (409) when the rendering of the final state is an error', async () => {
    const { definition } = jobTool(['running', 'failed'], {
      render: (state: JobState) => ({
        text: `job ${state.status}`,
        isError: state.status === 'failed',
      }),
    });
    const result = await runTool(definition, { jobId: 'j-4' }, { source: 'internal' });
    expect(result).toMatchObject({ ok: false, code: 'WAIT_FAILED' });
    expect(toolCauseFromResult(result)).toMatchObject({ status: 409, message: 'job failed' });
  });

  it('presents the rendered text on MCP', async () => {
    const { definition } = jobTool(['ready'], {
      render: (state: JobState) => ({ text: `job ${state.jobId} ${state.status}` }),
    });
    const result = await runTool(definition, { jobId: 'j-5' }, { source: 'mcp', transport: 'MCP' });
    expect(result).toEqual({
      ok: true,
      data: { content: [{ type: 'text', text: 'job j-5 ready' }] },
    });
  });

  it('rejects a polled state that does not match the state schema as an internal error', async () => {
    const { definition } = jobTool(['ready'], { poll: () => ({ jobId: 7 }) });
    const result = await runTool(definition, { jobId: 'j-6' }, { source: 'internal' });
    expect(result).toMatchObject({ ok: false, code: 'INTERNAL_SERVER_ERROR' });
  });

  it('stops polling on cancellation and keeps the caller reason as the cause', async () => {
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    const { definition, polls } = jobTool(['running'], { backoff: [60] });
    const pending = runTool(
      definition,
      { jobId: 'j-7' },
      { source: 'internal', signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(reason);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(toolCauseFromResult(result)).toBe(reason);
    expect(polls).toHaveLength(1);
  });
});

describe('assertWaitTimeoutSeconds', () => {
  it.each([
    [0.0005, 1],
    [0.05, 50],
    [1.5, 1_500],
    [600, 600_000],
    [2_147_483.647, 2_147_483_647],
  ])('accepts %d s as %d ms', (seconds, ms) => {
    expect(assertWaitTimeoutSeconds(seconds, 'defaultTimeout')).toBe(ms);
  });

  it.each([
    ['0', 0, '0'],
    ['-1', -1, '-1000'],
    ['0.0004 (rounds to 0 ms)', 0.0004, '0'],
    ['2_147_483.648 (one past the timer range)', 2_147_483.648, '2147483648'],
    ['3_000_000', 3_000_000, '3000000000'],
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'Infinity'],
  ])('refuses %s', (_label, seconds, got) => {
    expect(() => assertWaitTimeoutSeconds(seconds, 'defaultTimeout')).toThrow(
      new RangeError(
        `defaultTimeout × 1000 must be a positive integer number of milliseconds no greater than 2147483647 (the timer range); got ${got}`,
      ),
    );
  });
});

describe('runWaitOperation timeouts', () => {
  it('defaults to 600 s, the wait machine default', () => {
    expect(DEFAULT_WAIT_TIMEOUT_SECONDS).toBe(600);
    expect(DEFAULT_WAIT_TIMEOUT_SECONDS * 1000).toBe(DEFAULT_WAIT_TIMEOUT_MS);
  });

  it('checks the call timeout before the default and names it, before any poll', async () => {
    let polls = 0;
    const waiting = runWaitOperation({
      poll: () => {
        polls += 1;
        return 'ready';
      },
      done: () => true,
      timeoutSeconds: 0,
      defaultTimeoutSeconds: 60,
    });
    await expect(waiting).rejects.toThrow(/^timeoutSeconds × 1000 must be a positive integer/);
    expect(polls).toBe(0);
  });

  it('uses the default timeout when the call chose none, and names it', async () => {
    const waiting = runWaitOperation({
      poll: () => 'ready',
      done: () => true,
      defaultTimeoutSeconds: -1,
    });
    await expect(waiting).rejects.toThrow(/^defaultTimeoutSeconds × 1000 must be a positive/);
  });
});
