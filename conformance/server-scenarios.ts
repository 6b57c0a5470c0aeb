/**
 * Runs the conformance suite's tools scenarios (server mode, 0.1.13) against the test server
 * directly and through a gateway in front of it, and prints one table. Both run in this process;
 * each scenario is its own `conformance server` run, judged check by check (`conformance/
 * checks.ts`): every check passes on both, and the gateway reports every check the server does.
 * Exits 1 otherwise, naming each check.
 * Run it: `node --import tsx conformance/server-scenarios.ts`.
 */
import { runScenario, type ScenarioRun, scoreCell, unexpectedChecks } from './checks.js';
import { startGateway } from './gateway.js';
import { startConformanceServer } from './server.js';

/** The tools scenarios of the suite, in its own order. */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'json-schema-2020-12',
] as const;

function runOn(url: string, scenario: string): Promise<ScenarioRun> {
  return runScenario('npx', [
    '--no-install',
    'conformance',
    'server',
    '--url',
    url,
    '--scenario',
    scenario,
  ]);
}

const server = await startConformanceServer();
const gateway = await startGateway(server.url);
let failed = 0;
console.log('| scenario | direct | through the gateway |');
console.log('| --- | --- | --- |');
try {
  for (const scenario of SCENARIOS) {
    const direct = await runOn(server.url, scenario);
    const relayed = await runOn(gateway.url, scenario);
    const differences = [
      ...unexpectedChecks(direct).map((line) => `direct: ${line}`),
      ...unexpectedChecks(relayed, {}, direct).map((line) => `gateway: ${line}`),
    ];
    if (differences.length > 0) {
      failed += 1;
      process.stderr.write(`${scenario} is not as expected:\n  ${differences.join('\n  ')}\n`);
    }
    console.log(`| ${scenario} | ${scoreCell(direct)} | ${scoreCell(relayed)} |`);
  }
} finally {
  await gateway.close();
  await server.close();
}
console.log(
  failed === 0
    ? 'all scenarios pass on both, check by check'
    : `${failed} scenario(s) not as expected`,
);
process.exitCode = failed === 0 ? 0 : 1;
