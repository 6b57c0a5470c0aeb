/**
 * `mcpOperation`: one MCP client for one operation (ADR 0180). Credentials (when the connection
 * has a token provider), then the handshake (Streamable HTTP `initialize`, falling back to legacy
 * HTTP+SSE only on 400/404/405 of that first POST), the best-effort `notifications/initialized`,
 * the request (`tools/list`, page by page, or `tools/call`, resumable once interrupted), and a
 * teardown every path passes through.
 *
 * This file holds the setup (actions and delays) and the chart; the guards are in
 * `mcp-operation.guards.ts`, the actors and their inputs in `mcp-operation.actors.ts`, so a state
 * reads in those three files. Guards and actions take typed params, mapped here at each transition
 * from the event or the context. It is longer than our ~400-line rule on purpose: the chart and
 * the actions it names are one specification, and splitting them would send a reader to a fourth.
 */
import { assign, emit, setup, spawnChild, stopChild } from 'xstate';
import {
  type AuthChallenge,
  ConnectionAuthorizationRequiredError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  LATEST_PROTOCOL_VERSION,
  type OperationScope,
  operationScope,
} from '../../wire/index.js';
import { readSoFar } from '../bytes-read.js';
import { toCredentials } from '../credentials.js';
import { remainingMs } from '../deadline.js';
import { SecretValue } from '../secret-value.js';
import {
  type ByteReporter,
  callerStreamInput,
  deleteSessionInput,
  exchangeInput,
  legacyStreamInput,
  makeMcpOperationActors,
} from './mcp-operation.actors.js';
import { mcpOperationGuards } from './mcp-operation.guards.js';
import {
  cancelledMessage,
  decodeRpcResponse,
  INITIALIZE_ID,
  initializedMessage,
  initializeMessage,
  isCancellableRequest,
  MAX_TOOL_LIST_PAGES,
  mergeToolPages,
  nextCursorOf,
  progressOf,
  REQUEST_ID,
  requestMessage,
  requestResult,
  requestWindowEnd,
  resumeDelayMs,
  SESSION_END_TIMEOUT_MS,
} from './mcp-operation.policy.js';
import type {
  AbandonCause,
  McpOperationContext,
  McpOperationEvent,
  McpOperationInput,
  McpOperationOutput,
  McpProgressEvent,
  McpToolList,
  RpcExchange,
} from './mcp-operation.types.js';

type HandshakeStep = 'initialize' | 'notifications/initialized' | 'endpoint' | 'standalone-stream';
type WithContext = { readonly context: McpOperationContext };
type With<T> = { readonly event: T };
type ExchangeDone = With<{ readonly output: RpcExchange }>;
type Answer = { readonly value: unknown };

/**
 * The scope of the operation in progress, for its errors.
 *
 * The param mappers below write their keys out rather than spread another mapper's result: in
 * Node 20's V8 an object literal that spreads first and adds keys after takes a slow path (about
 * 1.5 µs a key), and these run on every event of a call.
 */
function scopeOf(
  context: McpOperationContext,
  observedReadBytes = context.readBytes,
): OperationScope {
  const { connectionName, operation, phase } = operationScope(
    context.connectionName,
    context.operation,
  );
  return { connectionName, operation, phase, observedReadBytes };
}

function failed(error: unknown): { outcome: McpOperationOutput } {
  return { outcome: { ok: false, error } };
}

// Param mappers: what each guard and action reads, taken from the event or the context.
const exchangeOf = ({ event }: ExchangeDone) => ({ exchange: event.output });
const tokenOf = ({ event }: With<{ readonly output: SecretValue | undefined }>) => ({
  token: event.output,
});
const errorOf = ({ event }: With<{ readonly error: unknown }>) => ({ error: event.error });
const bytesOf = ({ event }: With<{ readonly bytes: number }>) => ({ bytes: event.bytes });
const messageOf = ({ event }: With<{ readonly message: unknown }>) => ({ message: event.message });
const responseOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'response' ? event.output : undefined;
const answerOf = (args: ExchangeDone): Answer => ({ value: responseOf(args)?.value });
const initializedOf = (args: ExchangeDone) => {
  const response = responseOf(args);
  return { value: response?.value, sessionId: response?.sessionId };
};
const legacyAnswerOf = ({ context }: WithContext): Answer => ({
  value: context.legacyAnswer?.ok === true ? context.legacyAnswer.value : undefined,
});
const transportTypeOf = ({ context }: WithContext) => ({ transportType: context.transportType });
const sessionOf = ({ context }: WithContext) => ({ sessionId: context.sessionId });
const abandonedOf = ({ context }: WithContext) => ({ abandoned: context.abandoned });
const legacyDecodedOf = ({ context }: WithContext) => ({ answer: context.legacyAnswer });
const legacyErrorOf = ({ context }: WithContext) => ({
  error: context.legacyAnswer?.ok === false ? context.legacyAnswer.error : undefined,
});
const pageOf = (context: McpOperationContext, { value }: Answer) => ({
  nextCursor: context.request.method === 'tools/list' ? nextCursorOf(value) : undefined,
  page: context.page,
  maxListPages: context.maxListPages,
});
const exchangePageOf = (args: WithContext & ExchangeDone) => pageOf(args.context, answerOf(args));
const legacyPageOf = (args: WithContext) => pageOf(args.context, legacyAnswerOf(args));
// Taken only after `isHttpError`, so the zero status is never reported.
const refusalOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'http-error'
    ? { status: event.output.status, body: event.output.body, challenge: event.output.challenge }
    : { status: 0, body: '', challenge: undefined };
const challengeOf = ({ event }: ExchangeDone) => ({
  challenge: event.output.kind === 'http-error' ? event.output.challenge : undefined,
});

type ProgressReport = { progress: number; total?: number; message?: string };
const progressEventOf = ({ event }: With<ProgressReport>): ProgressReport => ({
  progress: event.progress,
  ...(event.total === undefined ? {} : { total: event.total }),
  ...(event.message === undefined ? {} : { message: event.message }),
});
// Taken only after `isProgressNotice`, so the zero report is never relayed.
const legacyProgressOf = (args: WithContext & With<{ readonly message: unknown }>) =>
  progressOf(args.event.message, args.context.progressToken) ?? { progress: 0 };

const CLOSING = '#mcpOperation.closing';

/** After the cancellation notice: end the session if there is one, else close. */
const afterCancelNotice = [
  {
    guard: {
      type: 'hasSession',
      params: ({ context }: WithContext) => ({ sessionId: context.sessionId }),
    },
    target: 'endingSession',
  },
  { target: 'closed' },
] as const;

/** An actor failure ends the run with that failure as the outcome. */
const failOnError = {
  target: CLOSING,
  actions: { type: 'failWithError', params: errorOf },
} as const;

/** The upstream broke the protocol; `violation` completes `Connection "<name>" …`. */
function failProtocolOn<V extends string>(violation: V) {
  return { target: CLOSING, actions: { type: 'failProtocol', params: { violation } } } as const;
}

/** The next handshake step: its operation, the handshake byte budget, the `initialize` id. */
function beginStep<O extends HandshakeStep>(operation: O) {
  return { type: 'beginHandshakeStep', params: { operation } } as const;
}

/** A refused HTTP exchange: 401 is authorization required; any other status a request error. */
const refusals = [
  {
    guard: { type: 'isUnauthorized', params: exchangeOf },
    target: CLOSING,
    actions: { type: 'failUnauthorized', params: challengeOf },
  },
  {
    guard: { type: 'isHttpError', params: exchangeOf },
    target: CLOSING,
    actions: { type: 'failHttpStatus', params: refusalOf },
  },
] as const;

/** What the request's answer leads to, for the Streamable POST and the resuming GET alike. */
const requestOutcomes = [
  ...refusals,
  {
    guard: { type: 'hasNextPage', params: exchangePageOf },
    target: 'requesting',
    reenter: true,
    actions: { type: 'collectPage', params: answerOf },
  },
  {
    guard: { type: 'hasCursorAtPageLimit', params: exchangePageOf },
    ...failProtocolOn('did not end its MCP tools/list'),
  },
  {
    guard: { type: 'isResponse', params: exchangeOf },
    target: CLOSING,
    actions: { type: 'succeed', params: answerOf },
  },
  {
    guard: {
      type: 'canResume',
      params: ({ context, event }: WithContext & ExchangeDone) => ({
        exchange: event.output,
        resumeAttempts: context.resumeAttempts,
      }),
    },
    target: 'awaitingResume',
    actions: { type: 'assignInterruption', params: ({ event }: ExchangeDone) => event.output },
  },
  failProtocolOn('ended the MCP exchange without a response'),
] as const;

const handshakeDeadline = {
  HANDSHAKE_DEADLINE: {
    target: CLOSING,
    actions: {
      type: 'failTimeout',
      params: ({ context }: WithContext) => ({ timeoutMs: context.limits.handshake.timeoutMs }),
    },
  },
} as const;

const requestDeadline = {
  REQUEST_DEADLINE: {
    target: CLOSING,
    actions: [
      {
        type: 'failTimeout',
        params: ({ context }: WithContext) => ({ timeoutMs: context.limits.request.timeoutMs }),
      },
      { type: 'abandonRequest', params: { cause: 'timeout' } },
    ],
  },
} as const;

const extendsDeadline = {
  type: 'extendsDeadline',
  params: ({ context }: WithContext) => ({
    maxTotalTimeoutMs: context.limits.request.maxTotalTimeoutMs,
  }),
} as const;
const isProgressNotice = {
  type: 'isProgressNotice',
  params: ({ context, event }: WithContext & With<{ readonly message: unknown }>) => ({
    message: event.message,
    progressToken: context.progressToken,
  }),
} as const;

/** Ends the run when the bytes an event brings take the operation past its byte ceiling. */
const overReadBudget = {
  guard: {
    type: 'exceedsReadBudget',
    params: ({ context, event }: WithContext & With<{ readonly bytes: number }>) => ({
      readBytes: context.readBytes,
      bytes: event.bytes,
      maxBytes: context.maxBytes,
    }),
  },
  target: CLOSING,
  actions: { type: 'failTooLarge', params: bytesOf },
} as const;

/** Adds the bytes an event brings to the operation's count. */
const recordBytes = { type: 'recordBytesRead', params: bytesOf } as const;

/** The edges of an event that only brings bytes: over the ceiling it ends the run, else they count. */
const countBytes = [overReadBudget, { actions: recordBytes }] as const;

/** Every chunk counts against the operation's byte ceiling, on either wire. */
const readBudget = { BYTES_READ: countBytes } as const;

/**
 * A legacy stream event carries the bytes read since the stream's last report (decision 0018):
 * each edge that takes one records them after the budget edge, and an event no state takes is
 * still counted here, on `legacy` itself.
 */
const streamBytes = { SSE_ENDPOINT: countBytes, SSE_MESSAGE: countBytes } as const;

/**
 * The request's deadline, in a child state so that progress can restart it without leaving the
 * state that holds the request: each progress report is relayed, and with `maxTotalTimeoutMs` it
 * re-enters `waiting`, whose deadline is then the new window, capped from the request's start.
 */
const streamableWindow = {
  initial: 'waiting',
  states: {
    // The request is out; its answer, its progress or its deadline comes next.
    waiting: {
      after: requestDeadline,
      on: {
        PROGRESS: [
          {
            guard: extendsDeadline,
            target: 'waiting',
            reenter: true,
            actions: [{ type: 'relayProgress', params: progressEventOf }, 'extendDeadline'],
          },
          { actions: { type: 'relayProgress', params: progressEventOf } },
        ],
      },
    },
  },
} as const;

const holdsLegacyAnswer = { type: 'holdsLegacyAnswer', params: legacyDecodedOf } as const;

/**
 * The legacy request's deadline: once its answer is held, the deadline only ends the wait for the
 * POST's own answer, and the call goes on with what the server said. The handshake has no such
 * edge: its deadline bounds the whole handshake, so with it spent `notifications/initialized`
 * could not be sent either, and the handshake times out as before.
 */
const legacyRequestDeadline = {
  REQUEST_DEADLINE: [
    { guard: holdsLegacyAnswer, target: '#mcpOperation.legacy.responseCheck' },
    requestDeadline.REQUEST_DEADLINE,
  ],
} as const;

/** The same window on the legacy stream, where progress arrives as a stream message. */
const legacyWindow = {
  initial: 'waiting',
  states: {
    // The request is out; its answer, its progress or its deadline comes next.
    waiting: {
      after: legacyRequestDeadline,
      on: {
        SSE_MESSAGE: [
          overReadBudget,
          {
            guard: {
              type: 'isDeadlineExtendingNotice',
              params: ({ context, event }: WithContext & With<{ readonly message: unknown }>) => ({
                message: event.message,
                progressToken: context.progressToken,
                maxTotalTimeoutMs: context.limits.request.maxTotalTimeoutMs,
              }),
            },
            target: 'waiting',
            reenter: true,
            actions: [
              recordBytes,
              { type: 'relayProgress', params: legacyProgressOf },
              'extendDeadline',
            ],
          },
          {
            guard: isProgressNotice,
            actions: [recordBytes, { type: 'relayProgress', params: legacyProgressOf }],
          },
        ],
      },
    },
  },
} as const;

/**
 * Where a run goes once its credential is known: from `starting` when there is nothing to resolve,
 * and from `credentials`, whose edges first assign the token. A connection told to speak legacy
 * SSE goes straight to its stream.
 */
const toTheWire = [
  {
    guard: { type: 'isSseOnly', params: transportTypeOf },
    target: 'legacy',
    actions: ['switchToLegacy', beginStep('endpoint')],
  },
  { target: 'streamable', actions: [] },
] as const;

/** After the handshake on Streamable HTTP: hold the standalone stream first when the call relays. */
const afterStreamableHandshake = [
  {
    guard: {
      type: 'relaysToCaller',
      params: ({ context }: WithContext) => ({ capabilities: context.callerCapabilities }),
    },
    target: 'openingCallerStream',
    actions: beginStep('standalone-stream'),
  },
  { target: 'requesting', actions: 'beginRequest' },
] as const;

/** After the handshake on legacy SSE, whose one stream already carries every server request. */
const afterLegacyHandshake = [{ target: 'requesting', actions: 'beginRequest' }] as const;

/**
 * The best-effort `notifications/initialized` POST, on either wire: any HTTP answer or transport
 * error moves on (to the request, or first to the standalone stream); a size failure, the
 * deadline and cancellation do not.
 */
function notifyingState(
  id: 'postInitialized' | 'postLegacyInitialized',
  next: typeof afterStreamableHandshake | typeof afterLegacyHandshake,
) {
  return {
    meta: { operation: 'notifications/initialized' },
    invoke: {
      id,
      src: 'exchange',
      input: ({ context, self }: WithContext & { readonly self: ByteReporter }) =>
        exchangeInput(context, self, { method: 'POST', message: initializedMessage() }),
      onDone: [...next],
      onError: [{ guard: { type: 'isSizeFailure', params: errorOf }, ...failOnError }, ...next],
    },
    after: handshakeDeadline,
  } as const;
}

/** The stream message and where the legacy step stands, for the guards that take its answer. */
const legacyStepOf = ({ context, event }: WithContext & With<{ readonly message: unknown }>) => ({
  message: event.message,
  pendingId: context.pendingId,
  accepted: context.legacyAccepted,
  answer: context.legacyAnswer,
});

/**
 * A legacy POST to the announced endpoint. Its HTTP answer only says whether the message was
 * accepted; the JSON-RPC response arrives on the stream, in either order, and the step waits for
 * both (decision 0019), so no POST is aborted on its way and its connection is kept. The second
 * to arrive moves on to `check`; once the answer is held, the POST's status and its failure lead
 * there too (the server has answered), and so does the request's deadline.
 */
function legacyPostState(
  id: 'postLegacyInitialize' | 'postLegacyRequest',
  message: (context: McpOperationContext) => object,
  check: 'initializeCheck' | 'responseCheck',
) {
  const takeAnswer = [recordBytes, { type: 'assignLegacyAnswer', params: messageOf }] as const;
  return {
    invoke: {
      id,
      src: 'exchange',
      input: ({ context, self }: WithContext & { readonly self: ByteReporter }) =>
        exchangeInput(context, self, { method: 'POST', message: message(context) }),
      onDone: [{ guard: holdsLegacyAnswer, target: check }, ...refusals, { actions: 'acceptPost' }],
      onError: [{ guard: holdsLegacyAnswer, target: check }, failOnError],
    },
    on: {
      SSE_MESSAGE: [
        overReadBudget,
        {
          guard: { type: 'isAcceptedResponse', params: legacyStepOf },
          target: check,
          actions: takeAnswer,
        },
        { guard: { type: 'isEarlyResponse', params: legacyStepOf }, actions: takeAnswer },
      ],
    },
  } as const;
}

/** `mcpOperation`'s setup: every implementation by name (exported for tests that vary the chart). */
export const mcpOperationSetup = setup({
  types: {} as {
    context: McpOperationContext;
    events: McpOperationEvent;
    input: McpOperationInput;
    output: McpOperationOutput;
    emitted: McpProgressEvent;
  },
  actors: makeMcpOperationActors(),
  guards: mcpOperationGuards,
  delays: {
    HANDSHAKE_DEADLINE: ({ context }) => remainingMs(context.handshakeDeadlineAt, Date.now()),
    REQUEST_DEADLINE: ({ context }) => remainingMs(context.requestDeadlineAt, Date.now()),
    RESUME_DELAY: ({ context }) => resumeDelayMs(context.retryMs),
    SESSION_END_DEADLINE: SESSION_END_TIMEOUT_MS,
  },
  actions: {
    assignToken: assign((_, params: { token: SecretValue | undefined }) => ({
      token: params.token,
    })),
    beginHandshakeStep: assign(({ context }, params: { operation: HandshakeStep }) => ({
      operation: params.operation,
      readBytes: 0,
      maxBytes: context.limits.handshake.maxResponseBytes,
      pendingId: INITIALIZE_ID,
      legacyAccepted: false,
    })),
    beginRequest: assign(({ context }) => ({
      operation: context.request.method,
      readBytes: 0,
      maxBytes: context.limits.request.maxResponseBytes,
      requestStartedAt: Date.now(),
      requestDeadlineAt: requestWindowEnd(Date.now(), Date.now(), context.limits.request),
      pendingId: REQUEST_ID,
      legacyAnswer: undefined,
      legacyAccepted: false,
    })),
    // Progress restarts the request's window, never past its cap from the request's start.
    extendDeadline: assign(({ context }) => ({
      requestDeadlineAt: requestWindowEnd(
        context.requestStartedAt,
        Date.now(),
        context.limits.request,
      ),
    })),
    // The next page keeps the byte budget and the deadline of the whole listing.
    collectPage: assign(({ context, event }, params: Answer) => ({
      readBytes: readSoFar(context, event),
      collected: mergeToolPages(context.collected, params.value as McpToolList),
      cursor: nextCursorOf(params.value),
      page: context.page + 1,
      pendingId: context.pendingId + 1,
      legacyAnswer: undefined,
      legacyAccepted: false,
    })),
    recordBytesRead: assign(({ context }, params: { bytes: number }) => ({
      readBytes: context.readBytes + params.bytes,
    })),
    assignInitialized: assign((_, params: Answer & { sessionId: SecretValue | undefined }) => ({
      protocolVersion: (params.value as { protocolVersion?: string } | undefined)?.protocolVersion,
      sessionId: params.sessionId,
    })),
    switchToLegacy: assign({ transport: 'sse' as const }),
    assignEndpoint: assign((_, params: { url: string }) => ({ endpoint: params.url })),
    assignInterruption: assign(({ context, event }, params: RpcExchange) =>
      params.kind === 'interrupted'
        ? {
            readBytes: readSoFar(context, event),
            lastEventId: params.lastEventId,
            retryMs: params.retryMs,
            resumeAttempts: context.resumeAttempts + 1,
          }
        : {},
    ),
    // The endpoint accepted the legacy POST; its answer's bytes count (decision 0019).
    acceptPost: assign(({ context, event }) => ({
      legacyAccepted: true,
      readBytes: readSoFar(context, event),
    })),
    assignLegacyAnswer: assign(({ context }, params: { message: unknown }) => ({
      legacyAnswer: decodeRpcResponse(params.message, context.pendingId, scopeOf(context)),
    })),
    succeed: assign(({ context }, params: Answer) => ({
      outcome: {
        ok: true as const,
        result: requestResult(context.request, context.collected, params.value),
        transport: context.transport,
        protocolVersion: context.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      },
    })),
    failUnauthorized: assign(
      ({ context, event }, params: { challenge: AuthChallenge | undefined }) =>
        failed(
          new ConnectionAuthorizationRequiredError({
            ...scopeOf(context, readSoFar(context, event)),
            ...params,
          }),
        ),
    ),
    failHttpStatus: assign(
      (
        { context, event },
        params: { status: number; body: string; challenge: AuthChallenge | undefined },
      ) =>
        failed(
          new ConnectionRequestError({ ...scopeOf(context, readSoFar(context, event)), ...params }),
        ),
    ),
    failWithError: assign((_, params: { error: unknown }) => failed(params.error)),
    failTimeout: assign(({ context }, params: { timeoutMs: number }) =>
      failed(new ConnectionTimeoutError({ ...scopeOf(context), timeoutMs: params.timeoutMs })),
    ),
    failTooLarge: assign(({ context }, params: { bytes: number }) =>
      failed(
        new ConnectionResponseTooLargeError({
          ...scopeOf(context, context.readBytes + params.bytes),
          maxBytes: context.maxBytes,
        }),
      ),
    ),
    failProtocol: assign(({ context, event }, params: { violation: string }) =>
      failed(
        new ConnectionProtocolError({
          ...scopeOf(context, readSoFar(context, event)),
          violation: params.violation,
        }),
      ),
    ),
    failEndpointOutsideFence: assign(({ context }) =>
      failed(
        new ConnectionUrlError({
          ...scopeOf(context),
          refusal: 'refused an SSE endpoint outside its host fence',
          url: context.endpoint,
        }),
      ),
    ),
    failCancelled: assign((_, params: { reason: unknown }) => failed(params.reason)),
    // The upstream's progress for our request, handed to whoever runs the machine, in order.
    relayProgress: emit((_, params: ProgressReport) => ({ type: 'progress' as const, ...params })),
    // A sent request given up: teardown tells the server (`notifications/cancelled`) when
    // `isCancellableRequest` says the request is still in progress.
    abandonRequest: assign(({ context }, params: { cause: AbandonCause }) => ({
      abandoned: isCancellableRequest(context.operation, context.legacyAnswer !== undefined)
        ? params.cause
        : undefined,
    })),
    // The standalone GET stream of a relaying call; it lives until the outcome is decided.
    openCallerStream: spawnChild('callerStream', {
      id: 'callerStream',
      input: ({ context }) => callerStreamInput(context),
    }),
    closeCallerStream: stopChild('callerStream'),
    // Leaving each state already aborted its requests and stopped its stream reader; teardown
    // wipes the credential, session id, principal and caller relay, so no later holder can use
    // them.
    teardown: ({ context }) => {
      context.token?.wipe();
      context.sessionId?.wipe();
      context.principal?.wipe();
      context.relay?.wipe();
    },
  },
});

/** The `mcpOperation` machine. Provide its actors with `makeMcpOperationActors(deps)`. */
export const mcpOperationMachine = mcpOperationSetup.createMachine({
  id: 'mcpOperation',
  initial: 'starting',
  context: ({ input }) => {
    const context: McpOperationContext = {
      connectionName: input.connectionName,
      url: input.url,
      fence: input.fence,
      headers: input.headers,
      request: input.request,
      limits: input.limits,
      principal: input.principal === undefined ? undefined : new SecretValue(input.principal),
      relay: input.relay === undefined ? undefined : new SecretValue(input.relay),
      callerCapabilities: input.relay?.capabilities ?? {},
      maxListPages: input.maxListPages ?? MAX_TOOL_LIST_PAGES,
      transportType: input.transportType ?? 'auto',
      resolvesToken: input.resolvesToken ?? true,
      token: undefined,
      transport: 'streamable-http',
      endpoint: undefined,
      sessionId: undefined,
      protocolVersion: undefined,
      handshakeDeadlineAt: Date.now() + input.limits.handshake.timeoutMs,
      requestDeadlineAt: 0,
      requestStartedAt: 0,
      operation: 'initialize',
      readBytes: 0,
      maxBytes: input.limits.handshake.maxResponseBytes,
      resumeAttempts: 0,
      lastEventId: undefined,
      retryMs: undefined,
      pendingId: INITIALIZE_ID,
      collected: undefined,
      cursor: undefined,
      page: 0,
      legacyAnswer: undefined,
      legacyAccepted: false,
      abandoned: undefined,
      progressToken: input.progressToken,
      outcome: undefined,
    };
    // Copied once by a spread: the copy's shape is one V8 clones, so XState's
    // `Object.assign({}, context, update)` on every `assign` takes V8's clone fast path (seven
    // assignments: about 10 µs instead of 115 µs; a literal starting with `...input` costs 80 µs
    // more in Node 20, where each key written after a spread takes a slow path).
    return { ...context };
  },
  // The caller's abort, from any state: the outcome is its exact reason.
  on: {
    CANCEL: {
      target: '.closing',
      actions: [
        { type: 'failCancelled', params: ({ event }) => ({ reason: event.reason }) },
        { type: 'abandonRequest', params: { cause: 'cancelled' } },
      ],
    },
  },
  states: {
    // A connection with a token provider resolves its credential first; one without has nothing
    // to resolve and starts its wire at once.
    starting: {
      meta: { operation: 'initialize' },
      always: [toCredentials, ...toTheWire],
    },
    // Resolve this run's bearer token; the handshake deadline already runs.
    credentials: {
      meta: { operation: 'initialize' },
      invoke: {
        id: 'resolveCredentials',
        src: 'resolveCredentials',
        input: ({ context }) => ({ principal: context.principal }),
        onDone: toTheWire.map((edge) => ({
          ...edge,
          actions: [{ type: 'assignToken' as const, params: tokenOf }, ...edge.actions],
        })),
        onError: failOnError,
      },
      after: handshakeDeadline,
    },
    // Streamable HTTP: every message is a POST to the connection URL.
    streamable: {
      initial: 'initializing',
      on: readBudget,
      states: {
        // The first POST: the only one whose 400/404/405 means "speak legacy SSE instead".
        initializing: {
          meta: { operation: 'initialize' },
          invoke: {
            id: 'postInitialize',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                method: 'POST',
                message: initializeMessage(context.callerCapabilities),
                expectId: INITIALIZE_ID,
              }),
            onDone: [
              {
                guard: { type: 'isUnauthorized', params: exchangeOf },
                target: CLOSING,
                actions: { type: 'failUnauthorized', params: challengeOf },
              },
              {
                guard: {
                  type: 'isFallbackStatus',
                  params: ({ context, event }) => ({
                    exchange: event.output,
                    transportType: context.transportType,
                  }),
                },
                target: '#mcpOperation.legacy',
                actions: ['switchToLegacy', beginStep('endpoint')],
              },
              {
                guard: { type: 'isHttpError', params: exchangeOf },
                target: CLOSING,
                actions: { type: 'failHttpStatus', params: refusalOf },
              },
              {
                guard: { type: 'isResponse', params: exchangeOf },
                target: 'notifying',
                actions: [
                  { type: 'assignInitialized', params: initializedOf },
                  beginStep('notifications/initialized'),
                ],
              },
              failProtocolOn('ended MCP initialize without a response'),
            ],
            onError: failOnError,
          },
          after: handshakeDeadline,
        },
        // Tell the server the handshake is done (best effort).
        notifying: notifyingState('postInitialized', afterStreamableHandshake),
        // The session's standalone GET stream, held for the call's life: open (or refused, which
        // the specification allows) before the request, so no server request sent on it is lost.
        openingCallerStream: {
          meta: { operation: 'standalone-stream' },
          entry: 'openCallerStream',
          on: {
            CALLER_STREAM_OPEN: { target: 'requesting', actions: 'beginRequest' },
            CALLER_STREAM_CLOSED: { target: 'requesting', actions: 'beginRequest' },
          },
          after: handshakeDeadline,
        },
        // POST the request; the answer is JSON or an SSE stream on the POST.
        requesting: {
          invoke: {
            id: 'postRequest',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                method: 'POST',
                message: requestMessage(
                  context.request,
                  context.pendingId,
                  context.cursor,
                  context.progressToken,
                ),
                expectId: context.pendingId,
              }),
            onDone: [...requestOutcomes],
            onError: failOnError,
          },
          ...streamableWindow,
        },
        // The SSE answer broke off after an event id: wait the server's (clamped) retry advice.
        awaitingResume: {
          after: { RESUME_DELAY: { target: 'resuming' }, ...requestDeadline },
        },
        // GET with Last-Event-ID: the same answer, continued; the same outcomes as `requesting`.
        resuming: {
          invoke: {
            id: 'resumeRequest',
            src: 'exchange',
            input: ({ context, self }) =>
              exchangeInput(context, self, {
                method: 'GET',
                expectId: context.pendingId,
                ...(context.lastEventId === undefined ? {} : { lastEventId: context.lastEventId }),
              }),
            onDone: [...requestOutcomes],
            onError: failOnError,
          },
          ...streamableWindow,
        },
      },
    },
    // Legacy HTTP+SSE: one GET stream carries every answer; messages are POSTed to its endpoint.
    legacy: {
      initial: 'connecting',
      invoke: {
        id: 'legacyStream',
        src: 'legacyStream',
        input: ({ context }) => legacyStreamInput(context),
      },
      on: {
        ...readBudget,
        ...streamBytes,
        STREAM_REJECTED: [
          {
            guard: {
              type: 'isUnauthorized',
              params: ({ event }) => ({
                exchange: { kind: 'http-error', status: event.status, body: event.body },
              }),
            },
            target: CLOSING,
            actions: {
              type: 'failUnauthorized',
              params: ({ event }) => ({ challenge: event.challenge }),
            },
          },
          {
            target: CLOSING,
            actions: {
              type: 'failHttpStatus',
              params: ({ event }) => ({
                status: event.status,
                body: event.body,
                challenge: event.challenge,
              }),
            },
          },
        ],
        STREAM_ENDED: failProtocolOn('ended the MCP SSE stream without a response'),
        STREAM_FAILED: failOnError,
      },
      states: {
        // Wait, under the handshake deadline, for the stream to announce its POST endpoint.
        connecting: {
          meta: { operation: 'endpoint' },
          on: {
            SSE_ENDPOINT: [
              overReadBudget,
              {
                target: 'endpointCheck',
                actions: [
                  recordBytes,
                  { type: 'assignEndpoint', params: ({ event }) => ({ url: event.url }) },
                ],
              },
            ],
          },
          after: handshakeDeadline,
        },
        // Fence the endpoint before any request, and so any bearer, is sent to it.
        endpointCheck: {
          always: [
            {
              guard: {
                type: 'isFencedEndpoint',
                params: ({ context }) => ({ endpoint: context.endpoint, fence: context.fence }),
              },
              target: 'initializing',
              actions: beginStep('initialize'),
            },
            { target: CLOSING, actions: 'failEndpointOutsideFence' },
          ],
        },
        // POST initialize to the endpoint; its answer arrives on the stream.
        initializing: {
          meta: { operation: 'initialize' },
          ...legacyPostState(
            'postLegacyInitialize',
            (context) => initializeMessage(context.callerCapabilities),
            'initializeCheck',
          ),
          after: handshakeDeadline,
        },
        // Was the initialize answer a valid result?
        initializeCheck: {
          always: [
            {
              guard: { type: 'isAnswered', params: legacyDecodedOf },
              target: 'notifying',
              actions: [
                {
                  type: 'assignInitialized',
                  params: (args) => ({ value: legacyAnswerOf(args).value, sessionId: undefined }),
                },
                beginStep('notifications/initialized'),
              ],
            },
            { target: CLOSING, actions: { type: 'failWithError', params: legacyErrorOf } },
          ],
        },
        // Tell the server the handshake is done (best effort).
        notifying: notifyingState('postLegacyInitialized', afterLegacyHandshake),
        // POST the request to the endpoint; its answer arrives on the stream.
        requesting: {
          ...legacyPostState(
            'postLegacyRequest',
            (context) =>
              requestMessage(
                context.request,
                context.pendingId,
                context.cursor,
                context.progressToken,
              ),
            'responseCheck',
          ),
          ...legacyWindow,
        },
        // What the request's answer leads to: the next page, the result, or its refusal.
        responseCheck: {
          always: [
            {
              guard: { type: 'hasNextPage', params: legacyPageOf },
              target: 'requesting',
              actions: { type: 'collectPage', params: legacyAnswerOf },
            },
            {
              guard: { type: 'hasCursorAtPageLimit', params: legacyPageOf },
              ...failProtocolOn('did not end its MCP tools/list'),
            },
            {
              guard: { type: 'isAnswered', params: legacyDecodedOf },
              target: CLOSING,
              actions: { type: 'succeed', params: legacyAnswerOf },
            },
            { target: CLOSING, actions: { type: 'failWithError', params: legacyErrorOf } },
          ],
        },
      },
    },
    // The outcome is decided: close the standalone stream if one is held, then tell the server.
    closing: {
      entry: 'closeCallerStream',
      always: [
        {
          guard: { type: 'hasAbandonedRequest', params: abandonedOf },
          target: 'cancellingRequest',
        },
        { guard: { type: 'hasSession', params: sessionOf }, target: 'endingSession' },
        { target: 'closed' },
      ],
    },
    // Tell the server the abandoned request is cancelled (best effort, bounded), so its work stops.
    cancellingRequest: {
      meta: { operation: 'notifications/cancelled' },
      invoke: {
        id: 'postCancelled',
        src: 'exchange',
        input: ({ context, self }) =>
          exchangeInput(context, self, {
            method: 'POST',
            message: cancelledMessage(context.pendingId, context.abandoned),
          }),
        onDone: afterCancelNotice,
        onError: afterCancelNotice,
      },
      after: { SESSION_END_DEADLINE: afterCancelNotice },
      // The outcome is already decided; a late cancellation only abandons the cleanup.
      on: { CANCEL: { target: 'closed' } },
    },
    // DELETE the session, bounded; any answer or failure ends the run.
    endingSession: {
      invoke: {
        id: 'deleteSession',
        src: 'deleteSession',
        input: ({ context }) => deleteSessionInput(context),
        onDone: { target: 'closed' },
        onError: { target: 'closed' },
      },
      after: { SESSION_END_DEADLINE: { target: 'closed' } },
      // The outcome is already decided; a late cancellation only abandons the session cleanup.
      on: { CANCEL: { target: 'closed' } },
    },
    // Final: teardown wipes every secret the run held.
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('mcpOperation reached its final state without an outcome'),
    },
});
