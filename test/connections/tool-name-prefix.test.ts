/**
 * Two MCP servers that both have an `echo` tool: the mount refuses the collision before any
 * surface sees it, naming both connections and the option that fixes it; `tools.prefix` mounts
 * one server's tools as `<prefix>__<name>` (the OpenAPI rule for length and characters) while
 * calls send the server's own name.
 */
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import {
  ConnectionToolNameCollisionError,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { mcpHandler } from '../fixtures/fault-mcp.js';
import { rejectionOf, useFaultServers } from '../support/fault-suite.js';

const { start } = useFaultServers();

function server(name: string, url: string, prefix?: string) {
  return defineMcpClientConnection({
    name,
    transport: { url, protocolVersion: '2025-11-25' },
    ...(prefix === undefined ? {} : { tools: { prefix } }),
  });
}

describe('tool names across connections', () => {
  it('refuses two servers that both mount echo, naming both and the option that fixes it', async () => {
    const [a, b] = [await start(mcpHandler()), await start(mcpHandler())];
    const error = await rejectionOf(
      mountConnections([server('alpha', a.url), server('beta', b.url)]),
    );
    expect(error).toBeInstanceOf(ConnectionToolNameCollisionError);
    expect(error).toMatchObject({
      tool: 'echo',
      connections: ['alpha', 'beta'],
      message:
        'Tool name "echo" would be mounted twice: connections "alpha" and "beta" both mount it. Give an MCP connection tools: { prefix: \'…\' } (its tools become "<prefix>__<name>"), or tools: { block: [\'echo\'] } on one of them',
    });
  });

  it('mounts a prefixed server beside the other, and its calls send the server name', async () => {
    const [a, b] = [await start(mcpHandler()), await start(mcpHandler())];
    const tools = await mountConnections([server('alpha', a.url), server('beta', b.url, 'beta')]);
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'beta__echo']);
    const before = b.requests.length;
    const result = await runTool(
      tools[1] as (typeof tools)[number],
      { message: 'hi' },
      { source: 'agent' },
    );
    expect(result).toMatchObject({
      ok: true,
      data: { content: [{ type: 'text', text: 'Echo: hi' }] },
    });
    const call = b.requests.slice(before).find((request) => request.rpc?.method === 'tools/call');
    expect(call?.rpc?.params).toMatchObject({ name: 'echo' });
  });

  it('fits a long prefixed name into 64 characters with a stable hash, never by cutting it', async () => {
    const a = await start(mcpHandler());
    const long = 'a-very-long-prefix-for-a-connection-whose-server-names-are-long-too';
    const first = await mountConnections([server('long', a.url, long)]);
    const again = await mountConnections([server('long', a.url, long)]);
    const [name] = first.map((tool) => tool.name);
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^a-very-long-prefix-for-a-connection-whose-server-names-_[0-9a-f]{8}$/);
    expect(again.map((tool) => tool.name)).toEqual([name]);
  });

  it('refuses a prefix with no letter or digit at definition', () => {
    expect(() => server('odd', 'http://127.0.0.1:1/mcp', '__')).toThrow(
      'MCP connection "odd": tools.prefix must be a string with a letter or digit (it becomes "<prefix>__<tool>")',
    );
  });
});
