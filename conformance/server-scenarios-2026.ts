/**
 * Runs the conformance suite's MCP 2026-07-28 tools server scenarios (0.2.0-alpha.12, on the
 * Node 24 binary `conformance/run.sh` installs) against `conformance/server-2026.ts` directly and
 * through the v2-line gateway in front of it (`conformance/gateway-v2.ts`), and prints one table.
 * A scenario is expected to pass through the gateway exactly as it passes directly, except those
 * listed in `GATEWAY_EXPECTED` with the reason. Exits 1 on any other difference or failure.
 * Run it: `node --import tsx conformance/server-scenarios-2026.ts <node24> <conformance-cli>`.
 */
import { execFile } from 'node:child_process';
import { defineMcpClientConnection, mountConnections } from '../src/connections/index.js';
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

/** Where the gateway is known to differ from the upstream: what it scores, and why. */
const GATEWAY_EXPECTED: Readonly<
  Record<string, { readonly passed: number; readonly total: number; readonly why: string }>
> = {
  // The gateway exposes tools only: no prompts/list, resources/list or resources/templates/list.
  caching: { passed: 4, total: 7, why: 'tools only: no prompt or resource lists' },
  // prompts/get is not relayed (tools only).
  'input-required-result-non-tool-request': { passed: 1, total: 2, why: 'tools only: no prompts' },
};

const [node24, cli] = process.argv.slice(2);
if (node24 === undefined || cli === undefined) {
  throw new Error('usage: server-scenarios-2026.ts <node24> <conformance-cli>');
}

interface Run {
  readonly passed: number;
  readonly total: number;
  readonly output: string;
}

function runScenario(url: string, scenario: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      node24 as string,
      [
        cli as string,
        'server',
        '--url',
        url,
        '--scenario',
        scenario,
        '--spec-version',
        '2026-07-28',
      ],
      { encoding: 'utf8', timeout: 60_000 },
      (_error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        const summary = /Passed: (\d+)\/(\d+)/.exec(output);
        resolve({
          passed: summary === null ? 0 : Number(summary[1]),
          total: summary === null ? 1 : Number(summary[2]),
          output,
        });
      },
    );
  });
}

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
const cell = (run: Run) =>
  `${run.passed === run.total ? 'pass' : 'FAIL'} ${run.passed}/${run.total}`;
console.log('| scenario (2026-07-28) | direct | through the gateway |');
console.log('| --- | --- | --- |');
try {
  for (const scenario of SCENARIOS) {
    const direct = await runScenario(upstream.url, scenario);
    const relayed = await runScenario(gateway.url, scenario);
    const expected = GATEWAY_EXPECTED[scenario];
    const wanted = expected ?? direct;
    // Exactly the expected score: a gateway that gets better or worse is named, too.
    const ok =
      direct.passed === direct.total &&
      relayed.passed === wanted.passed &&
      relayed.total === wanted.total;
    if (!ok) {
      unexpected += 1;
      if (process.env.CONFORMANCE_VERBOSE !== undefined) {
        process.stderr.write(
          `--- ${scenario} direct\n${direct.output}\n--- ${scenario} gateway\n${relayed.output}\n`,
        );
      }
    }
    const note = expected === undefined ? '' : ` (expected: ${expected.why})`;
    console.log(`| ${scenario} | ${cell(direct)} | ${cell(relayed)}${note} |`);
  }
} finally {
  await gateway.close();
  await upstream.close();
}
console.log(
  unexpected === 0
    ? 'every 2026 scenario is as expected'
    : `${unexpected} scenario(s) not as expected`,
);
process.exitCode = unexpected === 0 ? 0 : 1;
