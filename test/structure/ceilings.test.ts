/**
 * Ceilings on the package's shape (issue 44): the `mcpOperation` chart file stays within 500
 * lines, `./machines` within 35 runtime exports, the root entry within 60 names (values and types,
 * counted from its TypeScript declarations), each documented, and `src/` within two pairs of places
 * that share identical lines. The duplicate checker is tested first, so the last pin cannot pass
 * because the checker sees nothing.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  describePair,
  findDuplicatePairs,
  readSources,
  type SourceText,
} from '../support/duplicate-lines.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CHART = 'src/machines/mcp-operation/mcp-operation.machine.ts';

const MAX_CHART_LINES = 500;
const MAX_MACHINES_VALUES = 35;
const MAX_ROOT_NAMES = 60;
const MAX_DUPLICATE_PAIRS = 2;

/** The root entry's exported names, split into values and types, and those without TSDoc. */
function rootNames(): { values: string[]; types: string[]; undocumented: string[] } {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const file = join(ROOT, 'src/index.ts');
  const program = ts.createProgram([file], { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const entry = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  const names = { values: [] as string[], types: [] as string[], undocumented: [] as string[] };
  for (const exported of entry === undefined ? [] : checker.getExportsOfModule(entry)) {
    const target =
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    (target.flags & ts.SymbolFlags.Value ? names.values : names.types).push(exported.name);
    if (ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '') {
      names.undocumented.push(exported.name);
    }
  }
  return names;
}

/** Numbered lines, as a file would hold them. */
function text(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

const SHARED = [
  'const total = items.length;',
  'let sum = 0;',
  'for (const item of items) sum += item.price;',
  'const mean = sum / total;',
  'log(mean);',
  'return mean;',
];

describe('the duplicate checker', () => {
  it('finds a planted pair, through comments, blank lines, imports and white space', () => {
    const sources: SourceText[] = [
      { path: 'a.ts', text: text('export function a(items) {', ...SHARED, '}') },
      {
        path: 'b.ts',
        text: text(
          "import { log } from './log.js';",
          'export function b(items) {',
          `  ${SHARED[0]}`,
          '',
          '  // a comment the pair does not see',
          `  ${SHARED[1]?.replace(' = ', '   =   ')}`,
          ...SHARED.slice(2).map((line) => `  ${line}`),
          '}',
        ),
      },
    ];
    expect(findDuplicatePairs(sources).map(describePair)).toEqual(['a.ts:2-7 ~ b.ts:3-10']);
  });

  it('merges overlapping windows into one run, counts separate runs, and pairs a file with itself', () => {
    const longer = [...SHARED, 'emit(mean);', 'done();'];
    const other = SHARED.map((line) => line.replace('mean', 'median'));
    const sources: SourceText[] = [
      { path: 'a.ts', text: text(...longer, 'between();', ...other) },
      { path: 'b.ts', text: text(...longer, 'elsewhere();', 'and();', ...other) },
      {
        path: 'c.ts',
        text: text(
          ...SHARED.map((line) => `x${line}`),
          'gap();',
          ...SHARED.map((line) => `x${line}`),
        ),
      },
    ];
    expect(findDuplicatePairs(sources)).toEqual([
      { a: { path: 'a.ts', from: 1, to: 8 }, b: { path: 'b.ts', from: 1, to: 8 }, runs: 2 },
      { a: { path: 'c.ts', from: 1, to: 6 }, b: { path: 'c.ts', from: 8, to: 13 }, runs: 1 },
    ]);
  });

  it('finds nothing in five shared lines, in lone punctuation, or in a window in nine places', () => {
    const five = SHARED.slice(0, 5);
    const common = Array.from({ length: 9 }, (_, index) => ({
      path: `c${index}.ts`,
      text: text(...SHARED),
    }));
    expect(
      findDuplicatePairs([
        { path: 'a.ts', text: text(...five, 'one();') },
        { path: 'b.ts', text: text(...five, 'two();') },
        { path: 'p.ts', text: text('{', '}', '});', '],', ')', '};', '{', '}') },
        { path: 'q.ts', text: text('{', '}', '});', '],', ')', '};', '{', '}') },
        ...common,
      ]),
    ).toEqual([]);
  });
});

describe('the ceilings', () => {
  it(`keeps the mcpOperation chart file within ${MAX_CHART_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, CHART), 'utf8').replace(/\n$/, '').split('\n');
    expect(lines).toContain('export const mcpOperationMachine = mcpOperationSetup.createMachine({');
    expect(lines.length).toBeLessThanOrEqual(MAX_CHART_LINES);
  });

  it(`keeps ./machines within ${MAX_MACHINES_VALUES} runtime exports`, async () => {
    const values = Object.keys(await import('../../src/machines/index.js'));
    expect(values).toContain('mcpOperationMachine');
    expect(values.length).toBeLessThanOrEqual(MAX_MACHINES_VALUES);
  });

  it(`keeps the root entry within ${MAX_ROOT_NAMES} names, types included, each documented`, {
    timeout: 60_000,
  }, () => {
    const { values, types, undocumented } = rootNames();
    expect([
      values.includes('mountConnections'),
      types.includes('McpClientConnectionConfig'),
    ]).toEqual([true, true]);
    expect(values.length + types.length).toBeLessThanOrEqual(MAX_ROOT_NAMES);
    expect(undocumented).toEqual([]);
  });

  it(`keeps src/ within ${MAX_DUPLICATE_PAIRS} pairs of places sharing identical lines`, () => {
    const pairs = findDuplicatePairs(readSources(join(ROOT, 'src'))).map(describePair);
    expect(pairs.length, pairs.join('\n')).toBeLessThanOrEqual(MAX_DUPLICATE_PAIRS);
  });
});
