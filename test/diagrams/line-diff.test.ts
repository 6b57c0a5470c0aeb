/** The line diff the freshness messages print (visualizations/ and the model walks' edge sets). */
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../scripts/line-diff.js';

const lines = (...items: string[]) => items.join('\n');

describe('lineDiff', () => {
  it('is empty when the texts are equal', () => {
    expect(lineDiff(lines('a', 'b'), lines('a', 'b'))).toEqual([]);
  });

  it('shows a changed line as removed then added, with one line of context each side', () => {
    expect(lineDiff(lines('a', 'b', 'c', 'd'), lines('a', 'B', 'c', 'd'))).toEqual([
      '@@ line 1',
      '  a',
      '- b',
      '+ B',
      '  c',
    ]);
  });

  it('starts a new run where changes are more than two lines apart, numbered in the old text', () => {
    expect(
      lineDiff(
        lines('a', 'b', 'c', 'd', 'e', 'f', 'g'),
        lines('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
      ),
    ).toEqual(['@@ line 7', '  g', '+ h']);
    expect(
      lineDiff(lines('1', '2', '3', '4', '5', '6', '7'), lines('0', '2', '3', '4', '5', '6', '8')),
    ).toEqual(['@@ line 1', '- 1', '+ 0', '  2', '@@ line 6', '  6', '- 7', '+ 8']);
  });

  it('keeps the lines both texts share inside a change and marks only the others', () => {
    expect(lineDiff(lines('x', 'a', 'y', 'b', 'z'), lines('x', 'y', 'c', 'z'))).toEqual([
      '@@ line 1',
      '  x',
      '- a',
      '  y',
      '- b',
      '+ c',
      '  z',
    ]);
  });
});
