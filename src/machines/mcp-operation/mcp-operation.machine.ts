/**
 * `mcpOperation`: one MCP client for one operation (ADR 0180). Credentials (when the connection
 * has a token provider), then the handshake (Streamable HTTP `initialize`, falling back to legacy
 * HTTP+SSE only on 400/404/405 of that first POST), the best-effort `notifications/initialized`,
 * the request (`tools/list`, page by page, or `tools/call`, resumable once interrupted), and a
 * teardown every path passes through.
 *
 * This file holds the setup (actions and delays), the context, and the lifecycle every wire
 * shares: `starting`, `credentials`, the wire regions, and the teardown (`closing`, the
 * cancellation notice, the session's end, `closed`). Each wire region has a file of its own
 * (`mcp-operation.streamable.ts`, `mcp-operation.legacy.ts`), and the fragments they share are in
 * `mcp-operation.edges.ts`. It is one chart at runtime: the regions are state nodes of this
 * machine, so the model, the diagrams and every transition record see one machine. A state reads
 * in its region file (or here), the guards and the actors.
 */
import { assign, emit, setup, spawnChild, stopChild } from 'xstate';
import {
  ConnectionInputRequiredError,
  ConnectionProtocolError,
  ConnectionResponseTooLargeError,
  ConnectionUrlError,
  type InputRequired,
  MCP_RPC_ERROR,
  type OperationScope,
  type RpcErrorBody,
  rpcRefusalViolation,
  SESSION_REVISION,
  SESSION_REVISIONS,
  STATELESS_LOG_LEVEL,
  STATELESS_REVISION,
} from '../../wire/index.js';
import { readSoFar } from '../bytes-read.js';
import { connectionFailureActions, failed, reasonOf } from '../connection-outcomes.js';
import { toCredentials } from '../credentials.js';
import { remainingMs } from '../deadline.js';
import { SecretValue } from '../secret-value.js';
import {
  callerStreamInput,
  deleteSessionInput,
  exchangeInput,
  makeMcpOperationActors,
} from './mcp-operation.actors.js';
import {
  type Answer,
  beginStep,
  failOnError,
  type HandshakeStep,
  handshakeDeadline,
  speaksEither,
  type With,
  type WithContext,
} from './mcp-operation.edges.js';
import { mcpOperationGuards } from './mcp-operation.guards.js';
import {
  answeredState,
  cancelledMessage,
  decodeRpcResponse,
  INITIALIZE_ID,
  isCancellableRequest,
  MAX_INPUT_ROUNDS,
  MAX_TOOL_LIST_PAGES,
  mergeToolPages,
  nextCursorOf,
  REQUEST_ID,
  requestResult,
  requestWindowEnd,
  resumeDelayMs,
  runScopeOf,
  SESSION_END_TIMEOUT_MS,
} from './mcp-operation.policy.js';
import { sessionRegion } from './mcp-operation.session.js';
import { sseRegion } from './mcp-operation.sse.js';
import { statelessRegion } from './mcp-operation.stateless.js';
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

/**
 * The scope of the operation in progress, for its errors. Keys are written out rather than
 * spread (docs/architecture.md, "Per-call objects"): this runs on every event of a call.
 */
function scopeOf(
  context: McpOperationContext,
  observedReadBytes = context.readBytes,
): OperationScope {
  return runScopeOf(context, observedReadBytes);
}

/** The versions a run may speak: the one it was pinned to, else the stateless and every 2025 one. */
function clientVersionsOf(context: McpOperationContext): readonly string[] {
  return speaksEither(context)
    ? [STATELESS_REVISION, ...SESSION_REVISIONS]
    : [context.protocolChoice];
}

const tokenOf = ({ event }: With<{ readonly output: SecretValue | undefined }>) => ({
  token: event.output,
});
const transportTypeOf = ({ context }: WithContext) => ({ transportType: context.transportType });
const sessionOf = ({ context }: WithContext) => ({ sessionId: context.sessionId });
const abandonedOf = ({ context }: WithContext) => ({ abandoned: context.abandoned });

type ProgressReport = { progress: number; total?: number; message?: string };

/** After the cancellation notice: end the session if there is one, else close. */
const afterCancelNotice = [
  { guard: { type: 'hasSession', params: sessionOf }, target: 'endingSession' },
  { target: 'closed' },
] as const;

/**
 * Where a run goes once its credential is known: from `starting` when there is nothing to resolve,
 * and from `credentials`, whose edges first assign the token. A connection told to speak legacy
 * SSE goes straight to its stream.
 */
const toTheWire = [
  {
    guard: {
      type: 'startsStateless',
      params: ({ context }: WithContext) => ({
        protocolChoice: context.protocolChoice,
        transportType: context.transportType,
      }),
    },
    target: 'stateless',
    actions: ['switchToStateless', 'beginRequest'],
  },
  {
    guard: { type: 'isSseOnly', params: transportTypeOf },
    target: 'sse',
    actions: ['switchToSse', beginStep('endpoint')],
  },
  { target: 'session', actions: [] },
] as const;

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
    // A failure's scope takes the bytes an answer in hand carries unreported.
    ...connectionFailureActions<McpOperationContext, McpOperationEvent>((context, event) =>
      scopeOf(context, readSoFar(context, event)),
    ),
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
    // A request sent again in a re-opened session keeps its first attempt's window (decision 0037).
    beginRequest: assign(({ context }) => ({
      operation: context.request.method,
      readBytes: 0,
      maxBytes: context.limits.request.maxResponseBytes,
      ...(context.sessionReopened
        ? {}
        : {
            requestStartedAt: Date.now(),
            requestDeadlineAt: requestWindowEnd(Date.now(), Date.now(), context.limits.request),
          }),
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
    // The server lost the session: a new client's handshake, with no session id and no version
    // header, inside the request's window (never past the run's deadlines); a listing starts
    // over, since its cursor belonged to the lost session (decision 0037). Never again in a run.
    reopenSession: assign(({ context }) => ({
      sessionId: undefined,
      sessionReopened: true,
      protocolVersion: undefined,
      handshakeDeadlineAt: Math.min(
        Date.now() + context.limits.handshake.timeoutMs,
        context.requestDeadlineAt,
      ),
      collected: undefined,
      cursor: undefined,
      page: 0,
    })),
    switchToSse: assign({ transport: 'sse' as const }),
    // The Streamable HTTP status that sent the run to legacy SSE: its errors will name it.
    recordFallback: assign((_, params: { status: number }) => ({ fallbackStatus: params.status })),
    // No handshake: the version is the stateless wire's own, sent with every request.
    switchToStateless: assign({ stateless: true, protocolVersion: STATELESS_REVISION }),
    // Back to the 2025 handshake, which negotiates its own version.
    switchToSession: assign({ stateless: false, protocolVersion: undefined }),
    // The run switched to the other revision (or retried its version); it never moves again.
    markSwitched: assign({ switched: true }),
    // A retry of the same request is a new request: a new JSON-RPC id.
    nextRequestId: assign(({ context }) => ({ pendingId: context.pendingId + 1 })),
    // The server asks before it completes: one more round, its byte count kept. Only a stateless
    // server sends `input_required`, so the revision is settled: the run no longer moves.
    assignInputRequired: assign(({ context, event }, params: { inputRequired: InputRequired }) => ({
      inputRequired: params.inputRequired,
      inputRound: context.inputRound + 1,
      readBytes: readSoFar(context, event),
      switched: true,
    })),
    // Asked on behalf of a caller that answers by a retry: the run ends with the questions.
    failInputDeferred: assign(({ context, event }, params: { inputRequired: InputRequired }) =>
      failed(
        new ConnectionInputRequiredError({
          ...scopeOf(context, readSoFar(context, event)),
          ...params.inputRequired,
        }),
      ),
    ),
    // The caller answered: the retry carries the answers under a new id.
    assignInputResponses: assign(
      ({ context }, params: { responses: Readonly<Record<string, unknown>> }) => ({
        inputResponses: params.responses,
        pendingId: context.pendingId + 1,
      }),
    ),
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
        protocolVersion: context.protocolVersion ?? SESSION_REVISION,
      },
    })),
    failTooLarge: assign(({ context }, params: { bytes: number }) =>
      failed(
        new ConnectionResponseTooLargeError({
          ...scopeOf(context, context.readBytes + params.bytes),
          maxBytes: context.maxBytes,
        }),
      ),
    ),
    // `-32022` with no version both sides speak: named, so the host sees why.
    failUnsupportedVersion: assign(({ context }, params: { supported: readonly string[] }) =>
      failed(
        new ConnectionProtocolError({
          ...scopeOf(context),
          violation: `supports none of the MCP protocol versions this client speaks (server: ${
            params.supported.join(', ') || 'none named'
          }; client: ${clientVersionsOf(context).join(', ')})`,
          rpcCode: MCP_RPC_ERROR.unsupportedProtocolVersion,
        }),
      ),
    ),
    // A 4xx whose body is a JSON-RPC error: the server's refusal, relayed as it said it.
    failRpcRefusal: assign(
      ({ context, event }, params: { status: number; rpcError: RpcErrorBody }) =>
        failed(
          new ConnectionProtocolError({
            ...scopeOf(context, readSoFar(context, event)),
            violation: rpcRefusalViolation(params.status, params.rpcError),
            rpcCode: params.rpcError.code,
            rpcMessage: params.rpcError.message,
            ...(params.rpcError.data === undefined ? {} : { rpcData: params.rpcError.data }),
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
    // The upstream's progress for our request, handed to whoever runs the machine, in order.
    relayProgress: emit((_, params: ProgressReport) => ({ type: 'progress' as const, ...params })),
    // A sent request given up: teardown tells the server (`notifications/cancelled`) when
    // `isCancellableRequest` says the request is still in progress.
    abandonRequest: assign(({ context }, params: { cause: AbandonCause }) => ({
      abandoned: isCancellableRequest(
        context.operation,
        context.legacyAnswer !== undefined,
        context.stateless,
      )
        ? params.cause
        : undefined,
    })),
    // The session's standalone GET stream of a relaying or progress-listening call; it lives until
    // the outcome is decided, or until the session it belongs to is lost.
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
      logLevel: input.relay?.takesLogs === true ? STATELESS_LOG_LEVEL : undefined,
      maxListPages: input.maxListPages ?? MAX_TOOL_LIST_PAGES,
      maxInputRounds: input.maxInputRounds ?? MAX_INPUT_ROUNDS,
      transportType: input.transportType ?? 'auto',
      protocolChoice: input.protocolVersion ?? 'auto',
      discovered: input.discovered ?? false,
      switched: false,
      stateless: false,
      resolvesToken: input.resolvesToken ?? true,
      token: undefined,
      transport: 'streamable-http',
      fallbackStatus: undefined,
      endpoint: undefined,
      sessionId: undefined,
      sessionReopened: false,
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
      inputRound: 0,
      defersInput: input.relay?.defersInput === true,
      // A retry that brings answers sends them, with the server's state, on its first request.
      inputRequired: answeredState(input.relay?.answered),
      inputResponses: input.relay?.answered?.inputResponses,
      progressToken: input.progressToken,
      trace: input.trace,
      outcome: undefined,
    };
    // Copied once by a spread: the copy's shape is one V8 clones, so XState's
    // `Object.assign({}, context, update)` on every `assign` takes V8's clone fast path (decision
    // 0022; a literal starting with `...input` would put every key after a spread).
    return { ...context };
  },
  // The caller's abort, from any state: the outcome is its exact reason.
  on: {
    CANCEL: {
      target: '.closing',
      actions: [
        { type: 'failCancelled', params: reasonOf },
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
        input: ({ context }) => ({ principal: context.principal, scope: scopeOf(context) }),
        onDone: toTheWire.map((edge) => ({
          ...edge,
          actions: [{ type: 'assignToken' as const, params: tokenOf }, ...edge.actions],
        })),
        onError: failOnError,
      },
      after: handshakeDeadline,
    },
    // Streamable HTTP: every message is a POST to the connection URL (its own file).
    session: sessionRegion,
    // Legacy HTTP+SSE: one GET stream carries every answer (its own file).
    sse: sseRegion,
    // MCP 2026-07-28: one POST per request, no handshake, no session (its own file).
    stateless: statelessRegion,
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
