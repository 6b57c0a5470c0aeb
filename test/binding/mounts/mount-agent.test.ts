import type { ToolExecutionOptions } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppError,
  defineRuntimeTool,
  isAgentToolError,
  mountAgent,
  type RuntimeToolCallContext,
} from '../../../src/binding/index.js';
import { modelCalling, run } from '../../support/agent-model.js';
import { createRecorder } from '../../support/binding-recorder.js';

const SECRET = 'sk-live-do-not-leak-4242';

const addTool = defineRuntimeTool({
  name: 'add',
  description: 'Adds two numbers',
  identity: { serviceName: 'math', action: 'add', method: 'GET' },
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.object({ sum: z.number() }),
  handler: (ctx) => ({ sum: ctx.input.a + ctx.input.b }),
});

describe('mountAgent with the ai package', () => {
  it('lets generateText call a tool and hand its result to the model', async () => {
    const recorder = createRecorder();
    const contexts: RuntimeToolCallContext[] = [];
    const tools = mountAgent({
      runtimeTools: [addTool],
      hooks: {
        ...recorder.hooks,
        beforeToolCall: (info) => {
          contexts.push(info.context);
        },
      },
      context: { tenant: 't1' },
    });
    const model = modelCalling('add', { a: 2, b: 3 });
    const result = await run(model, tools);

    expect(result.steps[0]?.toolResults).toEqual([
      expect.objectContaining({ toolCallId: 'call-1', toolName: 'add', output: { sum: 5 } }),
    ]);
    expect(result.text).toBe('done');
    expect(contexts).toEqual([
      expect.objectContaining({ tenant: 't1', source: 'agent', toolCallId: 'call-1' }),
    ]);
    expect(model.doGenerateCalls[0]?.tools).toEqual([
      expect.objectContaining({
        type: 'function',
        name: 'add',
        description: 'Adds two numbers',
        inputSchema: expect.objectContaining({
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        }),
      }),
    ]);
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'call-1',
        output: { type: 'json', value: { sum: 5 } },
      }),
    ]);
  });

  it('surfaces a failure as AgentToolError with the raw cause and keeps the secret from the model', async () => {
    const raw = new Error(`upstream rejected token ${SECRET}`);
    const failing = defineRuntimeTool({
      ...addTool,
      name: 'fail',
      handler: () => {
        throw raw;
      },
    });
    const errors: unknown[] = [];
    const tools = mountAgent({
      runtimeTools: [failing],
      hooks: { onToolError: (info) => void errors.push(info.error) },
    });
    const model = modelCalling('fail', { a: 1, b: 1 });
    const result = await run(model, tools);

    const toolError = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect(toolError?.type).toBe('tool-error');
    const thrown = toolError?.type === 'tool-error' ? toolError.error : undefined;
    expect(isAgentToolError(thrown)).toBe(true);
    expect(isAgentToolError(thrown) && thrown.cause).toBe(raw);
    expect(isAgentToolError(thrown) && thrown.output).toEqual({
      error: 'INTERNAL_SERVER_ERROR',
      details: { message: 'Internal server error' },
      retryable: false,
    });
    expect(errors).toEqual([raw]);

    const secondPrompt = model.doGenerateCalls[1]?.prompt;
    const toolMessage = secondPrompt?.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'call-1',
        output: {
          type: 'error-text',
          value:
            '{"error":"INTERNAL_SERVER_ERROR","details":{"message":"Internal server error"},"retryable":false}',
        },
      }),
    ]);
    expect(JSON.stringify(secondPrompt)).not.toContain(SECRET);
    expect(JSON.stringify(toolError?.type === 'tool-error' ? toolError.error : null)).not.toContain(
      SECRET,
    );
    expect(String(thrown)).not.toContain(SECRET);
  });

  it('runs input validation in the runner, after beforeToolCall, so the model sees VALIDATION_ERROR', async () => {
    const recorder = createRecorder();
    const tools = mountAgent({ runtimeTools: [addTool], hooks: recorder.hooks });
    const model = modelCalling('add', { a: 'two' });
    await run(model, tools);

    expect(recorder.steps.map((entry) => entry.step)).toEqual(['beforeToolCall', 'afterToolCall']);
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((m) => m.role === 'tool');
    const part = toolMessage?.content[0];
    const output = part?.type === 'tool-result' ? part.output : undefined;
    expect(output?.type).toBe('error-text');
    const envelope = JSON.parse(output?.type === 'error-text' ? output.value : '{}');
    expect(envelope.error).toBe('VALIDATION_ERROR');
    expect(envelope.details.issues.map((issue: { path: unknown }) => issue.path)).toEqual([
      ['a'],
      ['b'],
    ]);
  });

  it('returns the present.agent value as the tool output', async () => {
    const presented = defineRuntimeTool({
      ...addTool,
      name: 'add_text',
      present: { agent: (output) => `the sum is ${output.sum}` },
    });
    const tools = mountAgent({ runtimeTools: [presented] });
    const model = modelCalling('add_text', { a: 1, b: 2 });
    const result = await run(model, tools);
    expect(result.steps[0]?.toolResults[0]?.output).toBe('the sum is 3');
  });
});

describe('mountAgent execute', () => {
  it('aborts ctx.signal in the handler when the execute abortSignal aborts', async () => {
    let started: () => void = () => {};
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const seenReasons: unknown[] = [];
    const waiting = defineRuntimeTool({
      name: 'wait_forever',
      description: 'Waits until cancelled',
      identity: { serviceName: 'demo', action: 'wait', method: 'GET' },
      input: z.object({}),
      handler: (ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener(
            'abort',
            () => {
              seenReasons.push(ctx.signal.reason);
              reject(ctx.signal.reason);
            },
            { once: true },
          );
          started();
        }),
    });
    const tools = mountAgent({ runtimeTools: [waiting] });
    const controller = new AbortController();
    const reason = new Error('stop');
    const pending = tools.wait_forever?.execute(
      {},
      { toolCallId: 'c1', abortSignal: controller.signal },
    );
    await handlerStarted;
    controller.abort(reason);

    const error = await pending?.catch((caught: unknown) => caught);
    expect(seenReasons).toEqual([reason]);
    expect(isAgentToolError(error) && error.output.error).toBe('CANCELLED');
    expect(isAgentToolError(error) && error.cause).toBe(reason);
  });

  it('throws an AgentToolError carrying an AppError cause for an expected failure', async () => {
    const refusal = new AppError('FORBIDDEN', { status: 403, message: 'Not yours' });
    const tools = mountAgent({
      runtimeTools: [addTool],
      lifecycle: {
        beforeHandle: () => {
          throw refusal;
        },
      },
    });
    const error = await tools.add?.execute({ a: 1, b: 2 }, { toolCallId: 'c2' }).catch((e) => e);
    expect(isAgentToolError(error) && error.output).toEqual({
      error: 'FORBIDDEN',
      details: { message: 'Not yours' },
      retryable: false,
    });
    expect(isAgentToolError(error) && error.cause).toBe(refusal);
  });
});

describe("the AI SDK's own execute options", () => {
  it('type-check and run: ToolExecutionOptions from ai, messages and context included', async () => {
    const tools = mountAgent({ runtimeTools: [addTool] });
    const add = tools.add;
    if (add === undefined) throw new Error('add not mounted');
    // What ai passes to execute, typed as ai types it.
    const options: ToolExecutionOptions = {
      toolCallId: 'call-9',
      messages: [{ role: 'user', content: 'add them' }],
      experimental_context: { tenant: 't1' },
    };
    expect(await add.execute({ a: 2, b: 3 }, options)).toEqual({ sum: 5 });
    // Written in place, as the AI SDK's docs write it (an object literal: every key is checked).
    expect(
      await add.execute(
        { a: 1, b: 1 },
        { toolCallId: 'call-10', messages: [], experimental_context: {} },
      ),
    ).toEqual({ sum: 2 });
  });
});
