/**
 * A CommonJS consumer of the packed tarball (a default `npm init -y` project): `require()` of every
 * entry point works where Node supports `require()` of ES modules (20.19+, 22.12+), through the
 * `default` condition, and TypeScript type-checks it (`import x = require(...)`, `nodenext`).
 * The tarball's source maps carry their sources, and no map points at a file it does not ship.
 */
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packInto } from '../support/pack.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

let project: string;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'cjs-consumer-'));
  const filename = await packInto(project);
  const installed = join(project, 'node_modules', 'stitchkit-transport');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(project, filename), '-C', installed, '--strip-components=1']);
  // The package's dependencies (and zod, its peer), as installed here: nothing is fetched.
  for (const name of [...Object.keys(manifest.dependencies), 'zod', '@types/node']) {
    const target = join(project, 'node_modules', name);
    mkdirSync(resolve(target, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), target);
  }
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0' }),
  );
}, 60_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

describe('a CommonJS consumer', () => {
  it('require()s every entry point', async () => {
    const script = `
const names = ['stitchkit-transport', 'stitchkit-transport/connections', 'stitchkit-transport/binding',
  'stitchkit-transport/operations', 'stitchkit-transport/machines', 'stitchkit-transport/diagrams'];
console.log(JSON.stringify(names.map((name) => Object.keys(require(name)).length > 0)));
console.log(typeof require('stitchkit-transport/connections').mountConnections);
console.log(typeof require('stitchkit-transport').mountConnections);`;
    const { stdout, stderr } = await run(process.execPath, ['-e', script], { cwd: project });
    expect(stdout.trim().split('\n')).toEqual([
      '[true,true,true,true,true,true]',
      'function',
      'function',
    ]);
    expect(stderr).toBe('');
  });

  // A full program check of the package's types takes seconds, more on a busy machine; nothing is timed.
  it('type-checks and runs a TypeScript file that requires the package (module nodenext)', {
    timeout: 120_000,
  }, async () => {
    writeFileSync(
      join(project, 'index.cts'),
      `import connections = require('stitchkit-transport/connections');
import binding = require('stitchkit-transport/binding');
const connection: connections.McpClientConnection = connections.defineMcpClientConnection({
  name: 'crm',
  transport: { url: 'http://127.0.0.1:1/mcp' },
});
const runTool: typeof binding.runTool = binding.runTool;
console.log(connection.kind, typeof runTool);
`,
    );
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    await run(
      tsc,
      ['--module', 'nodenext', '--strict', '--types', 'node', '--outDir', 'out', 'index.cts'],
      {
        cwd: project,
      },
    );
    const { stdout } = await run(process.execPath, [join('out', 'index.cjs')], { cwd: project });
    expect(stdout.trim()).toBe('mcp function');
  });

  it('calls an OpenAPI tool without the optional peer @opentelemetry/api installed', async () => {
    // The service is started by the script itself, on a port the OS assigns, and stopped by it.
    const script = `
const http = require('node:http');
const { defineOpenApiConnection, mountConnections } = require('stitchkit-transport/connections');
const { runTool } = require('stitchkit-transport/binding');
let missing = false;
try { require.resolve('@opentelemetry/api'); } catch { missing = true; }
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ path: req.url, traceparent: req.headers.traceparent ?? null }));
});
server.listen(0, '127.0.0.1', async () => {
  const spec = { openapi: '3.1.0', info: { title: 't', version: '1' },
    paths: { '/ping': { get: { operationId: 'ping', responses: { 200: { description: 'ok' } } } } } };
  const [ping] = await mountConnections([defineOpenApiConnection({ name: 'svc', spec,
    baseUrl: 'http://127.0.0.1:' + server.address().port })]);
  const result = await runTool(ping, {}, { source: 'agent' });
  console.log(JSON.stringify({ missing, result }));
  server.close();
});`;
    const { stdout, stderr } = await run(process.execPath, ['-e', script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      missing: true,
      result: { ok: true, data: { path: '/ping', traceparent: null } },
    });
    expect(stderr).toBe('');
  });

  it('gets source maps that carry their sources, and no declaration maps', () => {
    const dist = join(project, 'node_modules', 'stitchkit-transport', 'dist');
    const maps = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.map'),
    );
    expect(maps.filter((file) => file.endsWith('.d.ts.map'))).toEqual([]);
    const withoutSources = maps.filter((file) => {
      const map = JSON.parse(readFileSync(join(dist, file), 'utf8')) as {
        sourcesContent?: unknown[];
      };
      return (
        !Array.isArray(map.sourcesContent) ||
        map.sourcesContent.some((text) => typeof text !== 'string')
      );
    });
    const scripts = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.js'),
    );
    expect(maps.sort()).toEqual(scripts.map((file) => `${file}.map`).sort());
    expect(withoutSources).toEqual([]);
  });
});
