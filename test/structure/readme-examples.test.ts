/**
 * The README's TypeScript examples compile against the built package's declarations and run
 * against a real MCP SDK server. Each ```ts block is written to `.readme-examples/` with the
 * package specifiers pointed at `dist/`, type-checked with the project's compiler options, then
 * imported.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type McpPeers, startMcpPeers } from '../fixtures/mcp-peers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, '.readme-examples');

function readmeExamples(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** The package's specifiers pointed at the built package (`dist/`, built by `pretest`). */
function pointAtPackage(code: string): string {
  return code
    .replaceAll(/from 'stitchkit-transport\/([a-z]+)'/g, "from '../dist/$1/index.js'")
    .replaceAll("from 'stitchkit-transport'", "from '../dist/index.js'");
}

function typeErrors(files: readonly string[]): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName.startsWith(OUT))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('README examples', () => {
  const examples = readmeExamples();
  const files = examples.map((_, index) => join(OUT, `example-${index + 1}.ts`));
  let peers: McpPeers;

  beforeAll(async () => {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    examples.forEach((code, index) => {
      writeFileSync(files[index] ?? '', `${pointAtPackage(code)}\nexport {};\n`);
    });
    peers = await startMcpPeers();
  });
  afterAll(async () => {
    await peers.close();
    vi.unstubAllEnvs();
    rmSync(OUT, { recursive: true, force: true });
  });

  it('has the nine examples the README promises', () => {
    expect(examples).toHaveLength(9);
  });

  // A full program check (xstate and SDK types included) takes seconds on a slow machine.
  it('type-checks every example against the package types', { timeout: 90_000 }, () => {
    expect(typeErrors(files)).toEqual([]);
  });

  it('runs every example against a real MCP server', async () => {
    vi.stubEnv('MCP_URL', peers.url('/sessionless-json'));
    const logged: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      logged.push(args);
    });
    try {
      for (const file of files) await import(pathToFileURL(file).href);
    } finally {
      log.mockRestore();
    }
    expect(logged).toEqual([
      // MCP servers as tools: the ToolSet's names (`big` blocked) and `echo` asking for
      // approval, the catalog's headroom, then one call.
      [['echo', 'add', 'whoami', 'slow', 'fail'], true],
      [{ tools: 5 }],
      [true],
      // generateText: the step's tool output as the server wrote it, then the model's text.
      [
        { content: [{ type: 'text', text: 'Echo: hi' }], structuredContent: { echoed: 'hi' } },
        'done',
      ],
      // The reauthorization loop (this server takes any token).
      ['done'],
      // The v2-line gateway lists every upstream tool, in the upstream's order.
      [['echo', 'add', 'whoami', 'slow', 'fail', 'big']],
      // Tasks: a connection with a task deadline mounts as any other.
      [['echo', 'add', 'whoami', 'slow', 'fail', 'big']],
      // A live catalog: the agent's tools, and the manual relisting that changed nothing.
      [6, 'manual', 'ok'],
      // OpenAPI: the refused operation, then the mounted tools.
      ['uploadPhoto', 'non-json-body'],
      [['pets__showPetById']],
      // Wait, download (refused: link-local), upload.
      [{ ok: true, data: { status: 'ready' } }],
      ['DOWNLOAD_HOST_REFUSED'],
      [{ ok: true, data: { stored: 'archive://report.txt', bytes: 17 } }],
      // Watching: the states entered, the inspector called, the span's revision and events.
      [
        ['session.initializing', 'session.notifying', 'session.requesting.waiting', 'closed'],
        true,
        '2025-11-25',
        4,
      ],
    ]);
  });
});
