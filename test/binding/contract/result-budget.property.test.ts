/**
 * budgetResult under generated results and budgets, judged by rules of the test's own: the
 * library's estimate of what the model sees is within the budget, nothing is invented (every
 * kept text is a subsequence of an original text, in order), JSON cuts parse and keep a head
 * and a tail of the original elements, non-text blocks are the very same objects, in order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens, jsonText } from '../../../src/binding/contract/estimate-tokens.js';
import {
  budgetResult,
  MIN_RESULT_BUDGET_TOKENS,
} from '../../../src/binding/contract/result-budget.js';
import type { CallToolResult } from '../../../src/binding/kernel/mcp-types.js';
import { fuzzParameters } from '../../fuzz/fuzz-config.js';

type Block = CallToolResult['content'][number];

/** True when every character of `piece` appears in `source`, in order. */
function isSubsequence(piece: string, source: string): boolean {
  let at = 0;
  for (let index = 0; index < piece.length; index += 1) {
    at = source.indexOf(piece[index] as string, at);
    if (at === -1) return false;
    at += 1;
  }
  return true;
}

const line = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    'the request fails when the server closes the stream',
    '2026-12-04T10:00:00.123Z WARN [http] GET /v1/repos 503 912ms req_id=9f3a1c',
    '通过解析类 Markdown 的文本语法来实现图表的创建和动态修改。',
    '{"not": "json',
    '',
  ),
);
const prose = fc
  .tuple(fc.array(line, { maxLength: 700, size: 'max' }), fc.constantFrom('\n', ' ', ''))
  .map(([lines, joint]) => lines.join(joint));
const jsonArray = fc.tuple(
  fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 300, size: 'max' }),
  fc.constantFrom(undefined, 2),
);
const jsonContainer = fc.oneof(
  jsonArray.map(([items, indent]) => JSON.stringify(items, null, indent)),
  jsonArray.map(([items, indent]) => JSON.stringify({ total: items.length, items }, null, indent)),
  fc
    .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 200,
      size: 'max',
    })
    .map((members) => JSON.stringify(members)),
);
const media = fc.constantFrom<Block[]>(
  [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
  [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }],
  [{ type: 'resource_link', uri: 'file:///report.csv', name: 'report' }],
  [{ type: 'resource', resource: { uri: 'file:///a.pdf', blob: 'JVBERi0=' } }],
);
// Fresh objects per case, so identity checks mean something.
const block: fc.Arbitrary<Block> = fc.oneof(
  prose.map((text): Block => ({ type: 'text', text })),
  jsonContainer.map((text): Block => ({ type: 'text', text })),
  media.map((blocks) => ({ ...(blocks[0] as Block) })),
);
const result: fc.Arbitrary<CallToolResult> = fc.record(
  {
    content: fc.array(block, { maxLength: 5 }),
    structuredContent: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), {
      maxKeys: 40,
    }),
    isError: fc.boolean(),
    _meta: fc.constant({ trace: 'abc' }),
  },
  { requiredKeys: ['content'] },
);
const budget = fc.integer({ min: 0, max: 3000 });

/** Cases of each property that were cut: each property must cut in most of its cases. */
const cuts = { any: 0, array: 0, nested: 0 };

describe('budgetResult, for any result and any budget', () => {
  it('keeps what the model sees within the budget, invents nothing, and never alters a non-text block', () => {
    fc.assert(
      fc.property(result, budget, (input, maxTokens) => {
        const limit = Math.max(MIN_RESULT_BUDGET_TOKENS, maxTokens);
        const { result: output, cut } = budgetResult(input, { maxTokens });
        expect(estimateTokens(output)).toBeLessThanOrEqual(limit);
        if (estimateTokens(input) <= limit) {
          expect(output).toBe(input);
          return;
        }
        cuts.any += 1;
        expect(output.structuredContent).toBeUndefined();
        expect(output.isError).toBe(input.isError);
        expect(output._meta).toBe(input._meta);
        const inputMedia = input.content.filter((b) => b.type !== 'text');
        const outputMedia = output.content.filter((b) => b.type !== 'text');
        let at = 0;
        for (const kept of outputMedia) {
          at = inputMedia.indexOf(kept, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at += 1;
        }
        expect(inputMedia.length - outputMedia.length).toBe(cut?.omittedMediaBlocks);
        const sources = input.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
        if (input.structuredContent !== undefined) sources.push(jsonText(input.structuredContent));
        for (const kept of output.content) {
          if (kept.type !== 'text' || kept.text === cut?.marker) continue;
          expect(sources.some((source) => isSubsequence(kept.text, source))).toBe(true);
        }
      }),
      fuzzParameters(150),
    );
  });

  it('cuts a JSON text to a head and a tail of its records that still parses', () => {
    fc.assert(
      fc.property(jsonArray, budget, ([items, indent], maxTokens) => {
        const text = JSON.stringify(items, null, indent);
        const { result: output } = budgetResult(
          { content: [{ type: 'text', text }] },
          { maxTokens },
        );
        if (output.content.length > 1) cuts.array += 1;
        const [first] = output.content;
        const kept = JSON.parse(first?.type === 'text' ? first.text : '') as unknown[];
        const head = kept.findIndex((item, index) => jsonText(item) !== jsonText(items[index]));
        const headLength = head === -1 ? kept.length : head;
        const tail = kept.slice(headLength);
        expect(tail.map(jsonText)).toEqual(items.slice(items.length - tail.length).map(jsonText));
      }),
      fuzzParameters(100),
    );
  });

  it('cuts a nested JSON object inside its largest record and it still parses', () => {
    fc.assert(
      fc.property(jsonContainer, budget, (text, maxTokens) => {
        const { result: output } = budgetResult(
          { content: [{ type: 'text', text }] },
          { maxTokens },
        );
        if (output.content.length > 1) cuts.nested += 1;
        const [first] = output.content;
        expect(() => JSON.parse(first?.type === 'text' ? first.text : '')).not.toThrow();
      }),
      fuzzParameters(100),
    );
  });

  it('cut in most generated cases (the floors of the three properties above)', () => {
    console.log('cases cut', cuts);
    expect(cuts.any).toBeGreaterThanOrEqual(75);
    expect(cuts.array).toBeGreaterThanOrEqual(50);
    expect(cuts.nested).toBeGreaterThanOrEqual(50);
  });
});
