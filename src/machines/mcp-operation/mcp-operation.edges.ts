/**
 * The glossary of `mcpOperation`: what more than one part of its chart uses (the lifecycle in
 * `mcp-operation.machine.ts` and the stateless, session and sse regions). The edge fragments
 * (refusals, deadlines, byte counting, paging, the best-effort notification, the request window),
 * the param mappers that say what each guard and action reads, the actions two parts take
 * (`sharedActions`), the named delays, and `assignRun`, the typed `assign` each region writes its
 * own actions with.
 */
import { type Assigner, assign, emit, type PropertyAssigner, stopChild } from 'xstate';
import {
  ConnectionProtocolError,
  ConnectionResponseTooLargeError,
  MCP_RPC_ERROR,
  SESSION_REVISION,
  SESSION_REVISIONS,
  STATELESS_REVISION,
  supportedVersionsOf,
} from '../../wire/index.js';
import { type TaskSnapshot, taskKnownBy } from '../../wire/mcp/tasks.js';
import { readSoFar } from '../bytes-read.js';
import {
  challengeOf,
  errorOf,
  exchangeOf,
  failed,
  refusalOf,
  type With,
} from '../connection-outcomes.js';
import { remainingMs } from '../deadline.js';
import type { SecretValue } from '../secret-value.js';
import { type ByteReporter, exchangeInput } from './mcp-operation.actors.js';
import type { PageParams } from './mcp-operation.guards.js';
import { initializedMessage } from './mcp-operation.messages.js';
import {
  INITIALIZE_ID,
  isCancellableRequest,
  mergeToolPages,
  nextCursorOf,
  REQUEST_ID,
  requestResult,
  requestWindowEnd,
  resumeDelayMs,
  runScopeOf,
  SESSION_END_TIMEOUT_MS,
  taskBackstopMs,
} from './mcp-operation.policy.js';
import type {
  AbandonCause,
  McpOperationContext,
  McpOperationEmitted,
  McpOperationEvent,
  McpToolList,
  RpcExchange,
} from './mcp-operation.types.js';

/** The steps of the handshake, each with its own operation name and the handshake's budget. */
export type HandshakeStep =
  | 'initialize'
  | 'notifications/initialized'
  | 'endpoint'
  | 'standalone-stream';
/** What a mapper reads of the context. */
export type WithContext = { readonly context: McpOperationContext };
/** The done event of an `exchange` actor. */
export type ExchangeDone = With<{ readonly output: RpcExchange }>;
/** A JSON-RPC answer's value, for the actions that take it. */
export type Answer = { readonly value: unknown };
/** An invoke's input mapper: the context, and the machine to report bytes and progress to. */
export type WithSelf = WithContext & { readonly self: ByteReporter };

/** Where every decided outcome goes: teardown. */
export const CLOSING = '#mcpOperation.closing';

/**
 * Whether the run speaks either revision: it probes (`auto`) or holds a revision it may re-check
 * (`discovered`); otherwise it speaks only the one it was pinned to.
 */
export function speaksEither(context: McpOperationContext): boolean {
  return context.protocolChoice === 'auto' || context.discovered;
}

/** Whether the run may switch to the other revision: it speaks either, and has not switched (never back). */
export function maySwitch(context: McpOperationContext): boolean {
  return speaksEither(context) && !context.switched;
}

/**
 * An exchange, whether its answer may switch the run to the other revision, whether the run still
 * probes (`auto`, no switch yet: it holds no revision), and whether it switched.
 */
export const switchOf = ({ context, event }: WithContext & ExchangeDone) => ({
  exchange: event.output,
  maySwitch: maySwitch(context),
  probing: context.protocolChoice === 'auto' && !context.switched,
  switched: context.switched,
});

/** The bytes an event brings, for the budget edges. */
export const bytesOf = ({ event }: With<{ readonly bytes: number }>) => ({ bytes: event.bytes });

/** Where a paged `tools/list` stands once the page whose value is `value` arrived. */
export function pageOf(context: McpOperationContext, { value }: Answer): PageParams {
  return {
    nextCursor: context.request.method === 'tools/list' ? nextCursorOf(value) : undefined,
    page: context.page,
    maxListPages: context.maxListPages,
  };
}

/** An actor failure ends the run with that failure as the outcome. */
export const failOnError = {
  target: CLOSING,
  actions: { type: 'failWithError', params: errorOf },
} as const;

/** The upstream broke the protocol; `violation` completes `Connection "<name>" …`. */
export function failProtocolOn<V extends string>(violation: V) {
  return { target: CLOSING, actions: { type: 'failProtocol', params: { violation } } } as const;
}

/** The next handshake step: its operation, the handshake byte budget, the `initialize` id. */
export function beginStep<O extends HandshakeStep>(operation: O) {
  return { type: 'beginHandshakeStep', params: { operation } } as const;
}

/** A 401 on any request: authorization is required. */
export const unauthorized = {
  guard: { type: 'isUnauthorized', params: exchangeOf<RpcExchange> },
  target: CLOSING,
  actions: { type: 'failUnauthorized', params: challengeOf },
} as const;

/** Any other non-2xx answer: a request error. */
export const httpError = {
  guard: { type: 'isHttpError', params: exchangeOf<RpcExchange> },
  target: CLOSING,
  actions: { type: 'failHttpStatus', params: refusalOf },
} as const;

/** A refused HTTP exchange: 401 is authorization required; any other status a request error. */
export const refusals = [unauthorized, httpError] as const;

/**
 * A `tools/list` page that announces another: fetch it while the page limit leaves room, else the
 * catalog is unbounded. The same rule on both wires, each with its own mappers; the Streamable
 * request re-enters its own state, the legacy check goes back to its sibling.
 */
export function pageOutcomes<A>(
  pageParams: (args: A) => PageParams,
  answer: (args: A) => Answer,
  reenter: boolean,
) {
  return [
    {
      guard: { type: 'hasNextPage', params: pageParams },
      target: 'requesting',
      ...(reenter ? { reenter: true } : {}),
      actions: { type: 'collectPage', params: answer },
    },
    {
      guard: { type: 'hasCursorAtPageLimit', params: pageParams },
      ...failProtocolOn('did not end its MCP tools/list'),
    },
  ] as const;
}

/** The handshake's one deadline, fallback included. */
export const handshakeDeadline = {
  HANDSHAKE_DEADLINE: {
    target: CLOSING,
    actions: {
      type: 'failTimeout',
      params: ({ context }: WithContext) => ({ timeoutMs: context.limits.handshake.timeoutMs }),
    },
  },
} as const;

/** The request's deadline: the request is given up, so teardown announces its cancellation. */
export const requestDeadline = {
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

/** Ends the run when the bytes an event brings take the operation past its byte ceiling. */
export const overReadBudget = {
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
export const recordBytes = { type: 'recordBytesRead', params: bytesOf } as const;

/** The edges of an event that only brings bytes: over the ceiling it ends the run, else they count. */
export const countBytes = [overReadBudget, { actions: recordBytes }] as const;

/** The `BYTES_READ` edges: every chunk counts against the operation's byte ceiling, on every wire. */
export const bytesReadEdges = { BYTES_READ: countBytes } as const;

/**
 * The best-effort `notifications/initialized` POST, on either wire: any HTTP answer or transport
 * error moves on along `next` (to the request, or first to the standalone stream); a size
 * failure, a refused redirect, the deadline and cancellation do not.
 */
export function notifyingState<const N extends readonly object[]>(
  id: 'postInitialized' | 'postLegacyInitialized',
  next: N,
) {
  return {
    meta: { operation: 'notifications/initialized' },
    invoke: {
      id,
      src: 'exchange',
      input: ({ context, self }: WithSelf) =>
        exchangeInput(context, self, { method: 'POST', message: initializedMessage() }),
      onDone: [...next],
      onError: [
        { guard: { type: 'isSizeFailure', params: errorOf }, ...failOnError },
        { guard: { type: 'isUrlRefusal', params: errorOf }, ...failOnError },
        ...next,
      ],
    },
    after: handshakeDeadline,
  } as const;
}

/** The exchange's response, when it brought one. */
export const responseOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'response' ? event.output : undefined;
/** The answer's value, for the actions that take it. */
export const answerOf = (args: ExchangeDone): Answer => ({ value: responseOf(args)?.value });
/** Where a paged `tools/list` stands once an exchange brought a page. */
export const exchangePageOf = (args: WithContext & ExchangeDone) =>
  pageOf(args.context, answerOf(args));

/**
 * The call's answer is a task: the run drives it (`task`, the `mcpTask` machine), keeping the
 * answer's byte count. Before the plain answer, which a task answer is not.
 */
export const taskCreated = {
  guard: { type: 'createsTask', params: exchangeOf<RpcExchange> },
  target: '#mcpOperation.task',
  actions: { type: 'assignTask', params: responseOf },
} as const;

type ProgressReport = { progress: number; total?: number; message?: string };
/** A progress report, as `relayProgress` takes it. */
export const progressEventOf = ({ event }: With<ProgressReport>): ProgressReport => ({
  progress: event.progress,
  ...(event.total === undefined ? {} : { total: event.total }),
  ...(event.message === undefined ? {} : { message: event.message }),
});

const extendsDeadline = {
  type: 'extendsDeadline',
  params: ({ context }: WithContext) => ({
    maxTotalTimeoutMs: context.limits.request.maxTotalTimeoutMs,
  }),
} as const;

/**
 * The request's deadline on a POST's own answer (Streamable and stateless alike), in a child state so
 * that progress can restart it without leaving the
 * state that holds the request: each progress report is relayed, and with `maxTotalTimeoutMs` it
 * re-enters `waiting`, whose deadline is then the new window, capped from the request's start.
 */
export const requestWindow = {
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

// Taken only after `isUnsupportedVersion`, so the refusal is there to read.
/** The versions a `-32022` refusal names, for `failUnsupportedVersion`. */
export const supportedOf = ({ event }: ExchangeDone) => ({
  supported: event.output.kind === 'http-error' ? supportedVersionsOf(event.output.rpcError) : [],
});

/**
 * An `assign` typed for `mcpOperation`'s context and events: how the shared actions below and each
 * region's own actions are written outside the machine file, then spread into its setup.
 */
export function assignRun<P = undefined>(
  assignment:
    | Assigner<McpOperationContext, McpOperationEvent, P, McpOperationEvent, never>
    | PropertyAssigner<McpOperationContext, McpOperationEvent, P, McpOperationEvent, never>,
) {
  return assign<McpOperationContext, McpOperationEvent, P, McpOperationEvent, never>(assignment);
}

/** The versions a run may speak: the one it was pinned to, else the stateless and every 2025 one. */
function clientVersionsOf(context: McpOperationContext): readonly string[] {
  return speaksEither(context)
    ? [STATELESS_REVISION, ...SESSION_REVISIONS]
    : [context.protocolChoice];
}

/** The named deadlines of `mcpOperation`: each state's delay is the time its window has left. */
export const mcpOperationDelays = {
  HANDSHAKE_DEADLINE: ({ context }: WithContext) =>
    remainingMs(context.handshakeDeadlineAt, Date.now()),
  REQUEST_DEADLINE: ({ context }: WithContext) =>
    remainingMs(context.requestDeadlineAt, Date.now()),
  RESUME_DELAY: ({ context }: WithContext) => resumeDelayMs(context.retryMs),
  SESSION_END_DEADLINE: SESSION_END_TIMEOUT_MS,
  // A backstop only: `mcpTask` ends itself by its own deadlines first (decision 0042).
  TASK_BACKSTOP: ({ context }: WithContext) => remainingMs(context.taskBackstopAt, Date.now()),
};

/** The actions two or more parts of the chart take, spread into the setup of `mcpOperation`. */
export const sharedActions = {
  beginHandshakeStep: assignRun(({ context }, params: { operation: HandshakeStep }) => ({
    operation: params.operation,
    readBytes: 0,
    maxBytes: context.limits.handshake.maxResponseBytes,
    pendingId: INITIALIZE_ID,
    legacyAccepted: false,
  })),
  // A request sent again in a re-opened session keeps its first attempt's window (decision 0037).
  beginRequest: assignRun(({ context }) => ({
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
  extendDeadline: assignRun(({ context }) => ({
    requestDeadlineAt: requestWindowEnd(
      context.requestStartedAt,
      Date.now(),
      context.limits.request,
    ),
  })),
  // The next page keeps the byte budget and the deadline of the whole listing.
  collectPage: assignRun(({ context, event }, params: Answer) => ({
    readBytes: readSoFar(context, event),
    collected: mergeToolPages(context.collected, params.value as McpToolList),
    cursor: nextCursorOf(params.value),
    page: context.page + 1,
    pendingId: context.pendingId + 1,
    legacyAnswer: undefined,
    legacyAccepted: false,
  })),
  recordBytesRead: assignRun(({ context }, params: { bytes: number }) => ({
    readBytes: context.readBytes + params.bytes,
  })),
  assignInitialized: assignRun((_, params: Answer & { sessionId: SecretValue | undefined }) => ({
    protocolVersion: (params.value as { protocolVersion?: string } | undefined)?.protocolVersion,
    sessionId: params.sessionId,
    // The 2025 handshake says whether tool calls may ask for a task (the legacy one never does).
    tasksOffered: (params.value as { tasksOffered?: boolean } | undefined)?.tasksOffered === true,
  })),
  switchToSse: assignRun({ transport: 'sse' as const }),
  // The call became a task: its snapshot for `mcpTask`, the answer's bytes counted.
  assignTask: assignRun(({ context, event }, params: { task?: TaskSnapshot } | undefined) => ({
    task: params?.task,
    readBytes: readSoFar(context, event),
    taskBackstopAt: Date.now() + taskBackstopMs(context.limits),
  })),
  // A retry resumes the task its answers are for: known by its id, waiting for input, its
  // retention unknown (the task deadline bounds it).
  assignResumedTask: assignRun(({ context }) => ({
    task: taskKnownBy(context.resumedTaskId ?? '', 'input_required'),
    taskBackstopAt: Date.now() + taskBackstopMs(context.limits),
  })),
  // No handshake: the version is the stateless wire's own, sent with every request.
  switchToStateless: assignRun({ stateless: true, protocolVersion: STATELESS_REVISION }),
  // The run switched to the other revision (or retried its version); it never switches again.
  markSwitched: assignRun({ switched: true }),
  succeed: assignRun(({ context }, params: Answer) => ({
    outcome: {
      ok: true as const,
      result: requestResult(context.request, context.collected, params.value),
      transport: context.transport,
      protocolVersion: context.protocolVersion ?? SESSION_REVISION,
      tasksOffered: context.tasksOffered,
    },
  })),
  failTooLarge: assignRun(({ context }, params: { bytes: number }) =>
    failed(
      new ConnectionResponseTooLargeError({
        ...runScopeOf(context, context.readBytes + params.bytes),
        maxBytes: context.maxBytes,
      }),
    ),
  ),
  // `-32022` with no version both sides speak: named, so the host sees why.
  failUnsupportedVersion: assignRun(({ context }, params: { supported: readonly string[] }) =>
    failed(
      new ConnectionProtocolError({
        ...runScopeOf(context, context.readBytes),
        violation: `supports none of the MCP protocol versions this client speaks (server: ${
          params.supported.join(', ') || 'none named'
        }; client: ${clientVersionsOf(context).join(', ')})`,
        rpcCode: MCP_RPC_ERROR.unsupportedProtocolVersion,
      }),
    ),
  ),
  // The upstream's progress for our request, handed to whoever runs the machine, in order.
  relayProgress: emit<
    McpOperationContext,
    McpOperationEvent,
    ProgressReport,
    McpOperationEvent,
    McpOperationEmitted
  >((_, params) => ({ type: 'progress' as const, ...params })),

  // A sent request given up: teardown tells the server (`notifications/cancelled`) when
  // `isCancellableRequest` says the request is still in progress.
  abandonRequest: assignRun(({ context }, params: { cause: AbandonCause }) => ({
    abandoned: isCancellableRequest(
      context.operation,
      context.legacyAnswer !== undefined,
      context.stateless,
    )
      ? params.cause
      : undefined,
  })),
  closeCallerStream: stopChild<
    McpOperationContext,
    McpOperationEvent,
    undefined,
    McpOperationEvent
  >('callerStream'),
};
