/**
 * What a host and a model read of a call whose MCP task ended without a result: the task's id,
 * why it ended, the bound that fired or the server's error, and the last status seen, in the
 * host's message; in the projection, the status code by cause (504 for a deadline or an expired
 * task, 502 otherwise), never retryable, and none of the server's words.
 */
import { describe, expect, it } from 'vitest';
import { projectToolError } from '../../../src/binding/kernel/app-error.js';
import { MAX_ERROR_BODY_CHARS } from '../../../src/wire/errors/errors.js';
import { ConnectionTaskError, type TaskEnd } from '../../../src/wire/errors/task-error.js';

const base = { connectionName: 'jobs', taskId: 't-1' } as const;

describe('ConnectionTaskError', () => {
  it('names itself and its code, and is recognised by its brand', () => {
    const error = new ConnectionTaskError({ ...base, end: 'lost', status: 'working' });
    expect(error.name).toBe('ConnectionTaskError');
    expect(error.code).toBe('CONNECTION_TASK_FAILED');
    expect(ConnectionTaskError.isInstance(error)).toBe(true);
  });

  it.each<[TaskEnd, Partial<ConstructorParameters<typeof ConnectionTaskError>[0]>, string]>([
    [
      'timeout',
      { timeoutMs: 5000, operation: 'tools/call' },
      'Connection "jobs" task t-1 ran past its deadline (5000 ms), last seen working during tools/call',
    ],
    [
      'expired',
      { timeoutMs: 60000 },
      'Connection "jobs" task t-1 outlived its ttlMs (60000 ms), last seen working',
    ],
    [
      'failed',
      { rpcCode: -32000, rpcMessage: 'disk full' },
      'Connection "jobs" task t-1 failed on the server: -32000 disk full, last seen working',
    ],
    ['cancelled', {}, 'Connection "jobs" task t-1 was cancelled by the server, last seen working'],
    ['lost', {}, 'Connection "jobs" task t-1 is no longer known to the server, last seen working'],
  ])('says why a task that %s ended the call', (end, extra, message) => {
    expect(new ConnectionTaskError({ ...base, end, status: 'working', ...extra }).message).toBe(
      message,
    );
  });

  it.each<[TaskEnd, number, string]>([
    ['timeout', 504, "The tool's task ran past its deadline."],
    ['expired', 504, "The tool's task outlived its ttlMs."],
    ['failed', 502, "The tool's task failed on the server."],
    ['cancelled', 502, "The tool's task was cancelled by the server."],
    ['lost', 502, "The tool's task is no longer known to the server."],
  ])('projects a task that %s as %s, not retryable', (end, status, message) => {
    const projected = projectToolError(
      new ConnectionTaskError({ ...base, end, status: 'working', operation: 'tools/call' }),
    );
    expect(projected?.code).toBe('CONNECTION_TASK_FAILED');
    expect(projected?.status).toBe(status);
    expect(projected?.retryable).toBe(false);
    expect(projected?.message).toBe(message);
    expect(projected?.details?.reason).toBe(`task-${end}`);
  });

  it("keeps the server's words for the host only, each cut to the excerpt", () => {
    const long = 'w'.repeat(MAX_ERROR_BODY_CHARS + 10);
    const error = new ConnectionTaskError({
      ...base,
      end: 'failed',
      status: 'failed',
      statusMessage: long,
      rpcCode: -32000,
      rpcMessage: long,
      rpcData: { step: 3 },
    });
    expect(error.message).toBe(
      `Connection "jobs" task t-1 failed on the server: -32000 ${'w'.repeat(MAX_ERROR_BODY_CHARS)}, last seen failed`,
    );
    expect(error.statusMessage).toBe('w'.repeat(MAX_ERROR_BODY_CHARS));
    expect(error.rpcMessage).toBe('w'.repeat(MAX_ERROR_BODY_CHARS));
    expect(error.rpcData).toEqual({ step: 3 });
    const projected = projectToolError(error);
    expect(projected?.details).toEqual({
      message: "The tool's task failed on the server.",
      reason: 'task-failed',
      status: 'failed',
      rpcCode: -32000,
      phase: 'call',
    });
    expect(JSON.stringify(projected?.details)).not.toContain('www');
  });
});
