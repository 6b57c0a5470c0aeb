/**
 * `ConnectionTaskError` beyond the rows of errors.test.ts (its message by ending, the 504/502
 * split, the server's words kept out of the projection): the projected message of every ending to
 * the word, its name and brand, and the host's message quoting the server's error cut to the
 * excerpt, as the error's own fields are.
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

  it.each<[TaskEnd, string]>([
    ['timeout', "The tool's task ran past its deadline."],
    ['expired', "The tool's task outlived its ttlMs."],
    ['failed', "The tool's task failed on the server."],
    ['cancelled', "The tool's task was cancelled by the server."],
    ['lost', "The tool's task is no longer known to the server."],
  ])('tells the model why a task that %s ended, not retryable', (end, message) => {
    const projected = projectToolError(
      new ConnectionTaskError({ ...base, end, status: 'working', operation: 'tools/call' }),
    );
    expect(projected?.message).toBe(message);
    expect(projected?.retryable).toBe(false);
  });

  it("quotes the server's error in the host's message cut to the excerpt", () => {
    const long = 'w'.repeat(MAX_ERROR_BODY_CHARS + 10);
    const error = new ConnectionTaskError({
      ...base,
      end: 'failed',
      status: 'failed',
      rpcCode: -32000,
      rpcMessage: long,
    });
    expect(error.message).toBe(
      `Connection "jobs" task t-1 failed on the server: -32000 ${'w'.repeat(MAX_ERROR_BODY_CHARS)}, last seen failed`,
    );
  });
});
