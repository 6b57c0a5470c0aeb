/**
 * MCP tasks on 2025-11-25: a tool that runs only as a task (`execution.taskSupport: "required"`)
 * fails every plain call, so where the server does not offer task-augmented calls
 * (`capabilities.tasks.requests.tools.call`) it is not mounted (`requires-task`); a tool whose task
 * support is optional mounts and is called plainly. Against a server that offers tasks, see
 * `mcp-tasks-2025.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import { mountConnections, type SkippedTool } from '../../src/connections/index.js';
import { DEFAULT_FAULT_TOOLS, mcp, mcpHandler } from '../fixtures/fault-mcp.js';
import type { SeenRequest } from '../fixtures/fault-types.js';
import { connect, useFaultServers } from '../support/fault-suite.js';

const { start } = useFaultServers();

const [echo] = DEFAULT_FAULT_TOOLS as [Record<string, unknown>];
const TOOLS = [
  { ...echo, execution: { taskSupport: 'optional' } },
  {
    name: 'batch',
    description: 'Runs a long batch as a task.',
    inputSchema: { type: 'object' },
    execution: { taskSupport: 'required' },
  },
];

describe('task-only tools', () => {
  it('are skipped as requires-task where the server offers no tasks; a tool with optional task support mounts and answers a plain call', async () => {
    const server = await start(
      mcpHandler({
        'tools/list': (request: SeenRequest) => mcp.toolsList(request.rpc?.id ?? null, TOOLS),
      }),
    );
    const skipped: SkippedTool[] = [];
    const tools = await mountConnections([connect(server)], {
      onSkippedTool: (report) => skipped.push(report),
    });
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(skipped).toEqual([
      {
        connection: 'faulty',
        tool: 'batch',
        reason: 'requires-task',
        message:
          'the tool runs only as a task (execution.taskSupport "required"), and the server does not offer task-augmented calls (capabilities.tasks.requests.tools.call)',
      },
    ]);
    const [mounted] = tools;
    if (mounted === undefined) throw new Error('echo not mounted');
    const result = await runTool(mounted, { message: 'hi' }, { source: 'agent' });
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'Echo: hi' }] },
    });
  });
});
