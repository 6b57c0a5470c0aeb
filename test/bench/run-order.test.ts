/**
 * The benchmark's order of alternatives per round (bench/run-order.ts): every block of rounds puts
 * each alternative once in every slot, a seed replays its orders exactly, and `--seed` takes only
 * what it can print back.
 */
import { describe, expect, it } from 'vitest';
import { formatOrders, roundOrders, seedOf } from '../../bench/run-order.js';

/** For each slot of `orders`, the alternatives that ran in it, sorted. */
function slots(orders: readonly (readonly number[])[]): number[][] {
  const size = orders[0]?.length ?? 0;
  return Array.from({ length: size }, (_, slot) =>
    orders.map((order) => order[slot] as number).sort((a, b) => a - b),
  );
}

describe('roundOrders', () => {
  it('replays the same orders from the same seed and label', () => {
    expect(roundOrders(42, 'table', 3, 7)).toEqual([
      [1, 2, 0],
      [2, 0, 1],
      [0, 1, 2],
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ]);
    expect(roundOrders(42, 'table', 3, 7)).toEqual(roundOrders(42, 'table', 3, 7));
  });

  it('draws other orders from another seed or another table', () => {
    expect(roundOrders(43, 'table', 6, 6)).not.toEqual(roundOrders(42, 'table', 6, 6));
    expect(roundOrders(42, 'other', 6, 6)).not.toEqual(roundOrders(42, 'table', 6, 6));
  });

  it.each([1, 2, 3, 4, 6])('runs each of %i alternatives once per round', (size) => {
    const all = Array.from({ length: size }, (_, index) => index);
    for (const order of roundOrders(7, 'table', size, 25)) {
      expect([...order].sort((a, b) => a - b)).toEqual(all);
    }
  });

  it.each([2, 3, 4, 6])(
    'puts each of %i alternatives once in every slot of a block of rounds',
    (size) => {
      const all = Array.from({ length: size }, (_, index) => index);
      const orders = roundOrders(11, 'table', size, size * 4);
      for (let block = 0; block < 4; block++) {
        const blockOrders = orders.slice(block * size, (block + 1) * size);
        expect(slots(blockOrders)).toEqual(all.map(() => all));
      }
    },
  );

  it("changes an alternative's neighbour between blocks", () => {
    // A block rotates one shuffle, so within it the alternative before 0 (cyclically) is fixed;
    // each later block reshuffles.
    const before0 = roundOrders(3, 'table', 6, 60).map((order) => {
      const at = order.indexOf(0);
      return order[(at + order.length - 1) % order.length];
    });
    expect([...new Set(before0)].sort()).toEqual([1, 2, 3, 5]);
  });
});

describe('formatOrders', () => {
  it('numbers the rows from 1 as the table lists them', () => {
    expect(formatOrders(roundOrders(42, 'table', 3, 3))).toBe('2 3 1, 3 1 2, 1 2 3');
  });
});

describe('seedOf', () => {
  it('takes --seed as given', () => {
    expect(seedOf('0')).toBe(0);
    expect(seedOf('1234')).toBe(1234);
    expect(seedOf('2147483647')).toBe(2_147_483_647);
  });

  it.each(['-1', '1.5', 'abc', '', '2147483648'])('refuses --seed %j', (flag) => {
    expect(() => seedOf(flag)).toThrow(/--seed takes an integer from 0 to 2147483647/);
  });

  it('draws a seed that --seed takes back when none is given', () => {
    const seed = seedOf(undefined);
    expect(seedOf(String(seed))).toBe(seed);
  });
});
