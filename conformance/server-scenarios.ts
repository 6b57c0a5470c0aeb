/**
 * Runs the conformance suite's tools scenarios (server mode, 0.1.13) against the test server
 * directly and through a gateway in front of it, and prints one table. Both run in this process;
 * each scenario is its own `conformance server` run. Exits 1 when any scenario fails on either.
 * Run it: `node --import tsx conformance/server-scenarios.ts`.
 */
import { execFile } from 'node:child_process';
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

/**
 * `passed/total` checks of one scenario run, from the suite's summary line. Asynchronous: the
 * servers under test answer from this process's event loop.
 */
function runScenario(url: string, scenario: string): Promise<{ passed: number; total: number }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['--no-install', 'conformance', 'server', '--url', url, '--scenario', scenario],
      { encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) => {
        const summary = /Passed: (\d+)\/(\d+)/.exec(`${stdout}${stderr}`);
        if (error !== null || summary === null) process.stderr.write(`${stdout}${stderr}`);
        resolve(
          summary === null
            ? { passed: 0, total: 1 }
            : { passed: Number(summary[1]), total: Number(summary[2]) },
        );
      },
    );
  });
}

const server = await startConformanceServer();
const gateway = await startGateway(server.url);
let failed = 0;
console.log('| scenario | direct | through the gateway |');
console.log('| --- | --- | --- |');
try {
  for (const scenario of SCENARIOS) {
    const direct = await runScenario(server.url, scenario);
    const relayed = await runScenario(gateway.url, scenario);
    for (const run of [direct, relayed]) if (run.passed !== run.total) failed += 1;
    const cell = (run: { passed: number; total: number }) =>
      `${run.passed === run.total ? 'pass' : 'FAIL'} ${run.passed}/${run.total}`;
    console.log(`| ${scenario} | ${cell(direct)} | ${cell(relayed)} |`);
  }
} finally {
  await gateway.close();
  await server.close();
}
console.log(failed === 0 ? 'all scenarios pass on both' : `${failed} scenario run(s) failed`);
process.exitCode = failed === 0 ? 0 : 1;
