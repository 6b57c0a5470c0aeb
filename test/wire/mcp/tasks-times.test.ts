/**
 * The MCP tasks reader at the edges of what it accepts: `createdAt` as an RFC 3339 date-time
 * naming a real day and time (each field at its first and last value, and one past it), a
 * retention of 0 ms, and a 2025-11-25 request that carries no 2026 routing.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionProtocolError, operationScope } from '../../../src/wire/index.js';
import { type TaskRevision, taskGetRequest, taskStatusOf } from '../../../src/wire/mcp/tasks.js';

const scope = operationScope('tasks', 'tools/call');
const SESSION: TaskRevision = '2025-11-25';
const ID = '786512e2-9e0d-44bd-8f29-789f320fe840';

/** A 2025-11-25 `tasks/get` answer with `createdAt` and `ttl` as given. */
function read(createdAt: string, ttl: number | null = 60_000) {
  return taskStatusOf(
    {
      taskId: ID,
      status: 'working',
      createdAt,
      lastUpdatedAt: '2025-11-25T10:40:00Z',
      ttl,
      pollInterval: 5000,
    },
    SESSION,
    scope,
  );
}

describe('createdAt, an RFC 3339 date-time of a real day', () => {
  it.each([
    ['the first month, day and instant', '2024-01-01T00:00:00Z'],
    ['the last month, day, hour and minute, and a leap second', '2024-12-31T23:59:60Z'],
    ['February 29 of a leap year', '2024-02-29T10:30:00Z'],
    ['February 29 of a year divisible by 400', '2000-02-29T10:30:00Z'],
    ['the largest offset', '2025-11-25T10:30:00+23:59'],
    ['a negative zero offset and a fraction', '2025-11-25T10:30:00.5-00:00'],
  ])('accepts %s', (_label, createdAt) => {
    expect(read(createdAt).createdAt).toBe(createdAt);
  });

  it.each([
    ['month 0', '2024-00-10T10:30:00Z'],
    ['month 13', '2024-13-10T10:30:00Z'],
    ['day 0', '2024-01-00T10:30:00Z'],
    ['day 32 of January', '2024-01-32T10:30:00Z'],
    ['day 31 of April', '2024-04-31T10:30:00Z'],
    ['February 29 of a common year', '2023-02-29T10:30:00Z'],
    ['February 29 of a century not divisible by 400', '2100-02-29T10:30:00Z'],
    ['hour 24', '2024-01-10T24:00:00Z'],
    ['minute 60', '2024-01-10T10:60:00Z'],
    ['second 61', '2024-01-10T10:30:61Z'],
    ['an offset of 24 hours', '2024-01-10T10:30:00+24:00'],
    ['an offset of 60 minutes', '2024-01-10T10:30:00+23:60'],
    ['no zone', '2024-01-10T10:30:00'],
  ])('refuses %s', (_label, createdAt) => {
    expect(() => read(createdAt)).toThrow(ConnectionProtocolError);
    expect(() => read(createdAt)).toThrow(
      'Connection "tasks" sent a task whose createdAt is not an ISO 8601 time',
    );
  });
});

describe('durations and routing', () => {
  it('accepts a retention of 0 ms', () => {
    expect(read('2025-11-25T10:30:00Z', 0).ttlMs).toBe(0);
  });

  it('sends a 2025-11-25 tasks/get with no 2026 routing headers', () => {
    expect(taskGetRequest(ID, SESSION)).toStrictEqual({
      method: 'tasks/get',
      params: { taskId: ID },
    });
  });
});
