/**
 * Importing the library changes nothing process-wide: undici would make itself the global
 * dispatcher when none was set (moving the host's own `fetch` onto undici 7), and the library puts
 * back what the host had. Each case runs in a fresh Node process, importing the built package.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

async function inFreshProcess(script: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null');
}

const PROBE = `
const symbols = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];
const read = () => symbols.map((symbol) => globalThis[symbol]);
// None of the agents of the undici the library depends on may be left as the global one; its
// class is read once the library has loaded it (a first import of undici here would set it).
const notOurs = async () => {
  const { Agent: LibraryAgent } = await import('undici');
  return read().map((value) => !(value instanceof LibraryAgent));
};
`;

describe('the global dispatcher', () => {
  it("is never the library's undici after importing every entry point and making a request, and the host's fetch works", async () => {
    const result = await inFreshProcess(`${PROBE}
const before = read().map((value) => value === undefined);
await import('stitchkit-transport');
await import('stitchkit-transport/connections');
await import('stitchkit-transport/operations');
const { createServer } = await import('node:http');
const server = createServer((_req, res) => res.end('{"pets":[]}'));
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = 'http://127.0.0.1:' + server.address().port;
const { defineOpenApiConnection, mountConnections } = await import('stitchkit-transport/connections');
const { runTool } = await import('stitchkit-transport/binding');
const [tool] = await mountConnections([defineOpenApiConnection({ name: 'pets', spec: {
  openapi: '3.0.3', info: { title: 'p', version: '1' }, servers: [{ url: origin }],
  paths: { '/pets': { get: { operationId: 'list', responses: { 200: { description: 'ok' } } } } } } })]);
const called = await runTool(tool, {}, { source: 'agent' });
// The host's own fetch still works, on Node's own dispatcher.
const fetched = await (await fetch(origin + '/pets')).json();
server.close();
console.log(JSON.stringify({ before, after: await notOurs(), called: called.ok, fetched }));
`);
    expect(result).toEqual({
      before: [true, true],
      after: [true, true],
      called: true,
      fetched: { pets: [] },
    });
  });

  it("keeps the host's own dispatcher when it set one first", async () => {
    const result = await inFreshProcess(`${PROBE}
const mine = { dispatch() { return true; }, marker: 'the host' };
for (const symbol of symbols) globalThis[symbol] = mine;
await import('stitchkit-transport/connections');
console.log(JSON.stringify(read().map((value) => value?.marker ?? null)));
`);
    expect(result).toEqual(['the host', 'the host']);
  });

  it('is not even loaded by importing the library: undici loads on the first request (decision 0048)', async () => {
    const result = await inFreshProcess(`
const { createRequire } = await import('node:module');
const cache = createRequire(import.meta.url).cache;
const undiciFiles = () => Object.keys(cache).filter((file) => file.includes('/node_modules/undici/')).length > 0;
const { defineOpenApiConnection, mountConnections, runTool } = await import('stitchkit-transport');
await import('stitchkit-transport/connections');
await import('stitchkit-transport/operations');
await import('stitchkit-transport/binding');
const afterImport = undiciFiles();
const { createServer } = await import('node:http');
const server = createServer((_req, res) => res.end('{"pets":[]}'));
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = 'http://127.0.0.1:' + server.address().port;
const [tool] = await mountConnections([defineOpenApiConnection({ name: 'pets', spec: {
  openapi: '3.0.3', info: { title: 'p', version: '1' }, servers: [{ url: origin }],
  paths: { '/pets': { get: { operationId: 'list', responses: { 200: { description: 'ok' } } } } } } })]);
const afterMount = undiciFiles();
const called = await runTool(tool, {}, { source: 'agent' });
server.close();
console.log(JSON.stringify({ afterImport, afterMount, called: called.ok, afterCall: undiciFiles() }));
`);
    expect(result).toEqual({
      afterImport: false,
      afterMount: false,
      called: true,
      afterCall: true,
    });
  });

  it('is guarded in one place: only wire/http/undici-lazy.ts imports undici', () => {
    const SRC = join(ROOT, 'src');
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /from 'undici'/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(files.map((file) => relative('.', file)).sort()).toEqual(['wire/http/undici-lazy.ts']);
  });
});
