/**
 * The BM25F index catalog search ranks with, on small hand-made documents: a match in a heavier
 * field counts more, a shorter field's match more than a longer one's, a rare term more than a
 * common one, and a concept scores its best term once however many stand-ins it has.
 */
import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../../src/binding/mounts/search-index.js';

const FIELDS = { name: { weight: 3, b: 0.5 }, text: { weight: 1, b: 0.75 } } as const;

function rank(documents: Record<'name' | 'text', string[]>[], concepts: [string, number][][]) {
  const index = buildSearchIndex(documents, FIELDS);
  return index
    .search(
      concepts.map((concept) => concept.map(([term, weight]) => ({ term, weight }))),
      documents.length,
    )
    .map((hit) => hit.index);
}

describe('buildSearchIndex', () => {
  it('ranks a match in the name above the same match in the text', () => {
    const documents = [
      { name: ['list'], text: ['deploy', 'key'] },
      { name: ['deploy'], text: ['list', 'key'] },
    ];
    expect(rank(documents, [[['deploy', 1]]])).toEqual([1, 0]);
  });

  it('ranks a match in a short text above the same match in a long one', () => {
    const documents = [
      { name: [], text: ['key', 'a', 'b', 'c', 'd', 'e', 'f', 'g'] },
      { name: [], text: ['key', 'a'] },
    ];
    expect(rank(documents, [[['key', 1]]])).toEqual([1, 0]);
  });

  it('ranks a document matching a rare term above one matching a common term', () => {
    const documents = [
      { name: ['list', 'branch'], text: [] },
      { name: ['list', 'release'], text: [] },
      { name: ['list', 'tag'], text: [] },
    ];
    expect(rank(documents, [[['list', 1]], [['tag', 1]]])).toEqual([2, 0, 1]);
  });

  it('scores a concept by its best term only, so stand-ins do not add up', () => {
    const documents = [
      { name: ['workflow', 'run', 'job', 'check'], text: [] },
      { name: ['issue'], text: [] },
    ];
    const build: [string, number][] = [
      ['build', 1],
      ['workflow', 0.75],
      ['run', 0.75],
      ['job', 0.75],
      ['check', 0.75],
    ];
    const index = buildSearchIndex(documents, FIELDS);
    const [hit] = index.search([build.map(([term, weight]) => ({ term, weight }))], 1);
    const alone = index.search([[{ term: 'workflow', weight: 0.75 }]], 1)[0];
    expect(hit?.index).toBe(0);
    expect(hit?.score).toBeCloseTo(alone?.score ?? Number.NaN, 10);
  });

  it('answers nothing for a term no document holds, and at most limit hits', () => {
    const documents = [
      { name: ['a'], text: [] },
      { name: ['a'], text: [] },
    ];
    const index = buildSearchIndex(documents, FIELDS);
    expect(index.search([[{ term: 'zzz', weight: 1 }]], 5)).toEqual([]);
    expect(index.search([[{ term: 'a', weight: 1 }]], 1)).toHaveLength(1);
  });
});
