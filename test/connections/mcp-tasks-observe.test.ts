/**
 * A call that became an MCP task, as a host watches it: every transition of the task machine in
 * `observe` with the task's id and status (each poll a `working → polling → working` turn), and
 * the same transitions as events on the call's OpenTelemetry span.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyRuntimeToolDefinition, runTool } from '../../src/binding/index.js';
import {
  type ConnectionTelemetry,
  defineMcpClientConnection,
  mountConnections,
  type TransitionRecord,
} from '../../src/connections/index.js';
import { startTaskServer2026, type TaskServer2026 } from '../fixtures/task-server-2026.js';
import { useOtel } from '../support/otel.js';

let server: TaskServer2026;
const otel = useOtel();

beforeAll(async () => {
  server = await startTaskServer2026();
});
afterAll(async () => {
  await server.close();
});

async function slowCompute(
  observe?: (record: TransitionRecord) => void,
  telemetry?: ConnectionTelemetry,
): Promise<AnyRuntimeToolDefinition> {
  const tools = await mountConnections(
    [
      defineMcpClientConnection({
        name: 'tasks',
        transport: { url: server.url, protocolVersion: '2026-07-28' },
        ...(observe === undefined ? {} : { observe }),
        ...(telemetry === undefined ? {} : { telemetry }),
      }),
    ],
    { onSkippedTool: () => {} },
  );
  const tool = tools.find((candidate) => candidate.name === 'slow_compute');
  if (tool === undefined) throw new Error('slow_compute not mounted');
  return tool;
}

describe('a task in observe', () => {
  it('records each state of the task machine with the task id and the status last seen', async () => {
    const records: TransitionRecord[] = [];
    const tool = await slowCompute((record) => records.push(record));
    records.length = 0;
    await runTool(tool, { polls: 1, label: 'x' }, { source: 'agent' });
    const taskId = [...server.tasks.keys()].at(-1);
    const seen = records.map(
      ({ machine, from, to, task }) =>
        `${machine} ${from || '(start)'} -> ${to}${task === undefined ? '' : ` ${task.status}`}`,
    );
    expect(seen).toEqual([
      'mcpOperation (start) -> stateless.requesting.waiting',
      'mcpTask (start) -> working working',
      'mcpOperation stateless.requesting.waiting -> task working',
      'mcpTask working -> polling working',
      'mcpTask polling -> working working',
      'mcpTask working -> polling working',
      'mcpOperation task -> closed working',
      // XState reports the task's final snapshot after its parent took its end.
      'mcpTask polling -> done completed',
    ]);
    expect(new Set(records.flatMap(({ task }) => (task === undefined ? [] : [task.id])))).toEqual(
      new Set([taskId]),
    );
    // The task requests name their operation.
    expect(
      records.filter(({ machine }) => machine === 'mcpTask').map(({ operation }) => operation),
    ).toEqual(['tasks/get', 'tasks/get', 'tasks/get', 'tasks/get', 'tools/call']);
  });

  it("puts the task's transitions on the call's span, with the task id and status", async () => {
    const tool = await slowCompute(undefined, {});
    await runTool(tool, { polls: 1, label: 'y' }, { source: 'agent' });
    const [call] = otel.spans().filter((span) => span.name === 'tools/call slow_compute');
    const taskId = [...server.tasks.keys()].at(-1);
    expect(call?.events.map((event) => event.name)).toEqual([
      'stateless.requesting.waiting',
      'working',
      'task',
      'polling',
      'working',
      'polling',
      'closed',
      // XState reports the task's final snapshot after its parent took its end.
      'done',
    ]);
    expect(call?.events[3]?.attributes).toEqual({
      'stitchkit.machine': 'mcpTask',
      'stitchkit.state.from': 'working',
      'stitchkit.elapsed_ms': expect.any(Number),
      'stitchkit.mcp.task.id': taskId,
      'stitchkit.mcp.task.status': 'working',
    });
  });
});
