/**
 * One run of a conformance scenario, read check by check from the `checks.json` the runner writes
 * with `-o <dir>` (both suite versions write it): every check the scenario emitted, its id and its
 * status. A scenario is judged by its check ids, never by its score: the ids that fail are compared
 * with the ids expected to fail, so a new failure and an expected failure that stopped failing are
 * both named.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One check as the runner reports it. */
export interface ConformanceCheck {
  readonly id: string;
  /** `SUCCESS`, `FAILURE`, `WARNING`, `SKIPPED`, or `INFO` (a log line, never scored). */
  readonly status: string;
  readonly errorMessage?: string;
}

/** What one scenario run reported. */
export interface ScenarioRun {
  /** The scored checks (every status but `INFO`), in the runner's order. */
  readonly checks: readonly ConformanceCheck[];
  /**
   * The check ids that did not pass (`FAILURE` and `WARNING`, which the runner's own baseline
   * counts as failures, and `SKIPPED`), each with its first message; `(no checks)` when the run
   * wrote none.
   */
  readonly failing: ReadonlyMap<string, string>;
  /** The runner's own output, for a reader who wants the detail. */
  readonly output: string;
}

/** Runs `command args… -o <tmp>` and reads the checks it wrote; the directory is removed after. */
export async function runScenario(command: string, args: readonly string[]): Promise<ScenarioRun> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-'));
  try {
    const output = await new Promise<string>((resolve) => {
      execFile(
        command,
        [...args, '-o', dir],
        { encoding: 'utf8', timeout: 60_000 },
        (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
      );
    });
    const checks = await readChecks(dir);
    return { checks, failing: failingChecks(checks), output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function readChecks(dir: string): Promise<ConformanceCheck[]> {
  const checks: ConformanceCheck[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const text = await readFile(join(dir, entry.name, 'checks.json'), 'utf8').catch(() => '[]');
    const parsed = JSON.parse(text) as ConformanceCheck[];
    checks.push(...parsed.filter((check) => check.status !== 'INFO'));
  }
  return checks;
}

/** The ids of the checks that did not pass, each with its first message. */
export function failingChecks(checks: readonly ConformanceCheck[]): Map<string, string> {
  const failing = new Map<string, string>();
  if (checks.length === 0) failing.set('(no checks)', 'the run reported no checks');
  for (const check of checks) {
    if (check.status === 'SUCCESS' || failing.has(check.id)) continue;
    failing.set(check.id, `${check.status}: ${check.errorMessage ?? 'no message'}`);
  }
  return failing;
}

/**
 * How a run differs from what is expected of it: each id that does not pass and is not listed in
 * `expected`, each listed id that passes, and (given a `reference` run of the same scenario) each
 * id the reference reported that this run did not, unless listed. Empty when the run is exactly
 * as expected.
 */
export function unexpectedChecks(
  run: ScenarioRun,
  expected: Readonly<Record<string, string>> = {},
  reference?: ScenarioRun,
): string[] {
  const reported = new Set(run.checks.map((check) => check.id));
  const missing = (reference?.checks ?? [])
    .filter((check) => !reported.has(check.id))
    .map((check): [string, string] => [check.id, 'not reported']);
  const notPassing = new Map([...run.failing, ...missing]);
  const found = [...notPassing].flatMap(([id, message]) =>
    id in expected ? [] : [`${id}: ${message}`],
  );
  const stale = Object.keys(expected).flatMap((id) =>
    notPassing.has(id) ? [] : [`${id} is listed as failing, and passes: remove it from the list`],
  );
  return [...found, ...stale];
}

/** `pass 4/4`, or `FAIL 2/4` with the failing ids. */
export function scoreCell(run: ScenarioRun): string {
  const passed = run.checks.filter((check) => check.status === 'SUCCESS').length;
  const score = `${passed}/${run.checks.length}`;
  return run.failing.size === 0
    ? `pass ${score}`
    : `FAIL ${score}: ${[...run.failing.keys()].join(', ')}`;
}

/**
 * The runner of a 2026 server-scenario script: reads the Node 24 binary and the conformance CLI
 * from the script's arguments (`<node24> <conformance-cli>`), and runs one scenario against a URL
 * with the script's own `extra` arguments.
 */
export function serverScenarioRunner(
  script: string,
  extra: readonly string[],
): (url: string, scenario: string) => Promise<ScenarioRun> {
  const [node24, cli] = process.argv.slice(2);
  if (node24 === undefined || cli === undefined) {
    throw new Error(`usage: ${script} <node24> <conformance-cli>`);
  }
  return (url, scenario) =>
    runScenario(node24, [cli, 'server', '--url', url, '--scenario', scenario, ...extra]);
}
