/**
 * `npm run demo` stays true: the demo runs end to end on its embedded servers, within 15 s, and
 * each step shows its lifecycle: `--json` prints every transition and every step as JSON lines,
 * and the text run ends with the summary table.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

interface Line {
  readonly type: 'transition' | 'step';
  readonly step: number;
  readonly connection?: string;
  readonly to?: string;
  readonly event?: string;
  readonly name?: string;
  readonly wire?: string;
  readonly outcome?: string;
  readonly requests?: number;
  readonly lines?: readonly string[];
}

const demo = (args: readonly string[] = []) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli/demo.ts', ...args], {
    cwd: ROOT,
    timeout: 15_000,
  });

describe('the demo', () => {
  it('shows every lifecycle, step by step, as JSON lines', async () => {
    const { stdout, stderr } = await demo(['--json']);
    expect(stderr).toBe('');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const steps = lines.filter((line) => line.type === 'step');
    expect(
      steps.map(({ name, wire, outcome, requests }) => [name, wire, outcome, requests]),
    ).toEqual([
      ['stateless call', '2026-07-28', 'customer 42: Ada Lovelace', 1],
      ['fallback to legacy SSE', 'legacy SSE', 'Lisbon: sunny', 5],
      ['401, then a new token', '2025-11-25', '401, then you are ada', 5],
      ['upstream progress', '2026-07-28', 'report ready', 1],
      ['input_required round', '2026-07-28', 'deployed to staging', 2],
      ['deadline', '2026-07-28', 'CONNECTION_TIMEOUT', 1],
      ['caller cancellation', '2026-07-28', 'CANCELLED', 1],
      ['approval', '—', 'deploy asks: true; lookup asks: false', 0],
      ['refused OpenAPI operation', 'OpenAPI', '{"city":"Porto","outlook":"sunny"}', 1],
      ['download', 'guarded GET', 'saved report.txt', 1],
      [
        'result budget',
        '2026-07-28',
        '2,131,483 characters cut to 10,000 tokens; 94 pages read back',
        2,
      ],
      [
        'catalog search',
        'OpenAPI',
        'github__activity_list-watchers-for-repo found first; [{"login":"ada"},{"login":"grace"}]',
        0,
      ],
      ['wait', '—', 'ready after 3 polls', 0],
    ]);
    const entered = (step: number) =>
      lines
        .filter((line) => line.type === 'transition' && line.step === step)
        .map((line) => `${line.to} [${line.event}]`);
    expect(entered(1)).toEqual([
      'stateless.requesting.waiting [xstate.init]',
      'closed [xstate.done.actor.postStatelessRequest]',
    ]);
    expect(entered(2)).toContain('sse.initializing [SSE_ENDPOINT]');
    expect(entered(3)).toContain('closed [xstate.done.actor.postInitialize]');
    expect(entered(5)).toContain(
      'stateless.answeringInput [xstate.done.actor.postStatelessRequest]',
    );
    expect(entered(6)).toContain(
      'closed [xstate.after.REQUEST_DEADLINE.mcpOperation.stateless.requesting.waiting]',
    );
    expect(entered(7)).toContain('closed [CANCEL]');
    expect(steps[2]?.lines?.[0]).toMatch(
      /^challenge: resource_metadata http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/crm, scope crm\.read$/,
    );
    expect(steps[3]?.lines).toEqual(['progress: 1/3 step 1, 2/3 step 2, 3/3 step 3']);
    expect(steps[5]?.lines).toEqual(['the server saw the request end: 1']);
    expect(steps[6]?.lines).toEqual(['the server saw the request end: 1']);
    expect(steps[8]?.lines).toEqual([
      'refused: uploadRadar (non-json-body): POST /radar has a request body that is not application/json',
    ]);
    expect(steps[9]?.lines).toEqual(['content: "quarterly numbers\\n"']);
    const id = /"id":"(r[0-9a-f]{16})"/.exec(steps[10]?.lines?.[1] ?? '')?.[1] ?? '';
    expect(steps[10]?.lines).toEqual([
      'the model sees 23125 characters of JSON (head and tail records) and the marker, about 9,700 tokens:',
      `[Result cut to fit the model's budget of 10,000 tokens: the original is 2,131,483 characters, about 899,133 tokens. Kept: elements 1–151 and 17,554–17,600 of the 17,600 top-level elements (the kept JSON parses). The whole result is kept as stitchkit-results/00.txt: read it page by page with read_result {"id":"${id}"} (an offset in characters starts a page there), or narrow the request.]`,
      `read_result, first page: [Characters 0–23,050 of 2,131,483 of result ${id}. Read on with read_result {"id":"${id}","offset":23050}.]`,
      `read_result, last page: [Characters 2,120,886–2,131,483 of 2,131,483 of result ${id}. This is the end of the result.]`,
      'the pages concatenate to the answer: true',
    ]);
  }, 20_000);

  it('prints the live trace and ends with the summary table', async () => {
    const { stdout } = await demo();
    expect(stdout).toContain(
      '    weather mcpOperation: sse.connecting -> sse.initializing  [SSE_ENDPOINT]',
    );
    const summary = stdout.slice(stdout.indexOf('== summary'));
    expect(summary.split('\n')[1]).toMatch(/^step\s+wire\s+outcome\s+requests\s+ms\s*$/);
    expect(summary).toMatch(/\n13\. wait\s+—\s+ready after 3 polls\s+0\s+\d+/);
  }, 20_000);
});
