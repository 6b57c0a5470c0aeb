/**
 * The pure rules of `mcpTask`: how each task request's answer is read, which changes of a task
 * are told to the caller, and what the task error and a failed task's JSON-RPC error keep.
 */
import { describe, expect, it } from 'vitest';
import {
  readTaskAnswer,
  rpcFailureOf,
  statusChanged,
  taskError,
} from '../../../src/machines/mcp-task/mcp-task.policy.js';
import { ConnectionProtocolError, createHostFence } from '../../../src/wire/index.js';

const scope = { connectionName: 'jobs', operation: 'tasks/get', phase: 'call' } as const;
const task = {
  taskId: 't-1',
  status: 'working' as const,
  createdAt: '2026-12-05T00:00:00Z',
  lastUpdatedAt: '2026-12-05T00:00:00Z',
  ttlMs: null,
};

describe('readTaskAnswer', () => {
  it('reads a 2025 tasks/result as the call result', () => {
    expect(readTaskAnswer({ content: [] }, 'result', '2025-11-25', scope)).toEqual({
      kind: 'result',
      result: { content: [] },
    });
  });

  it('checks a 2026 acknowledgement and refuses one that is not complete', () => {
    expect(readTaskAnswer({ resultType: 'complete' }, 'ack', '2026-07-28', scope)).toEqual({
      kind: 'ack',
    });
    expect(() => readTaskAnswer({ resultType: 'task' }, 'ack', '2026-07-28', scope)).toThrow(
      ConnectionProtocolError,
    );
  });

  it('takes any 2025 acknowledgement (a 2025 tasks/cancel answers the task)', () => {
    expect(readTaskAnswer({ ...task, status: 'cancelled' }, 'ack', '2025-11-25', scope)).toEqual({
      kind: 'ack',
    });
  });

  it('reads a status strictly, per revision (2025 `ttl`, 2026 `ttlMs` and `resultType`)', () => {
    const { ttlMs: _renamed, ...wire2025 } = task;
    expect(readTaskAnswer({ ...wire2025, ttl: null }, 'status', '2025-11-25', scope)).toEqual({
      kind: 'status',
      task,
    });
    expect(() => readTaskAnswer(task, 'status', '2026-07-28', scope)).toThrow(
      ConnectionProtocolError,
    );
  });
});

describe('statusChanged', () => {
  it.each([
    [{ status: 'working' }, { status: 'working' }, false],
    [{ status: 'working' }, { status: 'completed' }, true],
    [{ status: 'working' }, { status: 'working', statusMessage: 'halfway' }, true],
    [
      { status: 'working', statusMessage: 'halfway' },
      { status: 'working', statusMessage: 'halfway' },
      false,
    ],
  ] as const)('%j then %j: %s', (before, after, changed) => {
    expect(statusChanged(before, after)).toBe(changed);
  });
});

describe('rpcFailureOf', () => {
  it("keeps a JSON-RPC error's code, message and data, and only what it has", () => {
    const full = new ConnectionProtocolError({
      ...scope,
      violation: 'x',
      rpcCode: -32603,
      rpcMessage: 'crashed',
      rpcData: { step: 3 },
    });
    expect(rpcFailureOf(full)).toEqual({
      rpcCode: -32603,
      rpcMessage: 'crashed',
      rpcData: { step: 3 },
    });
    const bare = new ConnectionProtocolError({ ...scope, violation: 'x', rpcCode: -32000 });
    expect(rpcFailureOf(bare)).toEqual({ rpcCode: -32000 });
    expect(rpcFailureOf(new ConnectionProtocolError({ ...scope, violation: 'x' }))).toEqual({});
    expect(rpcFailureOf(new Error('x'))).toEqual({});
  });
});

describe('taskError', () => {
  const base = {
    scope: { connectionName: 'jobs', operation: 'tools/call', phase: 'call' },
    fence: createHostFence('jobs', new URL('http://127.0.0.1:1/mcp')),
    headers: {
      staticHeaders: {},
      token: undefined,
      sessionId: undefined,
      protocolVersion: undefined,
    },
    relay: undefined,
    callerCapabilities: {},
  } as const;

  it("names the task's last status and words, when it has words", () => {
    const worded = taskError(
      { base, task: { ...task, statusMessage: 'disk full' } },
      'tasks/get',
      'lost',
    );
    expect(worded).toMatchObject({
      taskId: 't-1',
      status: 'working',
      statusMessage: 'disk full',
      operation: 'tasks/get',
    });
    expect(taskError({ base, task }, 'tasks/get', 'lost').statusMessage).toBeUndefined();
  });
});
