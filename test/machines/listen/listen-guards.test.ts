import { describe, expect, it } from 'vitest';
import { listenGuards } from '../../../src/machines/listen/listen.guards.js';
import {
  isUnofferedAnswer,
  listenOperationOf,
  reconnectDelayMs,
} from '../../../src/machines/listen/listen.policy.js';

const error = new Error('failed');

describe('listen guards', () => {
  it.each([
    [{ error }, false],
    [{ error, status: 404 }, true],
    [{ error, status: 405 }, true],
    [{ error, status: 400 }, false],
    [{ error, status: 503 }, false],
    [{ error, rpcCode: -32601 }, true],
    [{ error, rpcCode: -32602 }, false],
    [{ error, unoffered: true }, true],
  ])('isUnoffered(%j) is %s', (failure, expected) => {
    expect(listenGuards.isUnoffered(undefined, { failure })).toBe(expected);
  });

  it.each([
    [0, 5, true],
    [3, 5, true],
    [4, 5, false],
    [0, 1, false],
  ])('hasFailuresLeft after %i failures of %i is %s', (failures, maxFailures, expected) => {
    expect(listenGuards.hasFailuresLeft(undefined, { failures, maxFailures })).toBe(expected);
  });

  it.each([
    [0, false],
    [1, true],
    [7, true],
  ])('isReopened when opened %i times is %s', (opened, expected) => {
    expect(listenGuards.isReopened(undefined, { opened })).toBe(expected);
  });
});

describe('listen policy', () => {
  it('waits 1 s, then doubles after each failure in a row, at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 40].map(reconnectDelayMs)).toEqual([
      1_000, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('scopes a stream by its wire', () => {
    expect(['stateless', 'session', 'sse'].map((wire) => listenOperationOf(wire as never))).toEqual(
      ['subscriptions/listen', 'standalone-stream', 'endpoint'],
    );
  });

  it('reads 404, 405 and method-not-found as a server with no stream to give', () => {
    expect(isUnofferedAnswer(404, undefined)).toBe(true);
    expect(isUnofferedAnswer(405, undefined)).toBe(true);
    expect(isUnofferedAnswer(200, -32601)).toBe(true);
    expect(isUnofferedAnswer(500, undefined)).toBe(false);
    expect(isUnofferedAnswer(undefined, undefined)).toBe(false);
  });
});
