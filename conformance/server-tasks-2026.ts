/**
 * Runs the conformance suite's tasks server scenarios (0.2.0-alpha.12, the extension
 * `io.modelcontextprotocol/tasks`, SEP-2663; on the Node 24 binary `conformance/run.sh` installs)
 * against our own 2026-07-28 task server (`test/fixtures/task-server-2026.ts`, the server the
 * `mcpTask` end-to-end tests use), and prints one table. Judged check by check
 * (`conformance/checks.ts`): every check passes, except the check ids listed in `EXPECTED`, each
 * with its reason. Exits 1 on any other failing or missing check, and on a listed check that
 * passes. Set CONFORMANCE_VERBOSE to see the runner's output of a scenario that is not as expected.
 *
 * Then the same scenarios through the v2-line gateway (`conformance/gateway-v2.ts`) mounting the
 * task server's tools, which relays the upstream's tasks to a client that declares the extension
 * (decision 0050): each is held to the direct run's checks, its own known differences pinned in
 * `GATEWAY_EXPECTED` with their reasons.
 * Run it: `node --import tsx conformance/server-tasks-2026.ts <node24> <conformance-cli>`.
 */
import { startTaskGateway2026 } from '../test/fixtures/task-gateway-2026.js';
import { type ScenarioRun, scoreCell, serverScenarioRunner, unexpectedChecks } from './checks.js';

/**
 * The suite's tasks server scenarios (extension scenarios: `--suite all` runs them), in its order,
 * each with the ids of the checks it reports, pinned: a check that goes missing or a new one is
 * named, as a failing one is.
 */
const SCENARIOS: Readonly<Record<string, readonly string[]>> = {
  'tasks-lifecycle': [
    'tasks-sync-tool-call',
    'sep-2663-result-type-task-on-create',
    'sep-2663-tasks-get-status-working',
    'sep-2663-tasks-get-status-completed',
    'sep-2663-tool-error-uses-completed-status',
    'sep-2663-tasks-get-status-failed',
    'sep-2663-cancel-ack-empty-result',
    'tasks-cancel-terminal-idempotent-ack',
    'wire-schema-valid',
  ],
  'tasks-capability-negotiation': [
    'tasks-extension-advertised',
    'sep-2663-tasks-methods-non-declaring',
    'sep-2663-server-rejects-undeclared-client',
    'tasks-per-request-meta-opt-in',
    'wire-schema-valid',
  ],
  'tasks-wire-fields': [
    'tasks-wire-field-renames',
    'tasks-no-early-ttl-expiry',
    'tasks-no-related-task-meta-on-inlined-result',
    'wire-schema-valid',
  ],
  'tasks-request-state-removal': [
    'tasks-create-result-no-request-state',
    'tasks-get-detailed-no-request-state',
    'wire-schema-valid',
  ],
  'tasks-mrtr-input': [
    'sep-2663-tasks-get-status-input-required',
    'tasks-mrtr-tasks-update-resumes',
    'tasks-mrtr-partial-fulfillment',
    'wire-schema-valid',
  ],
  'tasks-request-headers': [
    'tasks-headers-tolerate-mcp-method-on-tools-call',
    'sep-2663-routing-headers-accepted-on-tasks-get',
    'tasks-headers-reject-mismatched-method',
    'sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get',
    'wire-schema-valid',
  ],
  'tasks-dispatch-and-envelope': [
    'sep-2663-tasks-result-removed-method-not-found',
    'tasks-removed-tasks-list',
    'tasks-server-directed-creation-no-hint',
    'sep-2663-legacy-task-param-ignored',
    'tasks-immediate-result-shortcut',
    'tasks-result-type-complete-on-non-task-responses',
    'sep-2663-durable-create-strong-consistency',
    'sep-2663-tasks-get-invalid-task-id-32602',
    'wire-schema-valid',
  ],
  'tasks-status-notifications': ['tasks-status-notifications'],
  'tasks-required-task-error': [
    'sep-2663-server-returns-missing-capability-when-required',
    'sep-2663-server-returns-missing-capability-data-shape',
    'wire-schema-valid',
  ],
  'tasks-mrtr-composition': ['sep-2663-mrtr-synchronous-before-task-creation', 'wire-schema-valid'],
};

/** The checks known not to pass, by scenario and check id, each with its reason. */
const EXPECTED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'tasks-status-notifications': {
    'tasks-status-notifications':
      'skipped by the suite itself: its harness still reads the tools/call stream, and SEP-2663 sends notifications/tasks on subscriptions/listen (a rewrite is pending upstream)',
  },
};

/** Each id `run` reports that the pin does not list, and each pinned id it does not report. */
function unpinnedChecks(run: ScenarioRun, pinned: readonly string[]): string[] {
  const reported = new Set(run.checks.map((check) => check.id));
  return [
    ...[...reported]
      .filter((id) => !pinned.includes(id))
      .map((id) => `${id}: reported, not pinned`),
    ...pinned.filter((id) => !reported.has(id)).map((id) => `${id}: pinned, not reported`),
  ];
}

/**
 * The checks the gateway (`conformance/gateway-v2.ts` mounting the task server's tools) is known
 * not to pass where the server itself does, by scenario and check id, each with its reason.
 */
const GATEWAY_EXPECTED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'tasks-required-task-error': {
    'sep-2663-server-returns-missing-capability-when-required':
      "the gateway's tools do not require tasks: for a client that does not declare the extension it drives the upstream's task itself and answers with its result (decision 0050)",
    'sep-2663-server-returns-missing-capability-data-shape':
      'not reported by the suite once the refusal above is not given',
  },
};

const runOn = serverScenarioRunner('server-tasks-2026.ts', ['--suite', 'all']);

/**
 * The differences of one run from its expectations and its pin; empty when it is as expected. A
 * run through the gateway is held to the direct run's checks (`reference`): one it does not report
 * is a difference unless listed.
 */
function differencesOf(
  run: ScenarioRun,
  expected: Readonly<Record<string, string>>,
  pinned: readonly string[],
  reference?: ScenarioRun,
): string[] {
  const pin = unpinnedChecks(run, pinned);
  return [
    ...unexpectedChecks(run, expected, reference),
    ...(reference === undefined
      ? pin
      : pin.filter((line) => line.endsWith('reported, not pinned'))),
  ];
}

function noteOf(expected: Readonly<Record<string, string>>): string {
  const reasons = Object.entries(expected).map(([id, why]) => `${id}: ${why}`);
  return reasons.length === 0 ? '' : ` (expected: ${reasons.join('; ')})`;
}

// The task server, and the v2-line gateway mounting its tools (connection `jobs`) in front of it.
const stack = await startTaskGateway2026();
let unexpected = 0;
console.log('| tasks scenario (2026-07-28) | direct | through the gateway |');
console.log('| --- | --- | --- |');
try {
  for (const [scenario, pinned] of Object.entries(SCENARIOS)) {
    const expected = EXPECTED[scenario] ?? {};
    // What the server fails, the gateway in front of it may fail too; beyond that, only its own.
    const gatewayExpected = { ...expected, ...GATEWAY_EXPECTED[scenario] };
    const direct = await runOn(stack.upstream.url, scenario);
    const runs = [
      ['direct', direct, expected, undefined],
      ['through the gateway', await runOn(stack.gateway.url, scenario), gatewayExpected, direct],
    ] as const;
    for (const [where, run, allowed, reference] of runs) {
      const differences = differencesOf(run, allowed, pinned, reference);
      if (differences.length === 0) continue;
      unexpected += 1;
      process.stderr.write(
        `${scenario} (${where}) is not as expected:\n  ${differences.join('\n  ')}\n`,
      );
      if (process.env.CONFORMANCE_VERBOSE !== undefined) {
        process.stderr.write(`--- ${scenario} (${where})\n${run.output}\n`);
      }
    }
    console.log(
      `| ${scenario} | ${scoreCell(runs[0][1])}${noteOf(expected)} | ${scoreCell(runs[1][1])}${noteOf(GATEWAY_EXPECTED[scenario] ?? {})} |`,
    );
  }
} finally {
  await stack.close();
}
console.log(
  unexpected === 0
    ? 'every tasks scenario is as expected, check by check, directly and through the gateway'
    : `${unexpected} run(s) not as expected`,
);
process.exitCode = unexpected === 0 ? 0 : 1;
