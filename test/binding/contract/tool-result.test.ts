import { describe, expect, it } from 'vitest';
import {
  AgentToolError,
  AppError,
  agentToolErrorFromResult,
  isAgentToolError,
  TOOL_ERROR_PROJECTION,
  type ToolResult,
  toolCauseFromResult,
  toolErrorFromResult,
  toolResultFromError,
} from '../../../src/binding/index.js';

class UpstreamRefusedError extends Error {
  [TOOL_ERROR_PROJECTION](): AppError {
    return new AppError('FORBIDDEN', { status: 403, message: 'The upstream refused the call' });
  }
}

describe('toolResultFromError', () => {
  it.each([
    {
      label: 'an AppError maps directly, details default to its message',
      error: new AppError('NOT_FOUND', { status: 404, message: 'No such invoice' }),
      expected: {
        ok: false,
        code: 'NOT_FOUND',
        details: { message: 'No such invoice' },
        retryable: false,
      },
    },
    {
      label: 'an AppError keeps its details, hint and declared retryable',
      error: new AppError('RATE_LIMITED', {
        status: 400,
        details: { limit: 10 },
        hint: 'Wait a minute',
        retryable: true,
      }),
      expected: {
        ok: false,
        code: 'RATE_LIMITED',
        details: { limit: 10 },
        hint: 'Wait a minute',
        retryable: true,
      },
    },
    {
      label: 'a projecting error projects itself, hiding its own message',
      error: new UpstreamRefusedError('token sk-live-123 rejected by https://api.example/x'),
      expected: {
        ok: false,
        code: 'FORBIDDEN',
        details: { message: 'The upstream refused the call' },
        retryable: false,
      },
    },
    {
      label: 'an unknown error is scrubbed to INTERNAL_SERVER_ERROR',
      error: new Error('db password=hunter2 at /srv/secret'),
      expected: {
        ok: false,
        code: 'INTERNAL_SERVER_ERROR',
        details: { message: 'Internal server error' },
        retryable: false,
      },
    },
    {
      label: 'a thrown non-error is scrubbed too',
      error: 'hunter2',
      expected: {
        ok: false,
        code: 'INTERNAL_SERVER_ERROR',
        details: { message: 'Internal server error' },
        retryable: false,
      },
    },
  ])('$label', ({ error, expected }) => {
    const result = toolResultFromError(error);
    expect(result).toEqual(expected);
    expect(JSON.stringify(result)).not.toMatch(/hunter2|sk-live|example|stack/);
    expect(toolCauseFromResult(result)).toBe(error);
  });

  it.each([
    [408, true],
    [429, true],
    [502, true],
    [503, true],
    [504, true],
    [400, false],
    [401, false],
    [403, false],
    [500, false],
  ])('defaults retryable from status %i to %s', (status, retryable) => {
    const result = toolResultFromError(new AppError('UPSTREAM', { status }));
    expect(result.retryable).toBe(retryable);
  });

  it('keeps the normalized AppError and the raw cause out of the serialized result', () => {
    const raw = new Error('token=abc');
    const result = toolResultFromError(raw);
    const normalized = toolErrorFromResult(result);
    expect(normalized?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(normalized?.status).toBe(500);
    expect(normalized?.cause).toBe(raw);
    expect(Object.keys(result).sort()).toEqual(['code', 'details', 'ok', 'retryable']);
  });

  it('rebuilds an AppError from a serialized failure and has no cause for it', () => {
    const copy = JSON.parse(
      JSON.stringify(toolResultFromError(new AppError('FORBIDDEN', { status: 403 }))),
    ) as ToolResult;
    const rebuilt = toolErrorFromResult(copy);
    expect(rebuilt?.code).toBe('FORBIDDEN');
    expect(rebuilt?.status).toBe(403);
    expect(toolCauseFromResult(copy)).toBeUndefined();
  });

  it('has no error for a success result', () => {
    expect(toolErrorFromResult({ ok: true, data: 1 })).toBeUndefined();
  });
});

describe('AgentToolError', () => {
  it('carries the safe envelope as output and message, and the raw error as cause', () => {
    const raw = new Error('secret-value');
    const error = agentToolErrorFromResult(toolResultFromError(raw));
    expect(error.output).toEqual({
      error: 'INTERNAL_SERVER_ERROR',
      details: { message: 'Internal server error' },
      retryable: false,
    });
    expect(error.message).toBe(JSON.stringify(error.output));
    expect(error.cause).toBe(raw);
    expect(error.name).toBe('AgentToolError');
  });

  it('is recognised by its registered brand, also for a lookalike from another copy', () => {
    const brand = Symbol.for('stitchkit-transport.AgentToolError');
    const foreign = { [brand]: true, output: { error: 'X' } };
    expect(isAgentToolError(new AgentToolError({ error: 'X' }))).toBe(true);
    expect(isAgentToolError(foreign)).toBe(true);
    expect(foreign instanceof AgentToolError).toBe(true);
    expect(isAgentToolError(new Error('{"error":"X"}'))).toBe(false);
  });

  it('reads as its envelope alone, by message and by toString (what the AI SDK 7 shows the model)', () => {
    const error = new AgentToolError({ error: 'UNAUTHORIZED', retryable: false });
    expect([error.message, String(error), error.toString()]).toEqual(
      Array(3).fill('{"error":"UNAUTHORIZED","retryable":false}'),
    );
  });
});
