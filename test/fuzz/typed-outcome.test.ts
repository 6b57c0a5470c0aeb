/**
 * The fuzzers' and the soak's one definition of a typed outcome, held to what it must refuse:
 * a scrubbed foreign error, a code the library never produces, a cancellation with another
 * reason, a success its oracle does not expect; and what it must accept: the library's own input
 * refusal with zod's error as cause, a connection error, the caller's exact cancellation.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRuntimeTool, runTool, type ToolResult } from '../../src/binding/index.js';
import { upstreamToolError } from '../../src/connections/mcp-result.js';
import { ConnectionTimeoutError } from '../../src/wire/index.js';
import { LIBRARY_CODES, untypedOutcome } from '../support/typed-outcome.js';

function toolThrowing(error: unknown) {
  return defineRuntimeTool({
    name: 'probe',
    description: 'Throws what it is given, or answers its text',
    identity: { serviceName: 'fuzz', action: 'probe', method: 'POST' },
    input: z.object({ text: z.string() }),
    handler: async ({ input, signal }) => {
      if (input.text === 'wait') {
        await new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        );
      }
      if (error !== undefined) throw error;
      return { echoed: input.text };
    },
  });
}

const expectsEcho = (data: unknown) => JSON.stringify(data) === '{"echoed":"hi"}';

describe('the library codes read from the source', () => {
  it('hold every code of the failure table in the guide', () => {
    const guide = readFileSync(new URL('../../docs/guide.md', import.meta.url), 'utf8');
    const table = guide.slice(guide.indexOf('### Failures are typed'));
    const named = [...table.slice(0, table.indexOf('\n\n', 200)).matchAll(/`([A-Z][A-Z_]+)`/g)];
    const codes = [...new Set(named.map((match) => match[1] as string))].sort();
    expect(codes).toEqual([
      'BAD_REQUEST',
      'CONNECTION_CREDENTIAL_INVALID',
      'CONNECTION_INPUT_REQUIRED',
      'CONNECTION_NETWORK_ERROR',
      'CONNECTION_PROTOCOL_ERROR',
      'CONNECTION_REQUEST_FAILED',
      'CONNECTION_RESPONSE_TOO_LARGE',
      'CONNECTION_TASK_FAILED',
      'CONNECTION_TIMEOUT',
      'FORBIDDEN',
      'UNAUTHORIZED',
    ]);
    expect(codes.filter((code) => !LIBRARY_CODES.has(code))).toEqual([]);
    for (const code of ['CANCELLED', 'VALIDATION_ERROR', 'INTERNAL_SERVER_ERROR']) {
      expect(LIBRARY_CODES.has(code), code).toBe(true);
    }
  });
});

describe('a typed outcome', () => {
  it('is the library input refusal with the schema library error as cause', async () => {
    const result = await runTool(toolThrowing(undefined), { text: 42 }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(untypedOutcome(result, { success: () => false })).toBeUndefined();
  });

  it('is a connection error of ours', async () => {
    const timeout = new ConnectionTimeoutError({
      connectionName: 'fuzz',
      operation: 'tools/call',
      timeoutMs: 10,
    });
    const result = await runTool(toolThrowing(timeout), { text: 'hi' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_TIMEOUT' });
    expect(untypedOutcome(result, { success: () => false })).toBeUndefined();
  });

  it('is not a foreign error, scrubbed to INTERNAL_SERVER_ERROR', async () => {
    const foreign = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const result = await runTool(toolThrowing(foreign), { text: 'hi' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'INTERNAL_SERVER_ERROR' });
    expect(untypedOutcome(result, { success: () => true })).toBe(
      'INTERNAL_SERVER_ERROR with a cause that is not ours: Error (UND_ERR_SOCKET): other side closed',
    );
  });

  it("is an upstream MCP tool's own refusal, relayed with its own code", async () => {
    const refusal = upstreamToolError('probe', {
      isError: true,
      content: [{ type: 'text', text: '{"error":"ITEM_NOT_FOUND","message":"no such item"}' }],
    });
    const result = await runTool(toolThrowing(refusal), { text: 'hi' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'ITEM_NOT_FOUND' });
    expect(untypedOutcome(result, { success: () => false })).toBeUndefined();
  });

  it('is not a code the library never produces', () => {
    const result: ToolResult = { ok: false, code: 'SOMETHING_ELSE' };
    expect(untypedOutcome(result, { success: () => true })).toBe(
      "code SOMETHING_ELSE is not one of the library's",
    );
  });

  it('is CANCELLED only with the caller exact reason', async () => {
    const reason = new Error('the caller went away');
    const run = () => {
      const controller = new AbortController();
      const pending = runTool(
        toolThrowing(undefined),
        { text: 'wait' },
        {
          source: 'agent',
          signal: controller.signal,
        },
      );
      setTimeout(() => controller.abort(reason), 1);
      return pending;
    };
    const first = await run();
    expect(first).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(untypedOutcome(first, { success: () => false, cancelReason: reason })).toBeUndefined();
    const second = await run();
    expect(
      untypedOutcome(second, { success: () => false, cancelReason: new Error('another') }),
    ).toBe("CANCELLED without the caller's reason (cause: Error: the caller went away)");
    expect(untypedOutcome(second, { success: () => false })).toMatch(/^CANCELLED without/);
  });

  it('is a success only when its oracle expects the data', async () => {
    const result = await runTool(toolThrowing(undefined), { text: 'hi' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: { echoed: 'hi' } });
    expect(untypedOutcome(result, { success: expectsEcho })).toBeUndefined();
    expect(untypedOutcome(result, { success: () => false })).toBe(
      'a success its oracle does not expect: {"echoed":"hi"}',
    );
  });
});
