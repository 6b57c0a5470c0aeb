/**
 * `stitchkit-transport probe <mcp-url> --watch` against real MCP SDK servers whose tools change
 * while they run (a v2 2026-only server, a v1 server with sessions): the report once, then a line
 * per change as it comes (text, and NDJSON with `--json`), the list-changed stream's state, and an
 * end on `--watch-for` or SIGINT that closes the stream; `--watch` with `--openapi` is refused.
 * The command runs in-process through `main` with captured streams, as in `probe.test.ts`.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { changeEventOf, type ProbeReport, type WatchEvent } from '../../src/cli/probe-report.js';
import { watchText } from '../../src/cli/probe-text.js';
import { ConnectionProtocolError } from '../../src/connections/index.js';
import {
  type EvolvingPath,
  type EvolvingServers,
  startEvolvingServers,
} from '../fixtures/evolving-servers.js';
import { leakedHandles } from '../support/loopback-server.js';
import { until } from '../support/until.js';

let servers: EvolvingServers;
beforeAll(async () => {
  // A minute of freshness: the probe's one read of the catalog starts no TTL relisting, so each
  // change is the one the stream announced.
  servers = await startEvolvingServers({ ttlMs: 60_000 });
});
afterEach(async () => {
  await servers.reset();
});
afterAll(async () => {
  await servers.close();
  expect(await leakedHandles()).toEqual([]);
});

/** Starts the command line; `stdout()` is its output so far, `exit` its exit code. */
function probe(argv: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const sink = (write: (text: string) => void) => ({
    write: (chunk: string) => {
      write(chunk);
      return true;
    },
  });
  const exit = main(['probe', ...argv], {
    stdout: sink((text) => {
      stdout += text;
    }) as never,
    stderr: sink((text) => {
      stderr += text;
    }) as never,
    env: {},
  });
  return { exit, stdout: () => stdout, stderr: () => stderr };
}

/** The lines `--watch` printed after the text report, their time since the start made `+T`. */
function watchLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => /^\+\d+\.\d{3}s /.test(line))
    .map((line) => line.replace(/^\+\d+\.\d{3}s /, '+T '));
}

const CONNECTING = '+T probe listen connecting (until the server says it listens)';
const LISTENING = '+T probe listen listening (the server tells its tool list changes)';

/**
 * The lines from the stream's first state on, a leading `connecting` taken off: the report may be
 * out before the stream is acknowledged (then `connecting` comes first) or after.
 */
function pastConnecting<T>(lines: readonly T[], connecting: T): readonly T[] {
  return lines.length > 0 && isDeepStrictEqual(lines[0], connecting) ? lines.slice(1) : lines;
}

describe('probe --watch', () => {
  it.each(['/v2/stateless-only', '/v1/stateful'] as const)(
    'on %s prints the report, then a tool added as it is announced',
    async (path) => {
      const run = probe([servers.url(path), '--watch', '--watch-for', '3000']);
      await until('the stream is open', () => servers.openStreams(path) === 1);
      await servers.addTool('gamma');
      await until('the change is printed', () => run.stdout().includes(' list-changed '));
      expect(await run.exit).toBe(0);
      expect(run.stderr()).toBe('');
      const [head] = run.stdout().split('\n');
      expect(head).toBe(`probe ${servers.url(path)}`);
      expect(run.stdout()).toContain('  tools        2 mounted');
      expect(pastConnecting(watchLines(run.stdout()), CONNECTING)).toEqual([
        LISTENING,
        '+T probe list-changed +gamma',
      ]);
      // The stream ended with the watch.
      await until('no stream is open', () => servers.openStreams(path) === 0);
    },
  );

  it.each(['/v2/stateless-only', '/v1/stateful'] as const)(
    'on %s with --json prints the report, then one JSON object per change',
    async (path) => {
      const run = probe([servers.url(path), '--watch', '--watch-for', '3000', '--json']);
      await until('the stream is open', () => servers.openStreams(path) === 1);
      await servers.changeTool('alpha', { description: 'alpha v2' });
      await servers.removeTool('beta');
      await until('the changes are printed', () => run.stdout().includes('"beta"'));
      expect(await run.exit).toBe(0);
      const [first, ...rest] = run.stdout().trimEnd().split('\n');
      const report = JSON.parse(first ?? '') as ProbeReport;
      expect(report.ok).toBe(true);
      expect(report.tools.map((tool) => tool.name)).toEqual(['alpha', 'beta']);
      const parsed = rest.map((line) => JSON.parse(line) as WatchEvent);
      // Each line's time counts from the start of the probe, in the order they were printed.
      const times = parsed.map((event) => event.ms);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const events = parsed.map((event) => ({ ...event, ms: 0 }));
      const change = { event: 'change', ms: 0, connection: 'probe', reason: 'list-changed' };
      const listen = { event: 'listen', ms: 0, connection: 'probe' } as const;
      const listening = { ...listen, listen: 'listening' };
      // Two announcements, each relisted on its own, or both seen by one relisting.
      expect([
        [
          listening,
          { ...change, added: [], removed: [], changed: ['alpha'] },
          { ...change, added: [], removed: ['beta'], changed: [] },
        ],
        [listening, { ...change, added: [], removed: ['beta'], changed: ['alpha'] }],
      ]).toContainEqual(pastConnecting(events, { ...listen, listen: 'connecting' }));
      await until('no stream is open', () => servers.openStreams(path) === 0);
    },
  );

  it('shows a dropped stream reconnecting, then listening again (SIGTERM ends it)', async () => {
    const path: EvolvingPath = '/v2/stateless-only';
    const run = probe([servers.url(path), '--watch']);
    await until('the probe says it listens', () => run.stdout().includes(' listen listening '));
    expect(await servers.dropStreams(path)).toBe(1);
    await until('it listens again', () => run.stdout().split(' listen listening ').length === 3);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await run.exit).toBe(0);
    expect(pastConnecting(watchLines(run.stdout()), CONNECTING)).toEqual([
      LISTENING,
      '+T probe listen reconnecting (the stream dropped; waiting its backoff)',
      CONNECTING,
      LISTENING,
    ]);
  });

  it('says when the server offers no stream: a 2025 server without sessions', async () => {
    const path: EvolvingPath = '/v1/stateless';
    const run = probe([servers.url(path), '--watch']);
    await until('the probe says so', () => run.stdout().includes(' listen unoffered '));
    process.emit('SIGINT', 'SIGINT');
    expect(await run.exit).toBe(0);
    const unoffered = '+T probe listen unoffered (the server offers no tool list changes)';
    expect(pastConnecting(watchLines(run.stdout()), CONNECTING)).toEqual([unoffered]);
  });

  it('ends on SIGINT: the stream closed, no signal listener left, exit 0', async () => {
    const path: EvolvingPath = '/v2/stateless-only';
    const listeners = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const before = listeners();
    const run = probe([servers.url(path), '--watch']);
    await until('the probe says it listens', () => run.stdout().includes(' listen listening '));
    expect(servers.openStreams(path)).toBe(1);
    expect(listeners()).toEqual(before.map((count) => count + 1));
    process.emit('SIGINT', 'SIGINT');
    expect(await run.exit).toBe(0);
    expect(pastConnecting(watchLines(run.stdout()), CONNECTING)).toEqual([LISTENING]);
    expect(listeners()).toEqual(before);
    await until('no stream is open', () => servers.openStreams(path) === 0);
  });

  it('does not watch a server it could not discover: the report and its exit code', async () => {
    const listeners = process.listenerCount('SIGINT');
    const url = new URL('/nowhere', servers.url('/v1/stateful')).href;
    const run = probe([url, '--watch', '--json']);
    const code = await run.exit;
    const lines = run.stdout().trimEnd().split('\n');
    expect(lines.length).toBe(1);
    const report = JSON.parse(lines[0] ?? '') as ProbeReport;
    expect([report.ok, code]).toEqual([false, report.error?.exitCode]);
    expect(code).toBe(1);
    expect(process.listenerCount('SIGINT')).toBe(listeners);
  });

  it('closes the catalog it mounted when --call names no tool (a usage error)', async () => {
    const path: EvolvingPath = '/v2/stateless-only';
    const run = probe([servers.url(path), '--watch', '--call', 'nosuch']);
    expect(await run.exit).toBe(1);
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toBe(
      'stitchkit-transport probe: --call nosuch: no such tool (mounted: alpha, beta)\n',
    );
    await until('no stream is open', () => servers.openStreams(path) === 0);
  });

  it('prints a failed relisting with its code and message (the tools stay)', () => {
    const error = new ConnectionProtocolError({
      connectionName: 'probe',
      violation: 'sent a response that was not JSON',
    });
    const change = { connection: 'probe', added: [], removed: [], changed: [] } as const;
    const event = changeEventOf({ ...change, reason: 'ttl', error }, 2345);
    expect(event).toEqual({
      event: 'change',
      ms: 2345,
      ...change,
      reason: 'ttl',
      error: { code: error.code, message: error.message },
    });
    expect(watchText(event)).toBe(`+2.345s probe ttl failed ${error.code}: ${error.message}\n`);
  });
});

describe('probe --watch usage', () => {
  it.each([
    [
      ['--watch', '--openapi', 'x'],
      '--watch is for MCP servers: an OpenAPI document sends no list changes to follow',
    ],
    [['http://127.0.0.1:1/mcp', '--watch-for', '100'], '--watch-for goes with --watch'],
    [
      ['http://127.0.0.1:1/mcp', '--watch', '--watch-for', '2147483648'],
      '--watch-for takes at most 2147483647 ms (got 2147483648)',
    ],
  ])('refuses %j', async (argv, message) => {
    const run = probe(argv);
    expect(await run.exit).toBe(1);
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toBe(`stitchkit-transport probe: ${message}\n`);
  });
});
