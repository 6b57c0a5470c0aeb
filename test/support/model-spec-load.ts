/**
 * The abstracted model of the `specLoad` machine for its model checks and walks: the input, how a
 * snapshot becomes a vertex, the concrete outcomes of the `fetchSpec` actor, and for each of them
 * the wire answer that makes the real actor report it.
 */
import { vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { makeSpecLoadActors } from '../../src/machines/spec-load/spec-load.actors.js';
import { specLoadMachine } from '../../src/machines/spec-load/spec-load.machine.js';
import type {
  SpecExchange,
  SpecLoadInput,
  SpecLoadOutput,
} from '../../src/machines/spec-load/spec-load.types.js';
import {
  ConnectionNetworkError,
  ConnectionResponseTooLargeError,
  ConnectionUrlError,
  createHostFence,
  operationScope,
} from '../../src/wire/index.js';
import { answer, type DeferredSend, deferredSend, type WireAnswer } from './fake-wire.js';
import type { ModelOptions } from './model-graph.js';
import { describeOutcome } from './model-outcome.js';
import type { WalkHarness } from './model-walk.js';

/** The modelled document URL; the fence is its host only. */
export const SPEC_URL = 'http://127.0.0.1:7100/openapi.json';
/** The discovery deadline of the modelled load. */
export const SPEC_TIMEOUT_MS = 5_000;
/** The byte ceiling of the modelled load. */
export const SPEC_MAX_BYTES = 1_024;

/** Input of the modelled load. */
export const specLoadModelInput: SpecLoadInput = {
  connectionName: 'model',
  url: SPEC_URL,
  fence: createHostFence('model', new URL(SPEC_URL)),
  limits: { timeoutMs: SPEC_TIMEOUT_MS, maxResponseBytes: SPEC_MAX_BYTES },
};

/** Vertex key: the state, and once final the outcome's facts. */
export function serializeSpecLoadState(snapshot: AnyMachineSnapshot): string {
  return JSON.stringify({
    value: snapshot.value,
    status: snapshot.status,
    outcome:
      snapshot.status === 'done' ? describeOutcome(snapshot.output as SpecLoadOutput) : undefined,
  });
}

const DOCUMENT = { openapi: '3.0.3', info: { title: 'model', version: '1' }, paths: {} };

/** Each answer the actor can report, and the wire answer that produces it. */
export const SPEC_ANSWERS: readonly {
  readonly exchange: SpecExchange;
  readonly wire: WireAnswer;
}[] = [
  {
    exchange: { kind: 'document', document: DOCUMENT },
    wire: answer(200, 'application/json', JSON.stringify(DOCUMENT)),
  },
  {
    exchange: {
      kind: 'malformed',
      violation: 'served an OpenAPI document in YAML; JSON is required',
    },
    wire: answer(200, 'application/yaml', 'openapi: 3.0.3\n'),
  },
  ...[
    { status: 401, body: 'sign in' },
    { status: 403, body: 'denied' },
    { status: 500, body: 'boom' },
  ].map(({ status, body }) => ({
    exchange: { kind: 'http-error' as const, status, body },
    wire: answer(status, 'text/plain', body),
  })),
];

const scope = operationScope('model', 'openapi/spec');

/** A fault of the socket no code of ours names: the wire types it (`other`), its cause kept. */
const HANG_UP = new Error('socket hang up');

/** Each failure of the actor, and how the wire causes it (`reject`: the send itself fails). */
export const SPEC_FAILURES: readonly {
  readonly error: Error;
  /** The answer, or what the send rejects with (a raw network fault the wire types). */
  readonly wire: WireAnswer | { readonly reject: unknown };
}[] = [
  {
    error: new ConnectionNetworkError({ ...scope, failure: 'other', cause: HANG_UP }),
    wire: { reject: HANG_UP },
  },
  {
    error: new ConnectionUrlError({
      ...scope,
      refusal: 'refused a redirect (status 302) without a usable location during openapi/spec',
      url: SPEC_URL,
    }),
    wire: answer(302, null, ''),
  },
  {
    error: new ConnectionResponseTooLargeError({ ...scope, maxBytes: SPEC_MAX_BYTES }),
    wire: answer(200, 'application/json', 'x'.repeat(SPEC_MAX_BYTES + 1)),
  },
];

const eventCases: Readonly<Record<string, readonly AnyEventObject[]>> = {
  'xstate.done.actor.fetchSpec': SPEC_ANSWERS.map(({ exchange }) => ({
    type: 'xstate.done.actor.fetchSpec',
    output: exchange,
  })),
  'xstate.error.actor.fetchSpec': SPEC_FAILURES.map(({ error }) => ({
    type: 'xstate.error.actor.fetchSpec',
    error,
  })),
  CANCEL: [{ type: 'CANCEL', reason: 'caller stopped' }],
};

/** Model options shared by the checks and the walk. */
export const specLoadModelOptions: ModelOptions = {
  input: specLoadModelInput,
  serializeState: serializeSpecLoadState,
  eventCases,
};

/** The wire answer (or failure) that makes the real `fetchSpec` take the model's `event`. */
export function specWireFor(event: AnyEventObject): WireAnswer | { readonly reject: unknown } {
  if (event.type === 'xstate.done.actor.fetchSpec') {
    const key = JSON.stringify(event.output);
    const found = SPEC_ANSWERS.find(({ exchange }) => JSON.stringify(exchange) === key);
    if (found === undefined) throw new Error(`no wire answer for ${key}`);
    return found.wire;
  }
  const { message } = event.error as Error;
  const found = SPEC_FAILURES.find(({ error }) => error.message === message);
  if (found === undefined) throw new Error(`no wire failure for ${message}`);
  return found.wire;
}

/** The specLoad machine (or a defective copy) on a deferred wire, and the wire it records on. */
export function specLoadWalkHarness(
  definition: AnyStateMachine = specLoadMachine,
): WalkHarness & { readonly wire: DeferredSend } {
  const wire = deferredSend();
  const settle = ({ event }: { event: AnyEventObject }) => {
    const outcome = specWireFor(event);
    if ('reject' in outcome) wire.fail(outcome.reject);
    else wire.answer(outcome);
  };
  return {
    wire,
    machine: definition.provide({ actors: makeSpecLoadActors({ send: wire.send }) } as never),
    options: {
      ...specLoadModelOptions,
      beforePath: () => {
        wire.reset();
        vi.setSystemTime(0);
      },
      executors: {
        'xstate.done.actor.fetchSpec': settle,
        'xstate.error.actor.fetchSpec': settle,
      },
    },
  };
}
