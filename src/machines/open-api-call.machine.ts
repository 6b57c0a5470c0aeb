/**
 * `openApiCall`: one OpenAPI request (ADR 0180). Resolve the run's credential, send the request
 * (fenced, redirects refused) and read its bounded answer, then close. One deadline covers the
 * whole call, credentials, headers and body included; `CANCEL` leaves every state with the
 * caller's exact reason. Leaving `requesting` aborts the request in flight.
 */
import { assign, setup } from 'xstate';
import {
  type AuthChallenge,
  ConnectionAuthorizationRequiredError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionTimeoutError,
  type OperationScope,
  operationScope,
} from '../wire/index.js';
import { readSoFar } from './bytes-read.js';
import { toCredentials } from './credentials.js';
import { remainingMs } from './deadline.js';
import { makeOpenApiCallActors, sendRequestInput } from './open-api-call.actors.js';
import { openApiCallGuards } from './open-api-call.guards.js';
import type {
  OpenApiCallContext,
  OpenApiCallEvent,
  OpenApiCallInput,
  OpenApiCallOutput,
  OpenApiExchange,
} from './open-api-call.types.js';
import { SecretValue } from './secret-value.js';

type With<T> = { readonly event: T };
type ExchangeDone = With<{ readonly output: OpenApiExchange }>;

/** The call's scope for its errors; `event`, when it is the answer, adds what it read unreported. */
function scopeOf(context: OpenApiCallContext, event?: unknown): OperationScope {
  return {
    ...operationScope(context.connectionName, 'openapi/call'),
    observedReadBytes: readSoFar(context, event),
  };
}

function failed(error: unknown): { outcome: OpenApiCallOutput } {
  return { outcome: { ok: false, error } };
}

// Param mappers: what each guard and action reads, taken from the event.
const exchangeOf = ({ event }: ExchangeDone) => ({ exchange: event.output });
const errorOf = ({ event }: With<{ readonly error: unknown }>) => ({ error: event.error });
// Each is taken only after the guard that selects its kind, so the fallbacks are never used.
const refusalOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'http-error'
    ? { status: event.output.status, body: event.output.body, challenge: event.output.challenge }
    : { status: 0, body: '', challenge: undefined };
const challengeOf = ({ event }: ExchangeDone) => ({
  challenge: event.output.kind === 'http-error' ? event.output.challenge : undefined,
});
const violationOf = ({ event }: ExchangeDone) => ({
  violation: event.output.kind === 'malformed' ? event.output.violation : '',
});
const answerOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'decoded'
    ? { status: event.output.status, value: event.output.value }
    : { status: 0, value: undefined };

const CLOSED = '#openApiCall.closed';

/** The one deadline of the call, in every waiting state. */
const callDeadline = {
  CALL_DEADLINE: { target: CLOSED, actions: 'failTimeout' },
} as const;

/** `openApiCall`'s setup: every implementation by name. */
export const openApiCallSetup = setup({
  types: {} as {
    context: OpenApiCallContext;
    events: OpenApiCallEvent;
    input: OpenApiCallInput;
    output: OpenApiCallOutput;
  },
  actors: makeOpenApiCallActors(),
  guards: openApiCallGuards,
  delays: {
    CALL_DEADLINE: ({ context }) => remainingMs(context.deadlineAt, Date.now()),
  },
  actions: {
    assignToken: assign((_, params: { token: SecretValue | undefined }) => ({
      token: params.token,
    })),
    recordBytesRead: assign((_, params: { total: number }) => ({ readBytes: params.total })),
    succeed: assign((_, params: { status: number; value: unknown }) => ({
      outcome: { ok: true as const, status: params.status, value: params.value },
    })),
    failUnauthorized: assign(
      ({ context, event }, params: { challenge: AuthChallenge | undefined }) =>
        failed(new ConnectionAuthorizationRequiredError({ ...scopeOf(context, event), ...params })),
    ),
    failHttpStatus: assign(
      (
        { context, event },
        params: { status: number; body: string; challenge: AuthChallenge | undefined },
      ) => failed(new ConnectionRequestError({ ...scopeOf(context, event), ...params })),
    ),
    failProtocol: assign(({ context, event }, params: { violation: string }) =>
      failed(
        new ConnectionProtocolError({ ...scopeOf(context, event), violation: params.violation }),
      ),
    ),
    failTimeout: assign(({ context }) =>
      failed(
        new ConnectionTimeoutError({ ...scopeOf(context), timeoutMs: context.limits.timeoutMs }),
      ),
    ),
    failWithError: assign((_, params: { error: unknown }) => failed(params.error)),
    failCancelled: assign((_, params: { reason: unknown }) => failed(params.reason)),
    // Leaving `requesting` already aborted the request; teardown wipes the token and principal.
    teardown: ({ context }) => {
      context.token?.wipe();
      context.principal?.wipe();
    },
  },
});

/** The `openApiCall` machine. Provide its actors with `makeOpenApiCallActors(deps)`. */
export const openApiCallMachine = openApiCallSetup.createMachine({
  id: 'openApiCall',
  initial: 'starting',
  // A literal copied once by a spread, as in `mcpOperation`: every later `assign` copy then takes
  // V8's clone fast path.
  context: ({ input }) => {
    const context: OpenApiCallContext = {
      connectionName: input.connectionName,
      request: input.request,
      fence: input.fence,
      limits: input.limits,
      principal: input.principal === undefined ? undefined : new SecretValue(input.principal),
      resolvesToken: input.resolvesToken ?? true,
      token: undefined,
      deadlineAt: Date.now() + input.limits.timeoutMs,
      readBytes: 0,
      outcome: undefined,
    };
    return { ...context };
  },
  // The caller's abort, from any state: the outcome is its exact reason.
  on: {
    CANCEL: {
      target: '.closed',
      actions: { type: 'failCancelled', params: ({ event }) => ({ reason: event.reason }) },
    },
  },
  states: {
    // A connection with a token provider resolves the call's token first; one without sends at
    // once.
    starting: {
      meta: { operation: 'openapi/call' },
      always: [toCredentials, { target: 'requesting' }],
    },
    // Resolve this call's token for its principal; the call's deadline already runs.
    credentials: {
      meta: { operation: 'openapi/call' },
      invoke: {
        id: 'resolveCredentials',
        src: 'resolveCredentials',
        input: ({ context }) => ({ principal: context.principal }),
        onDone: {
          target: 'requesting',
          actions: {
            type: 'assignToken',
            params: ({ event }) => ({ token: event.output }),
          },
        },
        onError: { target: CLOSED, actions: { type: 'failWithError', params: errorOf } },
      },
      after: callDeadline,
    },
    // Send the request with the credential placed, and read its bounded answer.
    requesting: {
      meta: { operation: 'openapi/call' },
      invoke: {
        id: 'sendRequest',
        src: 'sendRequest',
        input: ({ context, self }) => sendRequestInput(context, self),
        onDone: [
          {
            guard: { type: 'isUnauthorized', params: exchangeOf },
            target: CLOSED,
            actions: { type: 'failUnauthorized', params: challengeOf },
          },
          {
            guard: { type: 'isHttpError', params: exchangeOf },
            target: CLOSED,
            actions: { type: 'failHttpStatus', params: refusalOf },
          },
          {
            guard: { type: 'isMalformed', params: exchangeOf },
            target: CLOSED,
            actions: { type: 'failProtocol', params: violationOf },
          },
          { target: CLOSED, actions: { type: 'succeed', params: answerOf } },
        ],
        onError: { target: CLOSED, actions: { type: 'failWithError', params: errorOf } },
      },
      on: {
        BYTES_READ: {
          actions: {
            type: 'recordBytesRead',
            params: ({ event }) => ({ total: event.total }),
          },
        },
      },
      after: callDeadline,
    },
    // Final: teardown wipes the token and the principal.
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('openApiCall reached its final state without an outcome'),
    },
});
