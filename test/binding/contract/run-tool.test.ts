import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NO_CALLER } from '../../../src/binding/contract/caller.js';
import {
  AppError,
  defineRuntimeTool,
  runTool,
  toolCauseFromResult,
  toolErrorFromResult,
} from '../../../src/binding/index.js';
import { createRecorder, type Recorder } from '../../support/binding-recorder.js';

function echoTool(recorder: Recorder, handler?: (text: string) => unknown) {
  return defineRuntimeTool({
    name: 'echo',
    description: 'Echoes its text',
    identity: { serviceName: 'demo', action: 'echo', method: 'POST' },
    input: z.object({ text: z.string() }),
    output: z.object({ echoed: z.string() }),
    handler: (ctx) => {
      recorder.steps.push({ step: 'handler', input: ctx.input });
      return (handler ? handler(ctx.input.text) : { echoed: ctx.input.text }) as { echoed: string };
    },
    present: {
      agent: (output) => {
        recorder.steps.push({ step: 'presentAgent', output });
        return `said: ${output.echoed}`;
      },
    },
  });
}

describe('runTool order', () => {
  it('runs beforeToolCall, beforeHandle, handler, afterHandle, presenter, afterToolCall on success', async () => {
    const recorder = createRecorder();
    const result = await runTool(
      echoTool(recorder),
      { text: 'hi' },
      { source: 'agent', transport: 'AGENT', hooks: recorder.hooks, lifecycle: recorder.lifecycle },
    );
    expect(result).toEqual({ ok: true, data: 'said: hi' });
    expect(recorder.steps).toEqual([
      { step: 'beforeToolCall', toolName: 'echo', args: { text: 'hi' } },
      { step: 'beforeHandle', input: { text: 'hi' } },
      { step: 'handler', input: { text: 'hi' } },
      { step: 'afterHandle', result: { echoed: 'hi' } },
      { step: 'presentAgent', output: { echoed: 'hi' } },
      { step: 'afterToolCall', toolName: 'echo', args: { text: 'hi' }, result },
    ]);
  });

  it('returns VALIDATION_ERROR without running the handler or onToolError when the input is invalid', async () => {
    const recorder = createRecorder();
    const result = await runTool(
      echoTool(recorder),
      { text: 42 },
      { source: 'internal', hooks: recorder.hooks, lifecycle: recorder.lifecycle },
    );
    expect(result).toEqual({
      ok: false,
      code: 'VALIDATION_ERROR',
      details: {
        message: 'Invalid tool input',
        issues: [
          {
            path: ['text'],
            message: 'Invalid input: expected string, received number',
            code: 'invalid_type',
          },
        ],
      },
      retryable: false,
    });
    expect(recorder.steps).toEqual([
      { step: 'beforeToolCall', toolName: 'echo', args: { text: 42 } },
      { step: 'afterToolCall', toolName: 'echo', args: { text: 42 }, result },
    ]);
    expect(toolErrorFromResult(result)?.status).toBe(400);
  });

  it('refuses the call before the handler when beforeHandle throws', async () => {
    const refusal = new AppError('FORBIDDEN', { status: 403, message: 'Not allowed' });
    const recorder = createRecorder({
      lifecycle: {
        beforeHandle: () => {
          throw refusal;
        },
      },
    });
    const result = await runTool(
      echoTool(recorder),
      { text: 'hi' },
      { source: 'mcp', hooks: recorder.hooks, lifecycle: recorder.lifecycle },
    );
    expect(result).toEqual({
      ok: false,
      code: 'FORBIDDEN',
      details: { message: 'Not allowed' },
      retryable: false,
    });
    expect(recorder.steps).toEqual([
      { step: 'beforeToolCall', toolName: 'echo', args: { text: 'hi' } },
      { step: 'beforeHandle', input: { text: 'hi' } },
      { step: 'onToolError', error: refusal },
      { step: 'afterToolCall', toolName: 'echo', args: { text: 'hi' }, result, error: refusal },
    ]);
  });

  it('passes the raw thrown error to onToolError and afterToolCall and scrubs it in the result', async () => {
    const recorder = createRecorder();
    const raw = new Error('connect failed: password=hunter2');
    const result = await runTool(
      echoTool(recorder, () => {
        throw raw;
      }),
      { text: 'hi' },
      { source: 'agent', hooks: recorder.hooks, lifecycle: recorder.lifecycle },
    );
    expect(result).toEqual({
      ok: false,
      code: 'INTERNAL_SERVER_ERROR',
      details: { message: 'Internal server error' },
      retryable: false,
    });
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(recorder.steps).toEqual([
      { step: 'beforeToolCall', toolName: 'echo', args: { text: 'hi' } },
      { step: 'beforeHandle', input: { text: 'hi' } },
      { step: 'handler', input: { text: 'hi' } },
      { step: 'onToolError', error: raw },
      { step: 'afterToolCall', toolName: 'echo', args: { text: 'hi' }, result, error: raw },
    ]);
    expect(recorder.steps[3]?.error).toBe(raw);
    expect(recorder.steps[4]?.error).toBe(raw);
    expect(toolCauseFromResult(result)).toBe(raw);
  });

  it('uses the value afterHandle returns in place of the handler result', async () => {
    const recorder = createRecorder({ lifecycle: { afterHandle: () => ({ echoed: 'replaced' }) } });
    const result = await runTool(
      echoTool(recorder),
      { text: 'hi' },
      { source: 'internal', hooks: recorder.hooks, lifecycle: recorder.lifecycle },
    );
    expect(result).toEqual({ ok: true, data: { echoed: 'replaced' } });
    expect(recorder.steps).toEqual([
      { step: 'beforeToolCall', toolName: 'echo', args: { text: 'hi' } },
      { step: 'beforeHandle', input: { text: 'hi' } },
      { step: 'handler', input: { text: 'hi' } },
      { step: 'afterHandle', result: { echoed: 'hi' } },
      { step: 'afterToolCall', toolName: 'echo', args: { text: 'hi' }, result },
    ]);
  });

  it('turns an output that misses its schema into INTERNAL_SERVER_ERROR, never VALIDATION_ERROR', async () => {
    const recorder = createRecorder();
    const result = await runTool(
      echoTool(recorder, () => ({ echoed: 42 })),
      { text: 'hi' },
      { source: 'agent', transport: 'AGENT', hooks: recorder.hooks, lifecycle: recorder.lifecycle },
    );
    expect(result).toEqual({
      ok: false,
      code: 'INTERNAL_SERVER_ERROR',
      details: { message: 'Internal server error' },
      retryable: false,
    });
    const fault = toolCauseFromResult(result);
    expect(AppError.isInstance(fault) && fault.code).toBe('INTERNAL_SERVER_ERROR');
    expect(recorder.steps).toEqual([
      { step: 'beforeToolCall', toolName: 'echo', args: { text: 'hi' } },
      { step: 'beforeHandle', input: { text: 'hi' } },
      { step: 'handler', input: { text: 'hi' } },
      { step: 'afterHandle', result: { echoed: 42 } },
      { step: 'onToolError', error: fault },
      { step: 'afterToolCall', toolName: 'echo', args: { text: 'hi' }, result, error: fault },
    ]);
  });

  it('keeps the outcome when hooks throw or reject, and reports each failure to onHookError', async () => {
    const beforeFailure = new Error('before hook broke');
    const afterFailure = new Error('after hook broke');
    const recorder = createRecorder({
      hooks: {
        beforeToolCall: () => {
          throw beforeFailure;
        },
        afterToolCall: async () => {
          throw afterFailure;
        },
      },
    });
    const result = await runTool(
      echoTool(recorder),
      { text: 'hi' },
      { source: 'internal', hooks: recorder.hooks, lifecycle: recorder.lifecycle },
    );
    expect(result).toEqual({ ok: true, data: { echoed: 'hi' } });
    expect(recorder.steps).toEqual([
      { step: 'beforeToolCall', toolName: 'echo', args: { text: 'hi' } },
      { step: 'onHookError', hook: 'beforeToolCall', error: beforeFailure },
      { step: 'beforeHandle', input: { text: 'hi' } },
      { step: 'handler', input: { text: 'hi' } },
      { step: 'afterHandle', result: { echoed: 'hi' } },
      { step: 'afterToolCall', toolName: 'echo', args: { text: 'hi' }, result },
      { step: 'onHookError', hook: 'afterToolCall', error: afterFailure },
    ]);
  });

  it('keeps a failure result when onToolError rejects', async () => {
    const recorder = createRecorder({
      hooks: { onToolError: () => Promise.reject(new Error('observer down')) },
    });
    const result = await runTool(
      echoTool(recorder, () => {
        throw new AppError('NOT_FOUND', { status: 404, message: 'No such echo' });
      }),
      { text: 'hi' },
      { source: 'internal', hooks: recorder.hooks },
    );
    expect(result).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      details: { message: 'No such echo' },
      retryable: false,
    });
    expect(recorder.steps.map((entry) => entry.step)).toEqual([
      'beforeToolCall',
      'handler',
      'onToolError',
      'onHookError',
      'afterToolCall',
    ]);
  });

  it('validates and runs with the args beforeToolCall returns, reporting them as effectiveArgs', async () => {
    const recorder = createRecorder({ hooks: { beforeToolCall: () => ({ text: 'replaced' }) } });
    const result = await runTool(
      echoTool(recorder),
      { text: 7 },
      { source: 'internal', hooks: recorder.hooks, lifecycle: recorder.lifecycle },
    );
    expect(result).toEqual({ ok: true, data: { echoed: 'replaced' } });
    expect(recorder.steps).toEqual([
      { step: 'beforeToolCall', toolName: 'echo', args: { text: 7 } },
      { step: 'beforeHandle', input: { text: 'replaced' } },
      { step: 'handler', input: { text: 'replaced' } },
      { step: 'afterHandle', result: { echoed: 'replaced' } },
      {
        step: 'afterToolCall',
        toolName: 'echo',
        args: { text: 7 },
        result,
        effectiveArgs: { text: 'replaced' },
      },
    ]);
  });

  it('ignores a beforeToolCall return value that is not a plain object', async () => {
    const recorder = createRecorder({ hooks: { beforeToolCall: () => 'not args' } });
    const result = await runTool(
      echoTool(recorder),
      { text: 'hi' },
      {
        source: 'internal',
        hooks: recorder.hooks,
      },
    );
    expect(result).toEqual({ ok: true, data: { echoed: 'hi' } });
  });
});

describe('runTool context and cancellation', () => {
  it('gives the handler the host context with framework-owned fields winning', async () => {
    const seen: Record<string, unknown>[] = [];
    const tool = defineRuntimeTool({
      name: 'whoami',
      description: 'Reports its context',
      identity: { serviceName: 'demo', action: 'whoami', method: 'GET' },
      input: z.object({}),
      handler: (ctx) => {
        seen.push({ ...ctx });
        return null;
      },
    });
    const signal = new AbortController().signal;
    await runTool(
      tool,
      {},
      {
        source: 'cli',
        signal,
        toolCallId: 'call-1',
        context: { tenant: 't1', source: 'forged', input: 'forged', signal: 'forged' },
      },
    );
    expect(seen).toEqual([
      {
        tenant: 't1',
        source: 'cli',
        input: {},
        signal,
        toolCallId: 'call-1',
        reportProgress: expect.any(Function),
        caller: NO_CALLER,
      },
    ]);
  });

  it('gives the handler a signal even when the caller passes none', async () => {
    let signal: unknown;
    const tool = defineRuntimeTool({
      name: 'signal_probe',
      description: 'Reads its signal',
      identity: { serviceName: 'demo', action: 'probe', method: 'GET' },
      input: z.object({}),
      handler: (ctx) => {
        signal = ctx.signal;
        return null;
      },
    });
    await runTool(tool, {}, { source: 'internal' });
    expect(signal).toBeInstanceOf(AbortSignal);
    expect((signal as AbortSignal).aborted).toBe(false);
  });

  it('reports CANCELLED with the exact reason as cause when the handler throws the caller reason', async () => {
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const recorder = createRecorder();
    const tool = defineRuntimeTool({
      name: 'slow',
      description: 'Waits until cancelled',
      identity: { serviceName: 'demo', action: 'slow', method: 'GET' },
      input: z.object({}),
      handler: (ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
          queueMicrotask(() => controller.abort(reason));
        }),
    });
    const result = await runTool(
      tool,
      {},
      {
        source: 'agent',
        signal: controller.signal,
        hooks: recorder.hooks,
      },
    );
    expect(result).toEqual({
      ok: false,
      code: 'CANCELLED',
      details: { message: 'The tool call was cancelled' },
      retryable: false,
    });
    expect(toolCauseFromResult(result)).toBe(reason);
    expect(toolErrorFromResult(result)?.status).toBe(499);
    expect(recorder.steps.map((entry) => entry.step)).toEqual([
      'beforeToolCall',
      'onToolError',
      'afterToolCall',
    ]);
    expect(recorder.steps[1]?.error).toBe(reason);
  });

  it('never starts the handler or beforeHandle when the signal is already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('gone before start');
    controller.abort(reason);
    const recorder = createRecorder();
    const result = await runTool(
      echoTool(recorder),
      { text: 'hi' },
      {
        source: 'agent',
        signal: controller.signal,
        hooks: recorder.hooks,
        lifecycle: recorder.lifecycle,
      },
    );
    expect(result.ok === false && result.code).toBe('CANCELLED');
    expect(toolCauseFromResult(result)).toBe(reason);
    expect(recorder.steps.map((entry) => entry.step)).toEqual([
      'beforeToolCall',
      'onToolError',
      'afterToolCall',
    ]);
  });
});
