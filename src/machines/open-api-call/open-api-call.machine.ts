/**
 * `openApiCall`: one OpenAPI request (ADR 0180). Resolve the run's credential, send the request
 * (fenced, redirects refused) and read its bounded answer, then close. One deadline covers the
 * whole call, credentials, headers and body included; `CANCEL` leaves every state with the
 * caller's exact reason. Leaving `requesting` aborts the request in flight.
 */
import { assign, setup } from 'xstate';
import { operationScope } from '../../wire/index.js';
import { readSoFar } from '../bytes-read.js';
import {
  challengeOf,
  connectionFailureActions,
  exchangeOf,
  failOnActorError,
  failOnCancel,
  refusedAnswerEdges,
  type With,
} from '../connection-outcomes.js';
import { toCredentials } from '../credentials.js';
import { remainingMs } from '../deadline.js';
import { SecretValue } from '../secret-value.js';
import { makeOpenApiCallActors, sendRequestInput } from './open-api-call.actors.js';
import { openApiCallGuards } from './open-api-call.guards.js';
import type {
  OpenApiCallContext,
  OpenApiCallEvent,
  OpenApiCallInput,
  OpenApiCallOutput,
  OpenApiExchange,
} from './open-api-call.types.js';

type ExchangeDone = With<{ readonly output: OpenApiExchange }>;

// Taken only after the guards that select the other kinds, so the fallback is never used.
const answerOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'decoded'
    ? { status: event.output.status, value: event.output.value }
    : { status: 0, value: undefined };

const CLOSED = '#openApiCall.closed';

/** The one deadline of the call, in every waiting state. */
const callDeadline = {
  CALL_DEADLINE: {
    target: CLOSED,
    actions: {
      type: 'failTimeout',
      params: ({ context }: { readonly context: OpenApiCallContext }) => ({
        timeoutMs: context.limits.timeoutMs,
      }),
    },
  },
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
    // The call's scope; an answer in hand adds what it read unreported.
    ...connectionFailureActions<OpenApiCallContext, OpenApiCallEvent>((context, event) => ({
      ...operationScope(context.connectionName, 'openapi/call'),
      observedReadBytes: readSoFar(context, event),
    })),
    assignToken: assign((_, params: { token: SecretValue | undefined }) => ({
      token: params.token,
    })),
    recordBytesRead: assign(({ context }, params: { bytes: number }) => ({
      readBytes: context.readBytes + params.bytes,
    })),
    succeed: assign((_, params: { status: number; value: unknown }) => ({
      outcome: { ok: true as const, status: params.status, value: params.value },
    })),
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
  // Copied once by a spread, as in every machine: see `mcpOperation`'s context.
  context: ({ input }) => {
    const context: OpenApiCallContext = {
      connectionName: input.connectionName,
      request: input.request,
      fence: input.fence,
      limits: input.limits,
      headers: input.headers,
      trace: input.trace,
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
  on: { CANCEL: failOnCancel('.closed') },
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
        input: ({ context }) => ({
          principal: context.principal,
          scope: operationScope(context.connectionName, 'openapi/call'),
          cookie: context.request.credential.kind === 'cookie',
        }),
        onDone: {
          target: 'requesting',
          actions: {
            type: 'assignToken',
            params: ({ event }) => ({ token: event.output }),
          },
        },
        onError: failOnActorError(CLOSED),
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
          ...refusedAnswerEdges(CLOSED),
          { target: CLOSED, actions: { type: 'succeed', params: answerOf } },
        ],
        onError: failOnActorError(CLOSED),
      },
      on: {
        BYTES_READ: {
          actions: { type: 'recordBytesRead', params: ({ event }) => ({ bytes: event.bytes }) },
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
