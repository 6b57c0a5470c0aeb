/**
 * The `stitchkit-transport` executable from the packed tarball, installed in an empty folder as a
 * user would (`npm install <tarball>`, offline: the dependencies come from npm's cache, which
 * `npm ci` filled), run with `npx`: `probe --help`, and a probe of a real MCP SDK server.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packInto } from '../support/pack.js';
import { useMcpPeers } from '../support/peer-suite.js';

const run = promisify(execFile);
const peers = useMcpPeers();
let project: string;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'probe-bin-'));
  const filename = await packInto(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty', version: '1.0.0' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${filename}`], {
    cwd: project,
  });
}, 120_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

const npx = (args: readonly string[]) =>
  run('npx', ['--offline', 'stitchkit-transport', ...args], { cwd: project, timeout: 30_000 });

describe('the packed stitchkit-transport executable', () => {
  it('prints the probe usage with --help', async () => {
    const { stdout, stderr } = await npx(['probe', '--help']);
    expect(stdout.split('\n')[0]).toBe('Usage:');
    expect(stdout).toContain('stitchkit-transport probe <mcp-url> [options]');
    expect(stderr).toBe('');
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules', 'stitchkit-transport', 'package.json'), 'utf8'),
    ) as { bin: Record<string, string> };
    expect(manifest.bin).toEqual({ 'stitchkit-transport': './dist/cli/bin.js' });
  });

  it('probes a server and exits 0; a refused one exits with its class', async () => {
    const { stdout } = await npx(['probe', peers.url('/stateful'), '--json']);
    const report = JSON.parse(stdout) as { negotiated: { protocolVersion: string; wire: string } };
    expect(report.negotiated).toMatchObject({
      protocolVersion: '2025-11-25',
      wire: 'streamable-http',
    });
    // Nothing listens on port 1: a refused connection is a network failure, exit 6.
    const refused = await npx(['probe', 'http://127.0.0.1:1/mcp']).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(refused.code).toBe(6);
    expect(refused.stdout).toContain('error (exit 6) Connection "probe"');
  });
});
