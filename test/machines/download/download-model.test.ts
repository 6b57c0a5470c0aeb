import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, fromPromise } from 'xstate';
import { downloadMachine } from '../../../src/machines/download/download.machine.js';
import type { DownloadWriteCommand } from '../../../src/machines/download/download.types.js';
import { checkModel, modelCheckProblems } from '../../support/model-check.js';
import { downloadModelOptions } from '../../support/model-download.js';
import { walkEveryEdge } from '../../support/model-walk.js';

describe('download machine model', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('satisfies the model invariants (no trap, teardown, cleanup, deadlines, delays)', () => {
    const report = checkModel(downloadMachine, downloadModelOptions);
    expect(modelCheckProblems(report)).toEqual([]);
    expect({ states: report.states, edges: report.edges }).toEqual({ states: 10, edges: 15 });
  });

  it('drives the real actor along every edge of the model', async () => {
    let settle: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
    const commands: DownloadWriteCommand[] = [];
    let transfersStopped = 0;
    const machine = downloadMachine.provide({
      actors: {
        resolveUrl: fromPromise<unknown, void>(
          () =>
            new Promise((resolve, reject) => {
              settle = { resolve, reject };
            }),
        ),
        // The transfer's reports are the model's events, sent to the machine by the walker.
        transfer: fromCallback<DownloadWriteCommand, { url: string }>(({ receive }) => {
          receive((command) => commands.push(command));
          return () => {
            transfersStopped += 1;
          };
        }),
      },
    });
    const report = await walkEveryEdge(machine, {
      ...downloadModelOptions,
      beforePath: () => {
        settle = undefined;
        vi.setSystemTime(0);
      },
      executors: {
        'xstate.done.actor.resolveUrl': ({ event }) => {
          settle?.resolve((event as unknown as { output: unknown }).output);
        },
        'xstate.error.actor.resolveUrl': ({ event }) => {
          settle?.reject((event as unknown as { error: unknown }).error);
        },
      },
    });
    console.info(
      `download: walked ${report.walked}/${report.total} edges in ${report.paths} paths`,
    );
    expect(report.failures).toEqual([]);
    expect(report.walked).toBe(report.total);
    expect(report.total).toBe(15);
    // Each of the 5 paths that reached the body told the transfer where to write, with the cap;
    // each of the 11 paths that started a transfer stopped it.
    expect(commands).toEqual(
      Array.from({ length: 5 }, () => ({
        type: 'WRITE',
        path: 'cat.png',
        mediaType: 'image/png',
        maxBytes: 1_000,
      })),
    );
    expect(transfersStopped).toBe(11);
  });
});
