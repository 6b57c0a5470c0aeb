/**
 * The byte counter's reports (decision 0016) as a machine sees them: each growth once, never a
 * shrink, nothing after it was closed, and a held total handed on by the next event.
 */
import { describe, expect, it } from 'vitest';
import { bytesReadCounter, readSoFar } from '../../src/machines/bytes-read.js';

function counter() {
  const reports: [number, number][] = [];
  const live = new AbortController();
  const bytes = bytesReadCounter(live.signal, (growth, total) => reports.push([growth, total]));
  return { bytes, reports };
}

describe('bytesReadCounter without an answer', () => {
  it('reports each growth once, and neither a repeat nor a smaller total', () => {
    const { bytes, reports } = counter();
    bytes.onBytes(10);
    bytes.onBytes(10);
    bytes.onBytes(4);
    expect(bytes.bytesRead()).toBe(10);
    bytes.onBytes(25);
    expect(reports).toEqual([
      [10, 10],
      [15, 25],
    ]);
    expect(bytes.bytesRead()).toBe(25);
  });

  it('reports nothing more when asked with nothing new', () => {
    const { bytes, reports } = counter();
    bytes.onBytes(10);
    bytes.reportUnreported();
    expect(reports).toEqual([[10, 10]]);
  });

  it('reports nothing once closed, and says what it had not reported', () => {
    const { bytes, reports } = counter();
    bytes.hold(12);
    expect(bytes.closeUnreported()).toBe(12);
    bytes.onBytes(30);
    bytes.reportUnreported();
    expect(reports).toEqual([]);
  });

  it('never lowers a held total, and hands the held growth to the next event once', () => {
    const { bytes, reports } = counter();
    bytes.hold(20);
    bytes.hold(5);
    expect(bytes.bytesRead()).toBe(20);
    expect(bytes.takeUnreported()).toBe(20);
    expect(bytes.takeUnreported()).toBe(0);
    expect(reports).toEqual([]);
  });
});

describe('readSoFar', () => {
  it.each([
    [{ output: { unreportedBytes: 7 } }, 107],
    [{ output: { unreportedBytes: 0 } }, 100],
    [{ output: { unreportedBytes: -3 } }, 100],
    [{ output: { unreportedBytes: '7' } }, 100],
    [{ output: {} }, 100],
    [{ type: 'xstate.after.DEADLINE' }, 100],
    [undefined, 100],
  ])('adds what %j carries to 100 read', (event, total) => {
    expect(readSoFar({ readBytes: 100 }, event)).toBe(total);
  });
});
