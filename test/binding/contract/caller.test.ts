/**
 * `ctx.caller`, the transport-neutral caller side of a call: what the caller declared decides
 * what reaches its handler; everything else is -32601 at once; a failing handler is -32603 with
 * nothing of its message; the call's signal bounds every request; log delivery never throws.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineRuntimeTool,
  runTool,
  type ToolCaller,
  type ToolCallerHandler,
} from '../../../src/binding/index.js';

const SAMPLE = {
  method: 'sampling/createMessage',
  params: { messages: [], maxTokens: 5 },
} as const;
const ELICIT = { method: 'elicitation/create', params: { message: 'name?' } } as const;

/** Runs a tool whose handler hands its `ctx.caller` to `use`, and returns what `use` returned. */
async function withCaller<T>(
  caller: ToolCallerHandler | undefined,
  use: (caller: ToolCaller) => Promise<T>,
  signal?: AbortSignal,
): Promise<{ ok: boolean; data?: unknown; code?: string }> {
  const tool = defineRuntimeTool({
    name: 'asks',
    description: 'Asks its caller',
    identity: { serviceName: 'test', action: 'asks', method: 'POST' },
    input: z.object({}),
    handler: async (ctx) => use(ctx.caller),
  });
  const result = await runTool(
    tool,
    {},
    {
      source: 'agent',
      ...(caller === undefined ? {} : { caller }),
      ...(signal === undefined ? {} : { signal }),
    },
  );
  return result.ok ? { ok: true, data: result.data } : { ok: false, code: result.code };
}

describe('ctx.caller', () => {
  it('answers -32601 for everything and declares nothing when the host passes no handler', async () => {
    const seen = await withCaller(undefined, async (caller) => ({
      capabilities: caller.capabilities,
      answer: await caller.request(SAMPLE),
      logged: await caller.log({ level: 'info', data: 'dropped' }),
    }));
    expect(seen).toEqual({
      ok: true,
      data: {
        capabilities: {},
        answer: { error: { code: -32601, message: 'Method not found' } },
        logged: undefined,
      },
    });
  });

  it('passes declared methods to the handler with the params as written, and refuses the rest without calling it', async () => {
    const received: unknown[] = [];
    const handler: ToolCallerHandler = {
      capabilities: { sampling: { tools: {} }, experimental: { x: {} } } as never,
      request: (request, { signal }) => {
        received.push({ ...request, aborted: signal.aborted });
        return {
          result: { model: 'host', role: 'assistant', content: { type: 'text', text: 'ok' } },
        };
      },
    };
    const seen = await withCaller(handler, async (caller) => ({
      capabilities: caller.capabilities,
      sampled: await caller.request(SAMPLE),
      elicited: await caller.request(ELICIT),
    }));
    expect(seen.data).toEqual({
      capabilities: { sampling: { tools: {} } },
      sampled: {
        result: { model: 'host', role: 'assistant', content: { type: 'text', text: 'ok' } },
      },
      elicited: { error: { code: -32601, message: 'Method not found' } },
    });
    expect(received).toEqual([{ ...SAMPLE, aborted: false }]);
  });

  it('relays an error the handler answered, and answers -32603 without its message when it throws', async () => {
    const answers = await withCaller(
      {
        capabilities: { sampling: {}, elicitation: {} },
        request: (request) => {
          if (request.method === 'elicitation/create') {
            return { error: { code: -1, message: 'User rejected', data: { why: 'busy' } } };
          }
          throw new Error('secret host detail');
        },
      },
      async (caller) => [await caller.request(ELICIT), await caller.request(SAMPLE)],
    );
    expect(answers.data).toEqual([
      { error: { code: -1, message: 'User rejected', data: { why: 'busy' } } },
      { error: { code: -32603, message: 'Internal error' } },
    ]);
  });

  it('rejects with the call signal reason when the call is cancelled while the caller thinks', async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const outcome = await withCaller(
      {
        capabilities: { elicitation: {} },
        request: (_request, { signal }) => {
          handlerSignal = signal;
          controller.abort(new Error('the user closed the tab'));
          return new Promise(() => {});
        },
      },
      (caller) => caller.request(ELICIT),
      controller.signal,
    );
    expect(outcome).toEqual({ ok: false, code: 'CANCELLED' });
    expect(handlerSignal?.aborted).toBe(true);
  });

  it('bounds a request by its own signal as well', async () => {
    const own = new AbortController();
    const outcome = await withCaller(
      { capabilities: { roots: {} }, request: () => new Promise(() => {}) },
      async (caller) => {
        const pending = caller.request(
          { method: 'roots/list', params: {} },
          { signal: own.signal },
        );
        own.abort('enough');
        return pending.then(
          () => 'answered',
          (reason: unknown) => `rejected: ${String(reason)}`,
        );
      },
    );
    expect(outcome.data).toBe('rejected: enough');
  });

  it('delivers log messages in order and contains a failing delivery', async () => {
    const delivered: unknown[] = [];
    const seen = await withCaller(
      {
        capabilities: {},
        log: (message) => {
          delivered.push(message);
          if (message.data === 'second') throw new Error('sink down');
        },
      },
      async (caller) => {
        await caller.log({ level: 'info', data: 'first' });
        await caller.log({ level: 'error', logger: 'db', data: 'second' });
        return caller.capabilities;
      },
    );
    expect(seen).toEqual({ ok: true, data: {} });
    expect(delivered).toEqual([
      { level: 'info', data: 'first' },
      { level: 'error', logger: 'db', data: 'second' },
    ]);
  });

  it('calls a handler that is a class instance as a method, with its own this', async () => {
    class HostCaller implements ToolCallerHandler {
      readonly capabilities = { roots: {} };
      readonly roots = [{ uri: 'file:///srv', name: 'srv' }];
      readonly logged: unknown[] = [];
      request() {
        return { result: { roots: this.roots } };
      }
      log(message: { data: unknown }) {
        this.logged.push(message.data);
      }
    }
    const host = new HostCaller();
    const seen = await withCaller(host, async (caller) => {
      await caller.log({ level: 'info', data: 'listing' });
      return caller.request({ method: 'roots/list', params: {} });
    });
    expect(seen.data).toEqual({ result: { roots: [{ uri: 'file:///srv', name: 'srv' }] } });
    expect(host.logged).toEqual(['listing']);
  });
});
