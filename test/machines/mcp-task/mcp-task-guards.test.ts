/** `asksDeferringCaller`: the one guard of `mcpTask` that reads the call's caller. */
import { describe, expect, it } from 'vitest';
import { mcpTaskGuards } from '../../../src/machines/mcp-task/mcp-task.guards.js';
import type { TaskExchange } from '../../../src/machines/mcp-task/mcp-task.types.js';

const asking = (keys: readonly string[]): TaskExchange => ({
  kind: 'status',
  task: {
    taskId: 'task-1',
    status: keys.length === 0 ? 'working' : 'input_required',
    createdAt: '2026-12-05T00:00:00Z',
    lastUpdatedAt: '2026-12-05T00:00:00Z',
    ttlMs: null,
    inputRequests: Object.fromEntries(
      keys.map((key) => [key, { method: 'elicitation/create', params: {} }]),
    ),
  },
});

const params = (
  exchange: TaskExchange,
  defersInput: boolean,
  revision: '2026-07-28' | '2025-11-25' = '2026-07-28',
  answeredKeys: readonly string[] = [],
) => ({ exchange, defersInput, revision, answeredKeys, round: 0, maxRounds: 2 });

describe('asksDeferringCaller', () => {
  it.each([
    ['a new question to a caller that answers by a retry', params(asking(['a']), true), true],
    ['a new question to a caller that answers in place', params(asking(['a']), false), false],
    ['no question', params(asking([]), true), false],
    ['a question already answered', params(asking(['a']), true, '2026-07-28', ['a']), false],
    [
      'a 2025 task (its questions come over tasks/result)',
      params(asking(['a']), true, '2025-11-25'),
      false,
    ],
  ])('%s: %s', (_case, given, expected) => {
    expect(mcpTaskGuards.asksDeferringCaller(undefined, given)).toBe(expected);
  });
});
