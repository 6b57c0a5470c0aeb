/** The abstracted model of the `download` machine used by its model checks and walks. */
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import type { DownloadHead } from '../../src/machines/download/download.types.js';
import type { ModelOptions } from './model-graph.js';

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

export const downloadModelOptions: ModelOptions = {
  input,
  serializeState: serializeDownloadState,
  eventCases: events,
};
