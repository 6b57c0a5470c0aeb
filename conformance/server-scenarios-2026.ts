/**
 * Runs the conformance suite's MCP 2026-07-28 tools server scenarios (0.2.0-alpha.12, on the
 * Node 24 binary `conformance/run.sh` installs) against `conformance/server-2026.ts` directly and
 * through the v2-line gateway in front of it (`conformance/gateway-v2.ts`), and prints one table.
 * Judged check by check (`conformance/checks.ts`): directly, every check passes; through the
 * gateway, every check that passes directly passes too, except the check ids listed in
 * `GATEWAY_EXPECTED`, each with its reason. Exits 1 on any other failing or missing check, and on
 * a listed check that passes. Set CONFORMANCE_VERBOSE to see the runner's output of a scenario
 * that is not as expected.
 * Run it: `node --import tsx conformance/server-scenarios-2026.ts <node24> <conformance-cli>`.
 */
import { defineMcpClientConnection, mountConnections } from '../src/connections/index.js';
import { scoreCell, serverScenarioRunner, unexpectedChecks } from './checks.js';
import { startV2Gateway } from './gateway-v2.js';
import { startServer2026 } from './server-2026.js';

/** The tools scenarios `--requirements 2026-07-28` lists, in the suite's order. */
const SCENARIOS = [
  'server-stateless',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
  'json-schema-2020-12',
  'caching',
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-basic-list-roots',
  'input-required-result-request-state',
  'input-required-result-multiple-input-requests',
  'input-required-result-multi-round',
  'input-required-result-missing-input-response',
  'input-required-result-non-tool-request',
  'input-required-result-result-type',
  'input-required-result-unsupported-methods',
  'input-required-result-tampered-state',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-validate-input',
] as const;

/**
 * The checks the gateway is known not to pass, by scenario and check id, each with its reason.
 * The gateway exposes tools only (no prompts, no resources), and mounts them once.
 */
const GATEWAY_EXPECTED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'server-stateless': {
    'sep-2575-server-sends-prompts-list-changed-on-subscription':
      'skipped: no prompts capability (tools only)',
    'sep-2575-server-sends-tools-list-changed-on-subscription':
      "a warning (SHOULD): the gateway's tools are mounted once, so an upstream's list change is not announced to the gateway's subscribers",
  },
  caching: {
    'sep-2549-prompts-list-caching-hints': 'tools only: prompts/list is -32601',
    'sep-2549-resources-list-caching-hints': 'tools only: resources/list is -32601',
    'sep-2549-resources-templates-list-caching-hints':
      'tools only: resources/templates/list is -32601',
    'sep-2549-resources-read-caching-hints': 'skipped: no resource to read (tools only)',
  },
  'input-required-result-non-tool-request': {
    'sep-2322-non-tool-incomplete': 'tools only: prompts/get is -32601',
    'sep-2322-non-tool-complete': 'not reported: the scenario ends when prompts/get fails',
  },
};

const runOn = serverScenarioRunner('server-scenarios-2026.ts', ['--spec-version', '2026-07-28']);

const upstream = await startServer2026();
const tools = await mountConnections([
  defineMcpClientConnection({
    name: 'upstream',
    transport: { url: upstream.url },
    timeoutMs: 30_000,
  }),
]);
const gateway = await startV2Gateway(tools);
let unexpected = 0;
console.log('| scenario (2026-07-28) | direct | through the gateway |');
console.log('| --- | --- | --- |');
try {
  for (const scenario of SCENARIOS) {
    const direct = await runOn(upstream.url, scenario);
    const relayed = await runOn(gateway.url, scenario);
    const expected = GATEWAY_EXPECTED[scenario] ?? {};
    const differences = [
      ...unexpectedChecks(direct).map((line) => `direct: ${line}`),
      ...unexpectedChecks(relayed, expected, direct).map((line) => `gateway: ${line}`),
    ];
    if (differences.length > 0) {
      unexpected += 1;
      process.stderr.write(`${scenario} is not as expected:\n  ${differences.join('\n  ')}\n`);
      if (process.env.CONFORMANCE_VERBOSE !== undefined) {
        process.stderr.write(
          `--- ${scenario} direct\n${direct.output}\n--- ${scenario} gateway\n${relayed.output}\n`,
        );
      }
    }
    const reasons = Object.entries(expected).map(([id, why]) => `${id}: ${why}`);
    const note = reasons.length === 0 ? '' : ` (expected: ${reasons.join('; ')})`;
    console.log(`| ${scenario} | ${scoreCell(direct)} | ${scoreCell(relayed)}${note} |`);
  }
} finally {
  await gateway.close();
  await upstream.close();
}
console.log(
  unexpected === 0
    ? 'every 2026 scenario is as expected, check by check'
    : `${unexpected} scenario(s) not as expected`,
);
process.exitCode = unexpected === 0 ? 0 : 1;
