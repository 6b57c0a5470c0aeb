/**
 * `npm run demo`: stitchkit-transport against embedded servers (`demo-servers.ts`), one lifecycle
 * per step (`demo-steps.ts`), with a live trace of every machine transition, then a summary table
 * (step, wire, outcome, requests, ms). `npm run demo -- --json` prints the records and the
 * summary as JSON lines instead.
 */
import { parseArgs } from 'node:util';
import type { TransitionRecord } from '../connections/index.js';
import { startDemoServers } from './demo-servers.js';
import { demoSteps, mountDemo } from './demo-steps.js';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const json = values.json === true;

/** One row of the summary. */
interface SummaryRow {
  readonly step: number;
  readonly name: string;
  readonly wire: string;
  readonly outcome: string;
  readonly requests: number;
  readonly ms: number;
}

function print(text = ''): void {
  if (!json) process.stdout.write(`${text}\n`);
}

function emit(value: object): void {
  if (json) process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function main(): Promise<void> {
  const servers = await startDemoServers();
  let step = 0;
  const observe = (record: TransitionRecord): void => {
    emit({ type: 'transition', step, ...record });
    if (record.machine === 'specLoad' || record.machine === 'wait') return;
    const from = record.from === '' ? '(start)' : record.from;
    print(
      `    ${record.connection ?? ''} ${record.machine}: ${from} -> ${record.to}  [${record.event}]`,
    );
  };
  try {
    print('== mounting five connections: 2026, 2025 with a token, legacy SSE, OpenAPI');
    const world = await mountDemo(servers, observe);
    print(`   mounted: ${world.runtime.map((tool) => tool.name).join(', ')}`);
    const rows: SummaryRow[] = [];
    for (const [index, demo] of demoSteps(world).entries()) {
      step = index + 1;
      print(`\n== ${step}. ${demo.title}`);
      const requests = servers.requests();
      const started = performance.now();
      const result = await demo.run();
      const row: SummaryRow = {
        step,
        name: demo.name,
        wire: result.wire,
        outcome: result.outcome,
        requests: servers.requests() - requests,
        ms: Math.round(performance.now() - started),
      };
      rows.push(row);
      for (const line of result.lines) print(`   ${line}`);
      print(`   => ${result.outcome}`);
      emit({ type: 'step', ...row, title: demo.title, lines: result.lines });
    }
    print('\n== summary');
    print(table(rows));
  } finally {
    await servers.close();
  }
}

function table(rows: readonly SummaryRow[]): string {
  const cells = [
    ['step', 'wire', 'outcome', 'requests', 'ms'],
    ...rows.map((row) => [
      `${row.step}. ${row.name}`,
      row.wire,
      row.outcome.length > 48 ? `${row.outcome.slice(0, 47)}…` : row.outcome,
      String(row.requests),
      String(row.ms),
    ]),
  ];
  const widths = cells[0]?.map((_, column) =>
    Math.max(...cells.map((line) => (line[column] ?? '').length)),
  );
  return cells
    .map((line) => line.map((cell, column) => cell.padEnd(widths?.[column] ?? 0)).join('  '))
    .join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exitCode = 1;
});
