/** The abstracted model of the `download` machine used by its model checks and walks. */
import { vi } from 'vitest';
import {
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  fromCallback,
  fromPromise,
} from 'xstate';
import { downloadMachine } from '../../src/machines/download/download.machine.js';
import type {
  DownloadHead,
  DownloadWriteCommand,
} from '../../src/machines/download/download.types.js';
import type { ModelOptions } from './model-graph.js';
import type { WalkHarness } from './model-walk.js';

/** The byte cap of the modelled download. */
export const MAX_BYTES = 1_000;
const input = {
  startedAt: 0,
  maxBytes: MAX_BYTES,
  headerTimeoutMs: 15_000,
  bodyTimeoutMs: 120_000,
};

const head = (status: number, declaredBytes: number | null): DownloadHead => ({
  status,
  declaredBytes,
  mediaType: 'image/png',
  urlPath: '/files/cat.png',
});

/** Vertex key: the state, and for the final state the outcome's code (or `ok`, `cancel`). */
export function serializeDownloadState(snapshot: AnyMachineSnapshot): string {
  if (snapshot.status !== 'done') return JSON.stringify({ value: snapshot.value });
  const output = snapshot.output as { ok: boolean; error?: unknown };
  const error = output.error as { code?: string } | string | undefined;
  const outcome = output.ok ? 'ok' : typeof error === 'string' ? error : (error?.code ?? 'error');
  return JSON.stringify({ value: snapshot.value, outcome });
}

const events: Record<string, readonly AnyEventObject[]> = {
  'xstate.done.actor.resolveUrl': [
    { type: 'xstate.done.actor.resolveUrl', output: 'https://files.example.com/files/cat.png' },
    { type: 'xstate.done.actor.resolveUrl', output: null },
  ],
  'xstate.error.actor.resolveUrl': [
    { type: 'xstate.error.actor.resolveUrl', error: new Error('resolve failed') },
  ],
  HEADERS: [
    { type: 'HEADERS', head: head(200, 3) },
    { type: 'HEADERS', head: head(404, 9) },
    { type: 'HEADERS', head: head(200, MAX_BYTES + 1) },
  ],
  WRITTEN: [{ type: 'WRITTEN', file: { path: 'cat.png', size: 3, mediaType: 'image/png' } }],
  TRANSFER_FAILED: [{ type: 'TRANSFER_FAILED', error: new Error('connection reset') }],
  CANCEL: [{ type: 'CANCEL', reason: 'walk cancelled' }],
};

/** Model options shared by the checks and the walk. */
export const downloadModelOptions: ModelOptions = {
  input,
  serializeState: serializeDownloadState,
  eventCases: events,
};

/**
 * The download machine (or a defective copy) with a deferred `resolveUrl` and a transfer that
 * records what it was told and whether it was stopped; its reports are the model's events, sent
 * by the walker.
 */
export function downloadWalkHarness(definition: AnyStateMachine = downloadMachine): WalkHarness & {
  readonly commands: DownloadWriteCommand[];
  readonly transfersStopped: () => number;
} {
  let settle: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
  const commands: DownloadWriteCommand[] = [];
  let stopped = 0;
  return {
    commands,
    transfersStopped: () => stopped,
    machine: definition.provide({
      actors: {
        resolveUrl: fromPromise<unknown, void>(
          () =>
            new Promise((resolve, reject) => {
              settle = { resolve, reject };
            }),
        ),
        transfer: fromCallback<DownloadWriteCommand, { url: string }>(({ receive }) => {
          receive((command) => commands.push(command));
          return () => {
            stopped += 1;
          };
        }),
      },
    } as never),
    options: {
      ...downloadModelOptions,
      beforePath: () => {
        settle = undefined;
        vi.setSystemTime(0);
      },
      executors: {
        'xstate.done.actor.resolveUrl': ({ event }) => {
          settle?.resolve((event as { output?: unknown }).output);
        },
        'xstate.error.actor.resolveUrl': ({ event }) => {
          settle?.reject((event as { error?: unknown }).error);
        },
      },
    },
  };
}
