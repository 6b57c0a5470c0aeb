/**
 * What a host observer receives from a run (`runMachine`'s `observe`): one record per change of
 * state, only the labels the run has, the deepest operation, and a run-relative clock.
 */
import { describe, expect, it } from 'vitest';
import { assign, emit, fromCallback, setup } from 'xstate';
import { operationFromMeta, type TransitionRecord } from '../../src/machines/observe.js';
import { runMachine } from '../../src/machines/run-machine.js';

/** Counts two ticks in `counting` (context only, no state change), then finishes in `done`. */
const counter = setup({
  types: {
    context: {} as { count: number },
    events: {} as { type: 'TICK' } | { type: 'FINISH' },
    output: {} as { ok: true },
  },
  actors: {
    ticker: fromCallback(({ sendBack }) => {
      sendBack({ type: 'TICK' });
      sendBack({ type: 'TICK' });
      sendBack({ type: 'FINISH' });
    }),
  },
}).createMachine({
  id: 'counter',
  context: { count: 0 },
  initial: 'counting',
  states: {
    counting: {
      meta: { operation: 'count' },
      invoke: { id: 'ticker', src: 'ticker' },
      on: {
        TICK: {
          actions: [assign({ count: ({ context }) => context.count + 1 }), emit({ type: 'tick' })],
        },
        FINISH: 'done',
      },
    },
    done: { type: 'final' },
  },
  output: { ok: true },
});

async function recordsOf(labels?: Parameters<typeof runMachine>[2]): Promise<TransitionRecord[]> {
  const records: TransitionRecord[] = [];
  await runMachine(counter, {}, { ...labels, observe: (record) => records.push(record) });
  await Promise.resolve();
  return records;
}

describe('transition records', () => {
  it('are one per change of state, and a context-only step makes none', async () => {
    const records = await recordsOf();
    expect(records.map(({ from, to, event }) => ({ from, to, event }))).toEqual([
      { from: '', to: 'counting', event: 'xstate.init' },
      { from: 'counting', to: 'done', event: 'FINISH' },
    ]);
  });

  it('carry only the labels the run has, keys in the documented order', async () => {
    const [bare] = await recordsOf();
    expect(Object.keys(bare ?? {})).toEqual([
      'machine',
      'operation',
      'from',
      'to',
      'event',
      'at',
      'elapsedMs',
    ]);
    const [labelled] = await recordsOf({
      labels: { machine: 'tally', connection: 'petstore', phase: 'call' },
    });
    expect(labelled).toMatchObject({ machine: 'tally', connection: 'petstore', phase: 'call' });
    expect(Object.keys(labelled ?? {})).toEqual([
      'machine',
      'connection',
      'operation',
      'phase',
      'from',
      'to',
      'event',
      'at',
      'elapsedMs',
    ]);
  });

  it('leave the operation out of a record whose state has none', async () => {
    const [, finished] = await recordsOf();
    expect(finished).toMatchObject({ from: 'counting', to: 'done' });
    expect(Object.keys(finished ?? {})).toEqual([
      'machine',
      'from',
      'to',
      'event',
      'at',
      'elapsedMs',
    ]);
  });

  it('time the record from the start of the run', async () => {
    const before = Date.now();
    const [record] = await recordsOf();
    expect(record?.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(record?.elapsedMs).toBeLessThan(5_000);
    expect(record?.at).toBeGreaterThanOrEqual(before);
  });
});

describe('operationFromMeta depth', () => {
  it('counts path segments, not characters', () => {
    expect(
      operationFromMeta({
        'm.a-very-long-state-name': { operation: 'shallow' },
        'm.x.y': { operation: 'deep' },
      }),
    ).toBe('deep');
  });

  it('keeps the first of two states at the same depth, and a deeper one seen first', () => {
    expect(
      operationFromMeta({ 'm.a': { operation: 'first' }, 'm.b': { operation: 'second' } }),
    ).toBe('first');
    expect(
      operationFromMeta({ 'm.a.b': { operation: 'deep' }, 'm.c': { operation: 'shallow' } }),
    ).toBe('deep');
  });
});

describe('runMachine onEmitted', () => {
  it('hands every emitted event to the listener, and a throwing listener changes nothing', async () => {
    const seen: string[] = [];
    await expect(
      runMachine(counter, {}, { onEmitted: (event) => seen.push(event.type) }),
    ).resolves.toEqual({ ok: true });
    expect(seen).toEqual(['tick', 'tick']);
    await expect(
      runMachine(
        counter,
        {},
        {
          onEmitted: () => {
            throw new Error('listener broke');
          },
        },
      ),
    ).resolves.toEqual({ ok: true });
  });
});

describe('runMachine without a result output', () => {
  it.each([
    ['no output', undefined],
    ['null', null],
    ['an object without ok', { done: true }],
    ['ok that is not a boolean', { ok: 'yes' }],
  ])('rejects with a TypeError naming the machine for %s', async (_name, output) => {
    const machine = setup({}).createMachine({
      id: 'odd',
      initial: 'end',
      states: { end: { type: 'final' } },
      output: () => output,
    });
    await expect(runMachine(machine, {})).rejects.toThrow(
      new TypeError('Machine "odd" ended without a result output'),
    );
  });
});
