import { describe, expect, it } from 'vitest';
import {
  estimateTextTokens,
  estimateTokens,
  MEDIA_BLOCK_TOKENS,
} from '../../../src/binding/contract/estimate-tokens.js';
import {
  budgetResult,
  DEFAULT_RESULT_BUDGET_TOKENS,
  MAX_RESULT_BUDGET_TOKENS,
  MIN_RESULT_BUDGET_TOKENS,
  resultBudgetTokens,
} from '../../../src/binding/contract/result-budget.js';
import type { CallToolResult } from '../../../src/binding/kernel/mcp-types.js';

type Block = CallToolResult['content'][number];

const NEXT =
  'To see what was cut, narrow the request (a filter, a query, a smaller page or limit, fewer fields).]';

/** `n` user records with URLs and 40-character hex hashes, the same on every run. */
function records(n: number) {
  return Array.from({ length: n }, (_, index) => ({
    id: index + 1,
    login: `user-${index + 1}`,
    url: `https://example.org/users/${index + 1}`,
    sha: (((index + 1) * 2654435761) >>> 0).toString(16).padStart(8, '0').repeat(5),
  }));
}

const LINES = `${Array.from(
  { length: 5000 },
  (_, index) => `line ${index + 1}: the request fails when the server closes the stream`,
).join('\n')}\n`;
const lineRange = (from: number, to: number) =>
  `${LINES.split('\n')
    .slice(from - 1, to)
    .join('\n')}\n`;

function texts(result: CallToolResult): string[] {
  return result.content.map((block) => (block.type === 'text' ? block.text : `<${block.type}>`));
}

const image = (data: string): Block => ({ type: 'image', data, mimeType: 'image/png' });

describe('budgetResult within budget', () => {
  it('returns the result itself, unchanged, with no cut report', () => {
    const result: CallToolResult = {
      content: [{ type: 'text', text: 'small' }],
      structuredContent: { small: true },
    };
    const budgeted = budgetResult(result, { maxTokens: 1000 });
    expect(budgeted.result).toBe(result);
    expect(budgeted.cut).toBeUndefined();
  });
});

describe('budgetResult over budget', () => {
  it('keeps the first 47 and the last 15 of 5,000 lines of prose around the marker', () => {
    const { result, cut } = budgetResult(
      { content: [{ type: 'text', text: LINES }] },
      { maxTokens: 1000 },
    );
    const marker =
      "[Result cut to fit the model's budget of 1,000 tokens: the original is 313,893 characters, about 69,001 tokens. Kept: the first 47 and the last 15 of 5,000 lines. " +
      NEXT;
    expect(texts(result)).toEqual([lineRange(1, 47), marker, lineRange(4986, 5000)]);
    expect(cut).toEqual({
      budgetTokens: 1000,
      originalChars: 313_893,
      originalTokens: 69_001,
      keptTokens: 892,
      cutTextBlocks: 1,
      omittedTextBlocks: 0,
      omittedMediaBlocks: 0,
      structuredContent: undefined,
      marker,
    });
  });

  it('cuts text without line ends at spaces', () => {
    const text = 'word '.repeat(20_000);
    const { result } = budgetResult({ content: [{ type: 'text', text }] }, { maxTokens: 600 });
    expect(texts(result)).toEqual([
      'word '.repeat(330),
      "[Result cut to fit the model's budget of 600 tokens: the original is 100,000 characters, about 20,000 tokens. Kept: the first 1,650 and the last 545 of 100,000 characters. " +
        NEXT,
      'word '.repeat(109),
    ]);
  });

  it('cuts a JSON array of 10,000 records at element boundaries, head and tail 3:1, still parsing', () => {
    const all = records(10_000);
    const { result, cut } = budgetResult(
      { content: [{ type: 'text', text: JSON.stringify(all) }] },
      { maxTokens: DEFAULT_RESULT_BUDGET_TOKENS },
    );
    const [json, marker] = texts(result);
    expect(JSON.parse(json ?? '')).toEqual([...all.slice(0, 149), ...all.slice(9952)]);
    expect(marker).toBe(
      "[Result cut to fit the model's budget of 10,000 tokens: the original is 1,196,683 characters, about 509,460 tokens. Kept: elements 1–149 and 9,953–10,000 of the 10,000 top-level elements (the kept JSON parses). " +
        NEXT,
    );
    expect(cut?.keptTokens).toBe(9638);
  });

  it('cuts inside the record holding most of a nested object and keeps its siblings', () => {
    const items = records(2000);
    const text = JSON.stringify({ total: 10_000, items }, null, 2);
    const { result } = budgetResult({ content: [{ type: 'text', text }] }, { maxTokens: 2000 });
    const [json, marker] = texts(result);
    expect(JSON.parse(json ?? '')).toEqual({
      total: 10_000,
      items: [...items.slice(0, 21), ...items.slice(1993)],
    });
    expect(text.startsWith(json?.slice(0, 400) ?? '-')).toBe(true);
    expect(marker).toBe(
      '[Result cut to fit the model\'s budget of 2,000 tokens: the original is 320,716 characters, about 127,565 tokens. Kept: elements 1–21 and 1,994–2,000 of the 2,000 elements of "items" (the kept JSON parses). ' +
        NEXT,
    );
  });

  it('never cuts an image: it is kept whole, and the text beside it is cut', () => {
    const picture = image('iVBORw0KGgo=');
    const { result, cut } = budgetResult(
      { content: [{ type: 'text', text: LINES }, picture] },
      { maxTokens: 3000 },
    );
    expect(result.content[3]).toBe(picture);
    expect(texts(result)).toEqual([
      lineRange(1, 69),
      "[Result cut to fit the model's budget of 3,000 tokens: the original is 313,893 characters, about 70,601 tokens. Kept: the first 69 and the last 22 of 5,000 lines. " +
        NEXT,
      lineRange(4979, 5000),
      '<image>',
    ]);
    expect(cut).toMatchObject({ keptTokens: 2876, omittedMediaBlocks: 0 });
  });

  it('leaves out the non-text blocks that alone exceed the budget, and says so', () => {
    const pictures = [image('AAAA'), image('BBBB'), image('CCCC')];
    const { result, cut } = budgetResult(
      { content: [{ type: 'text', text: 'caption' }, ...pictures] },
      { maxTokens: 2000 },
    );
    expect(result.content[1]).toBe(pictures[0]);
    expect(texts(result)).toEqual([
      'caption',
      '<image>',
      "[Result cut to fit the model's budget of 2,000 tokens: the original is 7 characters, about 4,801 tokens. Left out: 2 non-text blocks (images, audio or resources), which alone exceed the budget. " +
        NEXT,
    ]);
    expect(cut?.keptTokens).toBe(
      1 + MEDIA_BLOCK_TOKENS + estimateTextTokens(texts(result)[2] ?? ''),
    );
  });

  it('drops a structuredContent a text block duplicates, so the model never sees a full and a cut copy', () => {
    const all = records(3000);
    const { result, cut } = budgetResult(
      {
        content: [{ type: 'text', text: JSON.stringify(all) }],
        structuredContent: { result: all },
      },
      { maxTokens: 1000 },
    );
    expect(result.structuredContent).toBeUndefined();
    const [json, marker] = texts(result);
    expect(JSON.parse(json ?? '')).toEqual([...all.slice(0, 13), ...all.slice(2996)]);
    expect(marker).toBe(
      "[Result cut to fit the model's budget of 1,000 tokens: the original is 356,680 characters, about 150,826 tokens. Kept: elements 1–13 and 2,997–3,000 of the 3,000 top-level elements (the kept JSON parses). " +
        NEXT,
    );
    expect(cut?.structuredContent).toBe('dropped-duplicate');
  });

  it('drops the duplicate and cuts nothing when one copy fits', () => {
    const all = records(40);
    const text = JSON.stringify(all);
    const { result, cut } = budgetResult(
      { content: [{ type: 'text', text }], structuredContent: { items: all } },
      { maxTokens: 3000 },
    );
    expect(result).toEqual({ content: [{ type: 'text', text }] });
    expect(cut?.marker).toBeUndefined();
    expect(cut?.structuredContent).toBe('dropped-duplicate');
  });

  it('shows a structuredContent no text carries as its JSON text, cut at record boundaries', () => {
    const all = records(3000);
    const { result, cut } = budgetResult(
      { content: [{ type: 'text', text: 'Found 3000 users.' }], structuredContent: { users: all } },
      { maxTokens: 1000 },
    );
    expect(result.structuredContent).toBeUndefined();
    expect(cut?.structuredContent).toBe('moved-to-text');
    const [summary, json, marker] = texts(result);
    expect(summary).toBe('Found 3000 users.');
    expect(JSON.parse(json ?? '')).toEqual({ users: [...all.slice(0, 13), ...all.slice(2996)] });
    expect(marker).toBe(
      '[Result cut to fit the model\'s budget of 1,000 tokens: the original is 356,707 characters, about 150,835 tokens. Kept: text block 2: elements 1–13 and 2,997–3,000 of the 3,000 elements of "users" (the kept JSON parses). The structured content is shown as its JSON text. ' +
        NEXT,
    );
  });

  it('keeps isError and _meta', () => {
    const { result } = budgetResult(
      { content: [{ type: 'text', text: LINES }], isError: true, _meta: { trace: 'abc' } },
      { maxTokens: 1000 },
    );
    expect(result.isError).toBe(true);
    expect(result._meta).toEqual({ trace: 'abc' });
  });

  it('keeps the head of the first text block and the tail of the last, leaving those between out', () => {
    const block = (text: string): Block => ({ type: 'text', text });
    const { result, cut } = budgetResult(
      { content: [block(LINES), block(LINES), block(LINES)] },
      { maxTokens: 1000 },
    );
    expect(texts(result)).toEqual([
      lineRange(1, 47),
      "[Result cut to fit the model's budget of 1,000 tokens: the original is 941,679 characters, about 207,003 tokens. Kept: text block 1: the first 47 of 5,000 lines; text block 3: the last 15 of 5,000 lines. Left out: 1 text blocks. " +
        NEXT,
      lineRange(4986, 5000),
    ]);
    expect(cut).toMatchObject({ cutTextBlocks: 2, omittedTextBlocks: 1 });
  });

  it('clamps a budget below the floor up to MIN_RESULT_BUDGET_TOKENS', () => {
    const { cut } = budgetResult({ content: [{ type: 'text', text: LINES }] }, { maxTokens: 10 });
    expect(cut?.budgetTokens).toBe(MIN_RESULT_BUDGET_TOKENS);
    expect(cut?.keptTokens).toBeLessThanOrEqual(MIN_RESULT_BUDGET_TOKENS);
  });
});

describe('budgetResult on JSON whose one string is over the budget', () => {
  it('cuts the JSON text as prose and says the fragment does not parse', () => {
    const text = JSON.stringify({ path: 'app.log', text: LINES });
    const { result, cut } = budgetResult(
      { content: [{ type: 'text', text }] },
      { maxTokens: 1000 },
    );
    const [head, marker, tail] = texts(result);
    expect(`${head}${tail}`.length).toBeGreaterThan(2000);
    expect(text.startsWith(head ?? '-')).toBe(true);
    expect(text.endsWith(tail ?? '-')).toBe(true);
    expect(marker).toBe(
      "[Result cut to fit the model's budget of 1,000 tokens: the original is 318,921 characters, about 69,012 tokens. Kept: the first 2,905 and the last 970 of 318,921 characters of the JSON text (one string in it is over the budget, so the kept text is a fragment that does not parse). " +
        NEXT,
    );
    expect(cut?.marker).toBe(marker);
    expect(cut?.keptTokens).toBeLessThanOrEqual(1000);
  });
});

describe('budgetResult on a 2 MB JSON answer', () => {
  it('hands the model the default budget: head and tail records, still parsing, and the marker', () => {
    const all = records(17_600);
    const text = JSON.stringify(all);
    const { result, cut } = budgetResult(
      { content: [{ type: 'text', text }], structuredContent: { items: all } },
      { maxTokens: DEFAULT_RESULT_BUDGET_TOKENS },
    );
    console.log(`2 MB answer (${text.length} characters), the marker:\n${cut?.marker}`);
    expect(text.length).toBeGreaterThan(2_000_000);
    const [json, marker] = texts(result);
    const kept = JSON.parse(json ?? '') as unknown[];
    expect(kept).toEqual([...all.slice(0, 151), ...all.slice(17_553)]);
    expect(marker).toBe(cut?.marker);
    expect(cut?.marker).toBe(
      "[Result cut to fit the model's budget of 10,000 tokens: the original is 2,131,483 characters, about 899,133 tokens. Kept: elements 1–151 and 17,554–17,600 of the 17,600 top-level elements (the kept JSON parses). " +
        NEXT,
    );
    expect(estimateTokens(result)).toBe(cut?.keptTokens);
    expect(cut?.keptTokens).toBeLessThanOrEqual(DEFAULT_RESULT_BUDGET_TOKENS);
  });
});

describe('resultBudgetTokens', () => {
  it.each([
    ['no configuration: the default', undefined, undefined, DEFAULT_RESULT_BUDGET_TOKENS],
    ['a configured budget', undefined, 4000, 4000],
    ['a configured budget above the ceiling', undefined, 90_000, MAX_RESULT_BUDGET_TOKENS],
    ['a configured budget below the floor', undefined, 10, MIN_RESULT_BUDGET_TOKENS],
    ['a declared 200,000 characters (at 2 per token)', 200_000, undefined, 100_000],
    ['a declared size above 500,000 characters, capped', 2_000_000, undefined, 250_000],
    ['a declared size below the configured budget (never lowers it)', 1000, 8000, 8000],
    ['a declared size that is not a positive number', -5, undefined, DEFAULT_RESULT_BUDGET_TOKENS],
    ['a declared size that is a string', '90000', undefined, DEFAULT_RESULT_BUDGET_TOKENS],
  ])('gives %s', (_label, declared, configured, tokens) => {
    const tool =
      declared === undefined ? {} : { _meta: { 'anthropic/maxResultSizeChars': declared } };
    expect(resultBudgetTokens(tool, configured)).toBe(tokens);
  });
});
