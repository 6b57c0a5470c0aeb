/**
 * A 2025 server's request to the caller, asked mid-call, and the run aborted while the caller is
 * still answering it: the caller's own signal tells it so with the run's exact reason (not only
 * the call's signal, which outlives the run), and the run ends with that reason.
 */
import { describe, expect, it } from 'vitest';
import { type ToolCallerHandler, toolCallerOf } from '../../../src/binding/contract/caller.js';
import { handleServerMessage } from '../../../src/machines/mcp-operation/mcp-operation.server-requests.js';
import type { ActorBase } from '../../../src/machines/mcp-operation/mcp-operation.types.js';
import { SecretValue } from '../../../src/machines/secret-value.js';
import { createHostFence } from '../../../src/wire/index.js';

const scope = { connectionName: 'c', operation: 'tools/call', phase: 'call' } as const;

function baseOf(handler: ToolCallerHandler): ActorBase {
  // The call's own signal stays live: only the run is aborted.
  const relay = toolCallerOf(handler, new AbortController().signal);
  return {
    scope,
    fence: createHostFence('c', new URL('http://127.0.0.1:9')),
    headers: {
      staticHeaders: {},
      token: undefined,
      sessionId: new SecretValue('s-1'),
      protocolVersion: '2025-11-25',
    },
    relay: new SecretValue(relay),
    callerCapabilities: relay.capabilities,
  };
}

describe('a server request the caller is answering when the run is aborted', () => {
  it("reaches the caller's signal with the run's reason, and ends the run with it", async () => {
    const seen: unknown[] = [];
    const base = baseOf({
      capabilities: { elicitation: {} },
      request: (_request, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            seen.push(signal.reason);
            reject(signal.reason);
          });
        }),
    });
    const run = new AbortController();
    const ask = { jsonrpc: '2.0', id: 4, method: 'elicitation/create', params: { message: 'ok?' } };
    const handled = handleServerMessage(
      base,
      ask,
      'http://127.0.0.1:9/mcp',
      { ...scope, maxBytes: 4_096, signal: run.signal },
      undefined,
    );
    const outcome = handled.then(
      () => 'answered',
      (error: unknown) => error,
    );
    const reason = new Error('the run was cancelled');
    run.abort(reason);
    // Polled first, so a caller never told fails here rather than hanging the run.
    await expect.poll(() => seen).toEqual([reason]);
    expect(await outcome).toBe(reason);
  });
});
