/**
 * The byte counter of a run's reads (decisions 0016 and 0018): what it reports, when, and what it
 * holds back for the answer or the next event to carry.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bytesReadCounter, readSoFar } from '../../src/machines/bytes-read.js';

type Report = readonly [bytes: number, total: number];

function counter(alreadyRead = 0, answer?: Readable) {
  const reports: Report[] = [];
  const controller = new AbortController();
  const counted = bytesReadCounter(
    controller.signal,
    (bytes, total) => reports.push([bytes, total]),
    alreadyRead,
    answer,
  );
  return { counted, reports, controller };
}

const microtask = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('bytesReadCounter', () => {
  it('without an answer, reports each growth at once, as growth and running total', () => {
    const { counted, reports } = counter(10);
    counted.onBytes(14);
    counted.onBytes(14);
    counted.onBytes(12);
    counted.onBytes(20);
    expect(reports).toEqual([
      [4, 14],
      [6, 20],
    ]);
    expect(counted.bytesRead()).toBe(20);
    expect(counted.closeUnreported()).toBe(0);
  });

  it("with an answer, batches one turn's chunks into one report in a microtask", async () => {
    const body = new Readable({ read() {} });
    const { counted, reports } = counter(0, body);
    counted.onBytes(3);
    counted.onBytes(8);
    expect(reports).toEqual([]);
    await microtask();
    expect(reports).toEqual([[8, 8]]);
  });

  it('with an answer that has ended by then, reports nothing: the answer carries the bytes', async () => {
    const body = new Readable({ read() {} });
    body.push(null);
    body.resume();
    await new Promise((resolve) => body.once('end', resolve));
    const { counted, reports } = counter(0, body);
    counted.onBytes(5);
    await microtask();
    expect(reports).toEqual([]);
    expect(counted.closeUnreported()).toBe(5);
    counted.onBytes(9);
    await microtask();
    expect(reports).toEqual([]);
  });

  it('holds a total for the next event to take, and reports what is left when asked', () => {
    const { counted, reports } = counter();
    counted.hold(6);
    expect(reports).toEqual([]);
    expect(counted.takeUnreported()).toBe(6);
    expect(counted.takeUnreported()).toBe(0);
    counted.hold(10);
    counted.reportUnreported();
    expect(reports).toEqual([[4, 10]]);
  });

  it('reports nothing once its actor is stopped', () => {
    const { counted, reports, controller } = counter();
    controller.abort();
    counted.onBytes(7);
    counted.reportUnreported();
    expect(reports).toEqual([]);
  });
});

describe('readSoFar', () => {
  it.each([
    ['an answer with unreported bytes', { output: { unreportedBytes: 12 } }, 112],
    ['an answer with none', { output: {} }, 100],
    ['a deadline', { type: 'xstate.after.REQUEST_DEADLINE' }, 100],
    ['a negative count', { output: { unreportedBytes: -3 } }, 100],
    ['no event', undefined, 100],
  ])('adds the bytes %s carries', (_label, event, expected) => {
    expect(readSoFar({ readBytes: 100 }, event)).toBe(expected);
  });
});
