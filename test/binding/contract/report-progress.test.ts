import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineRuntimeTool,
  mountAgent,
  mountMcp,
  type RunToolOptions,
  runTool,
} from '../../../src/binding/index.js';
import { type McpPeer, startMcpPeer } from '../../support/binding-mcp-peer.js';
import { createRecorder } from '../../support/binding-recorder.js';
import { expectNoOpenSockets } from '../../support/leaks.js';

/** What each `ctx.reportProgress` call resolved to, in call order. */
let reportOutcomes: unknown[] = [];

/** Reports `steps` progress updates (awaiting each), then answers with the step count. */
const stepper = defineRuntimeTool({
  name: 'stepper',
  description: 'Counts to `steps`, reporting progress on the way',
  identity: { serviceName: 'demo', action: 'step', method: 'POST' },
  input: z.object({ steps: z.number().int().min(0) }),
  output: z.object({ done: z.number() }),
  async handler(ctx) {
    for (let step = 1; step <= ctx.input.steps; step += 1) {
      reportOutcomes.push(await ctx.reportProgress(step, ctx.input.steps, `step ${step}`));
    }
    return { done: ctx.input.steps };
  },
});

let peer: McpPeer | undefined;
afterEach(async () => {
  await peer?.stop();
  peer = undefined;
  reportOutcomes = [];
});

// Closed handles leave the resource list a few loop turns later; poll under a generous deadline.
afterAll(expectNoOpenSockets);

describe('ctx.reportProgress on MCP', () => {
  it('sends one progress notification per report, in order, when the client asks for progress', async () => {
    peer = await startMcpPeer((server) => mountMcp(server, [stepper]));
    const progress: unknown[] = [];
    const result = await peer.client.callTool(
      { name: 'stepper', arguments: { steps: 3 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
    expect(result.structuredContent).toEqual({ done: 3 });
    expect(result.isError).toBeFalsy();
    expect(reportOutcomes).toEqual([undefined, undefined, undefined]);
  });

  it('omits total and message from the notification when the handler gives none', async () => {
    const bare = defineRuntimeTool({
      name: 'bare',
      description: 'Reports a bare progress number',
      identity: { serviceName: 'demo', action: 'bare', method: 'GET' },
      input: z.object({}),
      async handler(ctx) {
        await ctx.reportProgress(7);
        return 'ok';
      },
    });
    peer = await startMcpPeer((server) => mountMcp(server, [bare]));
    const progress: unknown[] = [];
    await peer.client.callTool({ name: 'bare', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(progress).toEqual([{ progress: 7 }]);
  });

  it('sends nothing when the request has no progressToken, and the call still succeeds', async () => {
    peer = await startMcpPeer((server) => mountMcp(server, [stepper]));
    const seen: unknown[] = [];
    peer.client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      seen.push(notification);
    });
    const result = await peer.client.callTool({ name: 'stepper', arguments: { steps: 2 } });
    expect(result.structuredContent).toEqual({ done: 2 });
    expect(result.isError).toBeFalsy();
    expect(reportOutcomes).toEqual([undefined, undefined]);
    expect(seen).toEqual([]);
  });
});

describe('ctx.reportProgress through runTool', () => {
  it('is a no-op that resolves to undefined when no reporter is given', async () => {
    const result = await runTool(stepper, { steps: 2 }, { source: 'internal' });
    expect(result).toEqual({ ok: true, data: { done: 2 } });
    expect(reportOutcomes).toEqual([undefined, undefined]);
  });

  it('stays framework-owned when the host context has a field of the same name', async () => {
    const seen: unknown[] = [];
    const result = await runTool(
      stepper,
      { steps: 1 },
      {
        source: 'internal',
        context: { reportProgress: 'host value' },
        reportProgress: (...args) => {
          seen.push(args);
        },
      },
    );
    expect(result).toEqual({ ok: true, data: { done: 1 } });
    expect(seen).toEqual([[1, 1, 'step 1']]);
  });

  const failingSenders: [string, NonNullable<RunToolOptions['reportProgress']>][] = [
    [
      'throws',
      () => {
        throw new Error('progress channel closed');
      },
    ],
    ['rejects', () => Promise.reject(new Error('progress channel closed'))],
  ];
  for (const [how, sender] of failingSenders) {
    it(`never changes the outcome when the progress sender ${how}`, async () => {
      const recorder = createRecorder();
      const calls: number[] = [];
      const result = await runTool(
        stepper,
        { steps: 2 },
        {
          source: 'internal',
          hooks: recorder.hooks,
          reportProgress: (progress) => {
            calls.push(progress);
            return sender(progress);
          },
        },
      );
      expect(result).toEqual({ ok: true, data: { done: 2 } });
      expect(calls).toEqual([1, 2]);
      expect(reportOutcomes).toEqual([undefined, undefined]);
      expect(recorder.steps.map((step) => step.step)).toEqual(['beforeToolCall', 'afterToolCall']);
    });
  }
});

describe('ctx.reportProgress on Agent', () => {
  it('is a no-op and the call returns its data', async () => {
    const tools = mountAgent({ runtimeTools: [stepper] });
    const output = await tools.stepper?.execute({ steps: 2 }, { toolCallId: 'call-1' });
    expect(output).toEqual({ done: 2 });
    expect(reportOutcomes).toEqual([undefined, undefined]);
  });
});
