/**
 * The order a table's alternatives run in, round by round. Pure: no I/O, no clock.
 *
 * Run in one fixed order, every alternative always sat in the same slot of a round and always
 * followed the same neighbour, so whatever a slot costs (the previous alternative's garbage
 * collection or compilation still running, its sockets still closing, the server child still
 * busy with its last request) was charged to the same row in every round. Here each block of as
 * many rounds as there are alternatives takes a seeded shuffle of them and rotates it one slot per
 * round: within a block every alternative runs once in every slot, and the neighbours change from
 * one block to the next. The seed is printed at the start of a run; `--seed N` replays the orders.
 */
import { randomInt } from 'node:crypto';

/** Seeds are 31-bit non-negative integers, so that they print and parse back unchanged. */
const SEED_LIMIT = 2 ** 31;

/** `--seed`'s value as a seed; a fresh random one when it is absent. */
export function seedOf(flag: string | undefined): number {
  if (flag === undefined) return randomInt(SEED_LIMIT);
  const seed = Number(flag);
  if (!/^\d+$/.test(flag) || seed >= SEED_LIMIT) {
    throw new Error(`--seed takes an integer from 0 to ${SEED_LIMIT - 1}, not ${flag}`);
  }
  return seed;
}

/** FNV-1a over `text`: a table's own stream from the run's seed and the table's label. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

/** mulberry32: a small seeded generator of uniform integers in `[0, bound)`. */
function generator(seed: number): (bound: number) => number {
  let state = seed >>> 0;
  return (bound) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    const unit = ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
    return Math.floor(unit * bound);
  };
}

/**
 * The order of each of `rounds` rounds of `size` alternatives (indices into the table's list),
 * from the run's `seed` and the table's `label` (a table's orders do not depend on which tables
 * ran before it, so `--only` with the same seed replays a section's orders too). Rounds come in
 * blocks of `size`: a block shuffles the alternatives and rotates the shuffle one slot per round.
 */
export function roundOrders(seed: number, label: string, size: number, rounds: number): number[][] {
  const draw = generator(hash(`${seed}/${label}`));
  const orders: number[][] = [];
  let base: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const slot = round % size;
    if (slot === 0) {
      base = Array.from({ length: size }, (_, index) => index);
      for (let index = size - 1; index > 0; index--) {
        const other = draw(index + 1);
        [base[index], base[other]] = [base[other] as number, base[index] as number];
      }
    }
    orders.push(base.map((_, index) => base[(index + slot) % size] as number));
  }
  return orders;
}

/** The orders as one line, rows numbered from 1 as the table lists them: `2 1 3, 1 3 2, …`. */
export function formatOrders(orders: readonly (readonly number[])[]): string {
  return orders.map((order) => order.map((index) => index + 1).join(' ')).join(', ');
}
