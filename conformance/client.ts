/**
 * The client under test for `@modelcontextprotocol/conformance` (client mode). The suite appends the
 * scenario server's URL as the last argument and names the scenario in MCP_CONFORMANCE_SCENARIO.
 * It runs this library's discovery, then calls each discovered tool through the canonical runner,
 * each operation on its own client. Exits 1 on any failure.
 */
import { runTool } from '../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../src/connections/index.js';

const ARGUMENTS: Readonly<Record<string, Record<string, unknown>>> = {
  add_numbers: { a: 2, b: 3 },
};

async function main(): Promise<void> {
  const url = process.argv.at(-1);
  if (url === undefined || !/^https?:\/\//.test(url)) throw new Error('usage: client.ts <url>');
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'unknown';
  const connection = defineMcpClientConnection({
    name: 'conformance',
    transport: { url },
    timeoutMs: 10_000,
  });
  const tools = await mountConnections([connection]);
  console.log(
    `[${scenario}] discovered ${tools.length} tool(s): ${tools.map((t) => t.name).join(', ')}`,
  );
  for (const tool of tools) {
    const result = await runTool(tool, ARGUMENTS[tool.name] ?? {}, { source: 'internal' });
    console.log(`[${scenario}] ${tool.name}: ${JSON.stringify(result).slice(0, 300)}`);
    if (!result.ok) process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
