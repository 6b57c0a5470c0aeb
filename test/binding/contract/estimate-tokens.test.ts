import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  estimateTextTokens,
  estimateTokens,
  MEDIA_BLOCK_TOKENS,
} from '../../../src/binding/contract/estimate-tokens.js';

const CORPUS = resolve(import.meta.dirname, '../../fixtures/token-corpus');
const samples = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.txt'))
  .sort()
  .map((name) => ({ name, text: readFileSync(join(CORPUS, name), 'utf8') }));

/** Each sample's estimate over its o200k count, measured when the rule was set (decision 0043). */
const MEASURED_RATIO: Record<string, number> = {
  'http-log.txt': 1.025,
  'issues.compact.txt': 1.081,
  'issues.pretty.txt': 1.042,
  'lock-records.compact.txt': 0.887,
  'lock-records.pretty.txt': 0.897,
  'manifests.compact.txt': 1.072,
  'manifests.pretty.txt': 1.045,
  'mermaid-readme.zh-cn.md.txt': 0.988,
  'undici-client-h1.js.txt': 1.052,
  'undici-dispatcher.md.txt': 1.109,
  'xstate-types.d.ts.txt': 0.974,
};

describe('estimateTokens against the o200k tokenizer on the corpus', () => {
  const rows = samples.map(({ name, text }) => {
    const o200k = countTokens(text);
    const estimate = estimateTokens(text);
    return { name, chars: text.length, o200k, estimate, ratio: estimate / o200k };
  });
  console.table(rows.map((row) => ({ ...row, error: `${((row.ratio - 1) * 100).toFixed(1)} %` })));

  it('holds the eleven samples the corpus script writes', () => {
    expect(rows.map((row) => row.name)).toEqual(Object.keys(MEASURED_RATIO));
  });

  it.each(rows)('estimates $name within ±25 % and within 0.02 of its measured ratio', (row) => {
    expect(row.ratio).toBeGreaterThanOrEqual(0.75);
    expect(row.ratio).toBeLessThanOrEqual(1.25);
    expect(Math.abs(row.ratio - (MEASURED_RATIO[row.name] ?? Number.NaN))).toBeLessThanOrEqual(
      0.02,
    );
  });

  it('keeps the mean absolute error under 7 % (6.2 % measured)', () => {
    const mean = rows.reduce((sum, row) => sum + Math.abs(row.ratio - 1), 0) / rows.length;
    expect(mean).toBeLessThan(0.07);
  });

  it('counts a JSON value as its compact JSON text', () => {
    const value = JSON.parse(samples.find((s) => s.name === 'issues.pretty.txt')?.text ?? '');
    expect(estimateTokens(value)).toBe(estimateTextTokens(JSON.stringify(value)));
  });
});

describe('estimateTokens by rule', () => {
  it.each([
    ['the empty string', '', 0],
    ['one short word', 'hello', 1],
    ['two words (a single space joins the next word)', 'hello world', 2],
    ['camelCase humps', 'getFooBar', 3],
    ['a long word, one token per 8 letters', 'internationalization', 3],
    ['digits in groups of three', '1234567', 3],
    ['a punctuation run, one token per 3', '":"},{"', 3],
    ['a line break with its indentation', '\n    ', 1],
    ['wide characters, one each', '图表创建', 4],
    ['narrow non-ASCII, half each (rounded up)', 'éé', 1],
    ['undefined', undefined, 0],
    ['a number (its JSON)', 12345, 2],
  ])('counts %s', (_label, value, tokens) => {
    expect(estimateTokens(value)).toBe(tokens);
  });

  it('counts a CallToolResult as its blocks, a media block by the stated rule, plus structuredContent', () => {
    const result = {
      content: [
        { type: 'text' as const, text: 'hello world' },
        { type: 'image' as const, data: 'A'.repeat(100_000), mimeType: 'image/png' },
        { type: 'audio' as const, data: 'AAAA', mimeType: 'audio/wav' },
        {
          type: 'resource' as const,
          resource: { uri: 'file:///a', blob: 'AAAA', mimeType: 'application/pdf' },
        },
      ],
      structuredContent: { ok: true },
      isError: false,
      _meta: { note: 'never shown to the model' },
    };
    expect(estimateTokens(result)).toBe(
      2 + 3 * MEDIA_BLOCK_TOKENS + estimateTextTokens('{"ok":true}'),
    );
  });

  it('counts an embedded text resource as its text and URI, and a resource link as its JSON', () => {
    const link = { type: 'resource_link' as const, uri: 'file:///log.txt', name: 'log' };
    const result = {
      content: [
        { type: 'resource' as const, resource: { uri: 'file:///a', text: 'hello world' } },
        link,
      ],
    };
    expect(estimateTokens(result)).toBe(
      2 + estimateTextTokens('file:///a') + estimateTextTokens(JSON.stringify(link)),
    );
  });

  it('does not throw on a value without JSON (a cycle)', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(estimateTokens(cycle)).toBe(estimateTextTokens('[object Object]'));
  });
});
