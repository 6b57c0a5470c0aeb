/**
 * The abstracted model of the `listen` machine for its model checks and walks: the input (a
 * token provider, two failed connects in a row at most), how a snapshot becomes a vertex, the
 * stream's reports as external events, and the harness that walks the model on the real actor
 * (the credential resolver deferred, the stream a callback that never reports by itself).
 */
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { fromCallback } from 'xstate';
import { listenMachine } from '../../src/machines/listen/listen.machine.js';
import type {
  ListenContext,
  ListenInput,
  ListenOutput,
} from '../../src/machines/listen/listen.types.js';
import { SecretValue } from '../../src/machines/secret-value.js';
import {
  ConnectionNetworkError,
  ConnectionProtocolError,
  ConnectionRequestError,
  createHostFence,
  operationScope,
} from '../../src/wire/index.js';
import { deferredActors } from './model-deferred.js';
import type { ModelOptions } from './model-graph.js';
import { describeOutcome } from './model-outcome.js';
import type { WalkHarness } from './model-walk.js';

const URL_OF_MODEL = 'http://127.0.0.1:7000/mcp';
const scope = operationScope('model', 'subscriptions/listen');

/** Changes the modelled machine told its sink, across a walk's paths. */
export const toldChanges: number[] = [];

/** The modelled stream: a token provider, a 5 s first-event deadline, two failures in a row. */
export const listenModelInput: ListenInput = {
  connectionName: 'model',
  wire: 'stateless',
  url: URL_OF_MODEL,
  fence: createHostFence('model', new URL(URL_OF_MODEL)),
  headers: {},
  resolvesToken: true,
  firstEventMs: 5_000,
  debounceMs: 100,
  maxFailures: 2,
  maxFrameBytes: 65_536,
  sink: { changed: () => toldChanges.push(1) },
};

/** How the modelled stream fails: the network, a 405 (no listen route), an empty acknowledgement. */
export const STREAM_FAILURES = {
  refused: {
    type: 'STREAM_FAILED',
    failure: { error: new ConnectionNetworkError({ ...scope, failure: 'refused' }) },
  },
  notAllowed: {
    type: 'STREAM_FAILED',
    failure: {
      error: new ConnectionRequestError({ ...scope, status: 405, body: '' }),
      status: 405,
    },
  },
  unoffered: {
    type: 'STREAM_FAILED',
    failure: {
      error: new ConnectionProtocolError({
        ...scope,
        violation: 'acknowledged subscriptions/listen without tool list changes',
      }),
      unoffered: true,
    },
  },
} as const;

/** Vertex key: the state, the failures in a row, whether it listened before, and the outcome. */
export function serializeListenState(snapshot: AnyMachineSnapshot): string {
  if (snapshot.status === 'done') {
    const output = snapshot.output as ListenOutput;
    // The count of changes told is the walk's path, not a state of the machine.
    const outcome = output.ok ? { ok: true, offered: output.offered } : describeOutcome(output);
    return JSON.stringify({ value: snapshot.value, outcome });
  }
  const context = snapshot.context as ListenContext;
  return JSON.stringify({
    value: snapshot.value,
    failures: context.failures,
    reopened: context.opened > 0,
    session: context.session !== undefined,
  });
}

/** Model options shared by the checks and the walk. */
export const listenModelOptions: ModelOptions & {
  readonly allowWithoutDeadline: readonly string[];
} = {
  input: listenModelInput,
  serializeState: serializeListenState,
  eventCases: {
    'xstate.done.actor.resolveCredentials': [
      { type: 'xstate.done.actor.resolveCredentials', output: undefined },
    ],
    'xstate.error.actor.resolveCredentials': [
      { type: 'xstate.error.actor.resolveCredentials', error: new Error('token provider failed') },
    ],
    OPENED: [{ type: 'OPENED' }],
    CHANGED: [{ type: 'CHANGED' }],
    STREAM_ENDED: [{ type: 'STREAM_ENDED' }],
    STREAM_FAILED: [STREAM_FAILURES.refused, STREAM_FAILURES.notAllowed, STREAM_FAILURES.unoffered],
    CANCEL: [{ type: 'CANCEL', reason: 'catalog closed' }],
  },
  // A listening stream has no deadline of its own: it lasts until it drops or the catalog closes.
  allowWithoutDeadline: ['listen.streaming.listening.quiet'],
};

/**
 * The stream of a 2025-11-25 Streamable HTTP server: each connect opens a session of its own
 * (`SESSION_OPENED`, at any point of `streaming`), which the machine ends with a bounded `DELETE`
 * before it connects again and before it ends.
 */
export const listenSessionModelOptions: typeof listenModelOptions = {
  ...listenModelOptions,
  input: { ...listenModelInput, wire: 'session' },
  eventCases: {
    ...listenModelOptions.eventCases,
    SESSION_OPENED: [
      {
        type: 'SESSION_OPENED',
        session: { sessionId: new SecretValue('s-1'), protocolVersion: '2025-11-25' },
      },
    ],
    'xstate.done.actor.deleteSession': [
      { type: 'xstate.done.actor.deleteSession', output: undefined },
    ],
    'xstate.error.actor.deleteSession': [
      { type: 'xstate.error.actor.deleteSession', error: new Error('network') },
    ],
  },
};

/** The same stream on a connection without a token provider: `credentials` is never entered. */
export const listenTokenlessModelOptions: typeof listenModelOptions = {
  ...listenModelOptions,
  input: { ...listenModelInput, resolvesToken: false },
};

/** The listen machine (or a defective copy) with its resolver deferred and a silent stream. */
export function listenWalkHarness(
  definition: AnyStateMachine = listenMachine,
  modelOptions: typeof listenModelOptions = listenModelOptions,
): WalkHarness {
  const deferred = deferredActors(modelOptions);
  return {
    machine: definition.provide({
      actors: {
        resolveCredentials: deferred.actor,
        deleteSession: deferred.actor,
        listenStream: fromCallback(() => () => undefined),
      },
    } as never),
    options: {
      ...modelOptions,
      beforePath: () => {
        deferred.clear();
        toldChanges.length = 0;
      },
      executors: deferred.executors,
    },
  };
}
