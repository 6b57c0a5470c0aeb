/**
 * An attempt whose call became a task moves the policy's deadline to the task's (decision 0046):
 * the operation then times out at the later deadline, never earlier; an earlier one asked for
 * changes nothing. Fake timers, the real machine and its real attempt actor.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryMachine } from '../../../src/machines/retry/retry.machine.js';
import { runMachine } from '../../../src/machines/run-machine.js';
import { ConnectionTimeoutError } from '../../../src/wire/index.js';

const BUDGET_MS = 10_000;

/** A retry run whose one attempt asks for `deadlineAt` at once and then never ends. */
function runExtended(deadlineAt: number) {
  const signals: AbortSignal[] = [];
  const run = runMachine(retryMachine, {
    connectionName: 'x',
    operation: 'tools/call',
    attempts: 2,
    repeatable: false,
    budgetMs: BUDGET_MS,
    runAttempt: (signal, extend) => {
      signals.push(signal);
      extend(deadlineAt);
      return new Promise<unknown>((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
  });
  const outcome = run.then(
    () => 'resolved',
    (error: unknown) =>
      ConnectionTimeoutError.isInstance(error) ? `timeout ${error.timeoutMs}` : String(error),
  );
  return { outcome, signals };
}

describe('retry, an attempt that asks for a later deadline', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs past the policy deadline, to the one it asked for, and ends there typed', async () => {
    const { outcome, signals } = runExtended(25_000);
    let settled: string | undefined;
    void outcome.then((value) => {
      settled = value;
    });
    await vi.advanceTimersByTimeAsync(BUDGET_MS + 1);
    expect(settled).toBe(undefined);
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    await vi.advanceTimersByTimeAsync(25_000 - BUDGET_MS - 2);
    expect(settled).toBe(undefined);
    await vi.advanceTimersByTimeAsync(2);
    // The timeout names the operation's budget, as every retry timeout does.
    expect(await outcome).toBe(`timeout ${BUDGET_MS}`);
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it('keeps the policy deadline when the one asked for is earlier', async () => {
    const { outcome } = runExtended(5_000);
    await vi.advanceTimersByTimeAsync(BUDGET_MS);
    expect(await outcome).toBe(`timeout ${BUDGET_MS}`);
    expect(Date.now()).toBe(BUDGET_MS);
  });
});
