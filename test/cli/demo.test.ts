/**
 * `npm run demo` stays true: the demo runs end to end on its embedded servers and shows each step.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

describe('the demo', () => {
  it('discovers, calls with per-call credentials, falls back to legacy SSE, times out, and waits', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/demo.ts'], {
      cwd: ROOT,
      timeout: 60_000,
    });
    expect(stdout).toContain('weather: 2 tool(s)');
    expect(stdout).toContain('the server saw: "Bearer token-for-ada"');
    expect(stdout).toContain(
      'streamable.requesting.waiting -> closed  [xstate.done.actor.postRequest]',
    );
    expect(stdout).toContain(
      'ok: true; requests: POST /legacy, GET /legacy, POST /messages, POST /messages, POST /messages',
    );
    expect(stdout).toMatch(
      /ConnectionTimeoutError after \d+ ms: \{"operation":"tools\/list","timeoutMs":300\}/,
    );
    expect(stdout).toContain('{"ok":true,"data":{"status":"ready","polls":3}}');
    expect(stdout).toContain('mounted: forecasts__getForecast');
    expect(stdout).toContain(
      'skipped: uploadRadar (non-json-body): POST /upload has a request body that is not application/json',
    );
    expect(stdout).toContain(
      '{"ok":true,"data":{"city":"Porto","days":2,"outlook":"sunny","apiKey":"key-of-ada"}}',
    );
  }, 60_000);
});
