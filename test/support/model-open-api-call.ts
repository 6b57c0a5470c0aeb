/**
 * The abstracted model of the `openApiCall` machine for its model checks and walks: the input, how
 * a snapshot becomes a vertex, the concrete outcomes of its two actors and of the byte reports,
 * and for each actor outcome what the token provider or the wire does to make the real actor
 * report it.
 */
import { vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { makeOpenApiCallActors } from '../../src/machines/open-api-call/open-api-call.actors.js';
import { openApiCallMachine } from '../../src/machines/open-api-call/open-api-call.machine.js';
import type {
  OpenApiCallContext,
  OpenApiCallInput,
  OpenApiCallOutput,
  OpenApiExchange,
} from '../../src/machines/open-api-call/open-api-call.types.js';
import { SecretValue } from '../../src/machines/secret-value.js';
import {
  ConnectionCredentialError,
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

/** The modelled operation's URL; the fence is its host only. */
export const CALL_URL = 'http://127.0.0.1:7200/pets/1?verbose=true';
/** The call's one deadline. */
export const CALL_TIMEOUT_MS = 3_000;
/** The call's byte ceiling. */
export const CALL_MAX_BYTES = 2_048;
/** The token the modelled provider resolves. */
export const MODEL_TOKEN = 'token-1';
/** The bytes one modelled report brings. */
export const REPORTED_BYTES = 512;

/** Input of the modelled call: a GET with a bearer credential, for a principal. */
export const openApiCallModelInput: OpenApiCallInput = {
  connectionName: 'model',
  request: {
    method: 'GET',
    url: CALL_URL,
    headers: { accept: 'application/json' },
    cookies: [],
    credential: { kind: 'authorization', scheme: 'Bearer' },
  },
  fence: createHostFence('model', new URL(CALL_URL)),
  principal: { user: 'u1' },
  limits: { timeoutMs: CALL_TIMEOUT_MS, maxResponseBytes: CALL_MAX_BYTES },
};

/**
 * Vertex key: the state, the bytes reported so far (a deadline reports them), and once final the
 * outcome's facts.
 */
export function serializeOpenApiCallState(snapshot: AnyMachineSnapshot): string {
  if (snapshot.status === 'done') {
    return JSON.stringify({
      value: snapshot.value,
      outcome: describeOutcome(snapshot.output as OpenApiCallOutput),
    });
  }
  // Reports add up; the model tells no report from some (a second one is a self-loop).
  const context = snapshot.context as OpenApiCallContext;
  return JSON.stringify({
    value: snapshot.value,
    readBytes: Math.min(context.readBytes, REPORTED_BYTES),
  });
}

const scope = operationScope('model', 'openapi/call');

/** Each token outcome, and what the provider does for it. */
export const TOKEN_OUTCOMES: readonly {
  readonly event: AnyEventObject;
  /** `resolve`: the provider returns the value; `reject`: it throws the error. */
  readonly provider: { readonly resolve: unknown } | { readonly reject: unknown };
}[] = [
  {
    event: { type: 'xstate.done.actor.resolveCredentials', output: new SecretValue(MODEL_TOKEN) },
    provider: { resolve: MODEL_TOKEN },
  },
  {
    event: { type: 'xstate.done.actor.resolveCredentials', output: undefined },
    provider: { resolve: undefined },
  },
  {
    event: { type: 'xstate.error.actor.resolveCredentials', error: new Error('provider down') },
    provider: { reject: new Error('provider down') },
  },
  {
    event: {
      type: 'xstate.error.actor.resolveCredentials',
      error: new ConnectionCredentialError({ ...scope, problem: 'not-a-string' }),
    },
    provider: { resolve: 42 },
  },
];

const PET = { id: 1, name: 'rex' };

/** Each answer `sendRequest` can report, and the wire answer that produces it. */
export const CALL_ANSWERS: readonly {
  readonly exchange: OpenApiExchange;
  readonly wire: WireAnswer;
}[] = [
  {
    exchange: { kind: 'decoded', status: 200, value: PET },
    wire: answer(200, 'application/json; charset=utf-8', JSON.stringify(PET)),
  },
  { exchange: { kind: 'decoded', status: 204, value: null }, wire: answer(204, null, '') },
  {
    exchange: {
      kind: 'malformed',
      violation: 'answered with a JSON content type but a body that is not JSON',
    },
    wire: answer(200, 'application/json', '{"id": 1,'),
  },
  ...[
    { status: 401, body: 'expired' },
    { status: 403, body: 'denied' },
    { status: 500, body: 'boom' },
  ].map(({ status, body }) => ({
    // A 401's body is cancelled, never read (decision 0041): the exchange carries none.
    exchange: { kind: 'http-error' as const, status, body: status === 401 ? '' : body },
    wire: answer(status, 'text/plain', body),
  })),
];

/** A fault of the socket no code of ours names: the wire types it (`other`), its cause kept. */
const HANG_UP = new Error('socket hang up');

/** Each failure of `sendRequest`, and how the wire causes it (`reject`: the send fails). */
export const CALL_FAILURES: readonly {
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
      refusal: 'refused a redirect (status 307) without a usable location during openapi/call',
      url: CALL_URL,
    }),
    wire: answer(307, null, ''),
  },
  {
    error: new ConnectionResponseTooLargeError({ ...scope, maxBytes: CALL_MAX_BYTES }),
    wire: answer(200, 'application/json', 'x'.repeat(CALL_MAX_BYTES + 1)),
  },
];

const eventCases: Readonly<Record<string, readonly AnyEventObject[]>> = {
  'xstate.done.actor.resolveCredentials': TOKEN_OUTCOMES.filter(({ event }) =>
    event.type.startsWith('xstate.done.'),
  ).map(({ event }) => event),
  'xstate.error.actor.resolveCredentials': TOKEN_OUTCOMES.filter(({ event }) =>
    event.type.startsWith('xstate.error.'),
  ).map(({ event }) => event),
  'xstate.done.actor.sendRequest': CALL_ANSWERS.map(({ exchange }) => ({
    type: 'xstate.done.actor.sendRequest',
    output: exchange,
  })),
  'xstate.error.actor.sendRequest': CALL_FAILURES.map(({ error }) => ({
    type: 'xstate.error.actor.sendRequest',
    error,
  })),
  BYTES_READ: [{ type: 'BYTES_READ', bytes: REPORTED_BYTES }],
  CANCEL: [{ type: 'CANCEL', reason: 'caller stopped' }],
};

/** Model options shared by the checks and the walk. */
export const openApiCallModelOptions: ModelOptions = {
  input: openApiCallModelInput,
  serializeState: serializeOpenApiCallState,
  eventCases,
};

/** The call of a connection without a token provider: no `credentials`, the request at once. */
export const openApiCallTokenlessModelOptions: ModelOptions = {
  ...openApiCallModelOptions,
  input: { ...openApiCallModelInput, resolvesToken: false },
};

/** What the token provider does to make the real `resolveCredentials` take the model's `event`. */
export function providerFor(
  event: AnyEventObject,
): { readonly resolve: unknown } | { readonly reject: unknown } {
  const found = TOKEN_OUTCOMES.find((outcome) =>
    event.type.startsWith('xstate.done.')
      ? outcome.event.type === event.type &&
        (outcome.event.output === undefined) === (event.output === undefined)
      : outcome.event.type === event.type &&
        (outcome.event.error as Error).message === (event.error as Error).message,
  );
  if (found === undefined) throw new Error(`no provider outcome for ${event.type}`);
  return found.provider;
}

/** The wire answer (or failure) that makes the real `sendRequest` take the model's `event`. */
export function callWireFor(event: AnyEventObject): WireAnswer | { readonly reject: unknown } {
  if (event.type === 'xstate.done.actor.sendRequest') {
    const key = JSON.stringify(event.output);
    const found = CALL_ANSWERS.find(({ exchange }) => JSON.stringify(exchange) === key);
    if (found === undefined) throw new Error(`no wire answer for ${key}`);
    return found.wire;
  }
  const { message } = event.error as Error;
  const found = CALL_FAILURES.find(({ error }) => error.message === message);
  if (found === undefined) throw new Error(`no wire failure for ${message}`);
  return found.wire;
}

/**
 * The openApiCall machine (or a defective copy) with a deferred token provider and wire, ready to
 * walk `modelOptions`; the wire it records on, and the principals the provider was asked for.
 */
export function openApiCallWalkHarness(
  definition: AnyStateMachine = openApiCallMachine,
  modelOptions: ModelOptions = openApiCallModelOptions,
): WalkHarness & { readonly wire: DeferredSend; readonly principals: unknown[] } {
  const wire = deferredSend();
  const principals: unknown[] = [];
  let provider: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
  const resolveToken = ({ event }: { event: AnyEventObject }) => {
    const outcome = providerFor(event);
    if (provider === undefined) throw new Error('the token provider was not called');
    if ('reject' in outcome) provider.reject(outcome.reject);
    else provider.resolve(outcome.resolve);
  };
  const answerCall = ({ event }: { event: AnyEventObject }) => {
    const outcome = callWireFor(event);
    if ('reject' in outcome) wire.fail(outcome.reject);
    else wire.answer(outcome);
  };
  return {
    wire,
    principals,
    machine: definition.provide({
      actors: makeOpenApiCallActors({
        resolveToken: (principal) => {
          principals.push(principal);
          return new Promise<string | undefined>((resolve, reject) => {
            provider = { resolve: resolve as (value: unknown) => void, reject };
          });
        },
        send: wire.send,
      }),
    } as never),
    options: {
      ...modelOptions,
      beforePath: () => {
        provider = undefined;
        wire.reset();
        vi.setSystemTime(0);
      },
      executors: {
        'xstate.done.actor.resolveCredentials': resolveToken,
        'xstate.error.actor.resolveCredentials': resolveToken,
        'xstate.done.actor.sendRequest': answerCall,
        'xstate.error.actor.sendRequest': answerCall,
      },
    },
  };
}
