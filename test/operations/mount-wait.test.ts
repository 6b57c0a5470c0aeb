import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mountWait } from '../../src/operations/mount-wait.js';
import { waitProgressMessage } from '../../src/operations/wait-operation.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';
import { expectNoOpenSockets } from '../support/leaks.js';

let peer: McpPeer | undefined;
afterEach(async () => {
  await peer?.stop();
  peer = undefined;
});
afterAll(expectNoOpenSockets);

/** Mounts a wait over a job whose phases walk through `script`, one per poll. */
async function mountJobWait(
  script: readonly string[],
  extra: {
    render?: (state: unknown, timedOut: boolean) => { text: string; isError?: boolean };
    defaultTimeout?: number;
    poll?: () => unknown;
  } = {},
) {
  let polls = 0;
  peer = await startMcpPeer((server) =>
    mountWait(server, {
      description: 'Waits for a job',
      inputSchema: { jobId: z.string() },
      poll:
        extra.poll ??
        ((args) => {
          polls += 1;
          return { jobId: args.jobId, phase: script[Math.min(polls - 1, script.length - 1)] };
        }),
      done: (state) => (state as { phase: string }).phase === 'ready',
      backoff: [0.01],
      ...(extra.render === undefined ? {} : { render: extra.render }),
      ...(extra.defaultTimeout === undefined ? {} : { defaultTimeout: extra.defaultTimeout }),
    }),
  );
  return { client: peer.client, polls: () => polls };
}

describe('mountWait (raw MCP adapter)', () => {
  it('refuses a default timeout outside the timer range at mount time, naming defaultTimeout', () => {
    const server = new McpServer({ name: 'x', version: '1.0.0' });
    const mount = () =>
      mountWait(server, {
        description: 'Waits for a job',
        inputSchema: { jobId: z.string() },
        poll: () => ({ phase: 'ready' }),
        done: () => true,
        defaultTimeout: 3_000_000,
      });
    expect(mount).toThrow(RangeError);
    expect(mount).toThrow(/^defaultTimeout × 1000 must be a positive integer .* got 3000000000$/);
  });

  it('reports progress once per poll when the request carries a progressToken', async () => {
    const { client, polls } = await mountJobWait(['queued', 'running', 'ready']);
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'wait', arguments: { jobId: 'j-1' } }, undefined, {
      onprogress: (update) => progress.push({ progress: update.progress, message: update.message }),
    });
    expect(polls()).toBe(3);
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3]);
    expect(progress[0]?.message).toMatch(/^queued — poll 1, \d+s elapsed$/);
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ jobId: 'j-1', phase: 'ready' }, null, 2) }],
    });
    expect('isError' in result).toBe(false);
  });

  it('sends no progress notification when the request has no progressToken', async () => {
    const { client, polls } = await mountJobWait(['queued', 'ready']);
    const seen: unknown[] = [];
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      seen.push(notification);
    });
    await client.callTool({ name: 'wait', arguments: { jobId: 'j-2' } });
    expect(polls()).toBe(2);
    expect(seen).toEqual([]);
  });

  it('answers with the render text, and isError only when the rendering says so', async () => {
    const { client } = await mountJobWait(['ready'], {
      render: (state) => ({ text: `job is ${(state as { phase: string }).phase}` }),
    });
    expect(await client.callTool({ name: 'wait', arguments: { jobId: 'j-3' } })).toEqual({
      content: [{ type: 'text', text: 'job is ready' }],
    });
  });

  it('marks a timed-out wait as an error, with the last state as pretty JSON', async () => {
    const { client } = await mountJobWait(['running'], { defaultTimeout: 0.05 });
    expect(await client.callTool({ name: 'wait', arguments: { jobId: 'j-4' } })).toEqual({
      content: [
        { type: 'text', text: JSON.stringify({ jobId: 'j-4', phase: 'running' }, null, 2) },
      ],
      isError: true,
    });
  });

  it('answers "Wait failed: <message>" with isError when a poll throws', async () => {
    const { client } = await mountJobWait([], {
      poll: () => {
        throw new Error('status service unavailable');
      },
    });
    expect(await client.callTool({ name: 'wait', arguments: { jobId: 'j-5' } })).toEqual({
      content: [{ type: 'text', text: 'Wait failed: status service unavailable' }],
      isError: true,
    });
  });
});

describe('waitProgressMessage', () => {
  it('leads with the state phase when it has one', () => {
    expect(waitProgressMessage({ phase: 'rendering' }, 2, 5_400)).toBe(
      'rendering — poll 2, 5s elapsed',
    );
    expect(waitProgressMessage({ status: 1 }, 1, 0)).toBe('poll 1, 0s elapsed');
  });
});
