/**
 * The abstracted model of the `mcpOperation` machine for its model checks and walks: the input,
 * how a snapshot becomes a vertex, and the concrete outcomes each actor and stream event can have.
 */
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import {
  MAX_STREAM_RESUMPTIONS,
  resumeDelayMs,
} from '../../src/machines/mcp-operation/mcp-operation.policy.js';
import type {
  McpCallerRelay,
  McpOperationContext,
  McpOperationInput,
  RpcExchange,
} from '../../src/machines/mcp-operation/mcp-operation.types.js';
import { SecretValue } from '../../src/machines/secret-value.js';
import {
  ConnectionResponseTooLargeError,
  ConnectionUrlError,
  createHostFence,
  SESSION_REVISION,
} from '../../src/wire/index.js';
import type { ModelOptions } from './model-graph.js';

/** The modelled connection URL; the fence is its host only. */
export const MODEL_URL = 'http://127.0.0.1:7000/mcp';

/**
 * Input of the modelled call: a tools/call with distinct handshake and request limits, on the
 * 2025-11-25 wire (the models of MCP 2026-07-28 and of probing are below).
 */
export const mcpModelInput: McpOperationInput = {
  connectionName: 'model',
  protocolVersion: '2025-11-25',
  url: MODEL_URL,
  fence: createHostFence('model', new URL(MODEL_URL)),
  headers: {},
  request: { method: 'tools/call', params: { name: 'echo', arguments: {} } },
  progressToken: 2,
  limits: {
    handshake: { timeoutMs: 5_000, maxResponseBytes: 1_000 },
    request: { timeoutMs: 3_000, maxResponseBytes: 2_000 },
  },
};

/** Input of the modelled discovery: a tools/list that may follow at most two pages. */
export const mcpListModelInput: McpOperationInput = {
  ...mcpModelInput,
  request: { method: 'tools/list' },
  maxListPages: 2,
};

/**
 * Whether the request deadline fires before the resume delay. The model's interruptions happen at
 * the start of the request window, so the server's advice against the whole window decides it.
 */
function deadlineBeforeResume(context: McpOperationContext): boolean {
  return resumeDelayMs(context.retryMs) >= context.limits.request.timeoutMs;
}

/** A legacy POST's own answer, which arrives once. */
const LEGACY_POST_ANSWER = /^xstate\.(done|error)\.actor\.postLegacy(Initialize|Request)$/;

/**
 * Only the earlier of awaitingResume's two timers can fire, and a legacy POST the endpoint
 * already accepted answers no more.
 */
export function isPossibleMcpEvent(snapshot: AnyMachineSnapshot, event: AnyEventObject): boolean {
  const context = snapshot.context as McpOperationContext;
  if (context.legacyAccepted && LEGACY_POST_ANSWER.test(event.type)) return false;
  if (!snapshot.matches({ session: 'awaitingResume' })) return true;
  const deadlineFirst = deadlineBeforeResume(context);
  if (event.type.startsWith('xstate.after.RESUME_DELAY.')) return !deadlineFirst;
  if (event.type.startsWith('xstate.after.REQUEST_DEADLINE.')) return deadlineFirst;
  return true;
}

/** A state that waits for a legacy POST's acceptance and its answer on the stream. */
function isLegacyPostStep(snapshot: AnyMachineSnapshot): boolean {
  return snapshot.matches({ sse: 'initializing' }) || snapshot.matches({ sse: 'requesting' });
}

/**
 * Vertex key: the state, whether a session is open (teardown branches on it), whether a
 * resumption is still allowed, the outcome's kind once decided, and where a legacy step stands.
 */
export function serializeMcpState(snapshot: AnyMachineSnapshot): string {
  const context = snapshot.context as McpOperationContext;
  return JSON.stringify({
    value: snapshot.value,
    status: snapshot.status,
    session: context.sessionId !== undefined,
    reopened: context.sessionReopened,
    canResume: context.resumeAttempts < MAX_STREAM_RESUMPTIONS,
    pagesLeft: context.maxListPages - context.page - 1,
    inputRoundsLeft: context.maxInputRounds - context.inputRound,
    switched: context.switched,
    deadlineFirst: snapshot.matches({ session: 'awaitingResume' })
      ? deadlineBeforeResume(context)
      : undefined,
    outcome: context.outcome === undefined ? undefined : context.outcome.ok,
    abandoned: context.abandoned,
    // A legacy step waits for both its POST's acceptance and its answer, in either order.
    legacyStep: isLegacyPostStep(snapshot)
      ? { accepted: context.legacyAccepted, answer: context.legacyAnswer?.ok }
      : undefined,
  });
}

const done = (id: string, output: RpcExchange | SecretValue | undefined): AnyEventObject => ({
  type: `xstate.done.actor.${id}`,
  output,
});
const failed = (id: string, error: unknown): AnyEventObject => ({
  type: `xstate.error.actor.${id}`,
  error,
});
const httpError = (status: number): RpcExchange => ({ kind: 'http-error', status, body: 'no' });
const interrupted: RpcExchange = { kind: 'interrupted', lastEventId: 'e1', retryMs: 500 };
/** An interruption whose retry advice outlasts the request deadline. */
const interruptedSlowRetry: RpcExchange = {
  kind: 'interrupted',
  lastEventId: 'e1',
  retryMs: 5_000,
};
/** An SSE answer that ended before the response and before any event id: not resumable. */
const endedWithoutId: RpcExchange = { kind: 'interrupted', lastEventId: undefined, retryMs: 500 };
const accepted: RpcExchange = { kind: 'accepted', status: 202 };
const initialized = (session: boolean): RpcExchange => ({
  kind: 'response',
  value: { protocolVersion: SESSION_REVISION },
  sessionId: session ? new SecretValue('session-1') : undefined,
});
const listed = (nextCursor?: string): RpcExchange => ({
  kind: 'response',
  value: { tools: [], rejected: [], ...(nextCursor === undefined ? {} : { nextCursor }) },
  sessionId: undefined,
});
const called: RpcExchange = {
  kind: 'response',
  value: { content: [{ type: 'text', text: 'ok' }] },
  sessionId: undefined,
};
const tooLarge = new ConnectionResponseTooLargeError({
  connectionName: 'model',
  operation: 'notifications/initialized',
  observedReadBytes: 1_001,
  maxBytes: 1_000,
});

/** A redirect answered to `notifications/initialized`: refused, as on every request. */
const redirected = new ConnectionUrlError({
  connectionName: 'model',
  operation: 'notifications/initialized',
  refusal: 'refused a redirect (status 307) to another host during notifications/initialized',
});

/** Every status the fallback rule distinguishes, tried on every exchange. */
export const MODEL_STATUSES = [400, 401, 403, 404, 405, 500] as const;

type ModelledRequest = McpOperationInput['request']['method'];

/** A `tools/call` the server runs as a task: the task it created (`mcpTask` drives it). */
const taskCreated: RpcExchange = {
  kind: 'response',
  value: undefined,
  sessionId: undefined,
  task: {
    taskId: 'task-1',
    status: 'working',
    createdAt: '2026-12-05T00:00:00Z',
    lastUpdatedAt: '2026-12-05T00:00:00Z',
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
  },
};

/**
 * The decoded answers a request can get: a call result or a task, or a tools/list page with or
 * without a cursor.
 */
const answers = (request: ModelledRequest): RpcExchange[] =>
  request === 'tools/call' ? [called, taskCreated] : [listed(), listed('page-2')];

/** How the task machine ends: the tool's result, or a task error. */
const TASK_ENDINGS = [
  { ok: true, result: { content: [{ type: 'text', text: 'done' }] } },
  { ok: false, error: new Error('task failed') },
];

const requestOutcomes = (id: string, request: ModelledRequest) => [
  ...MODEL_STATUSES.map((status) => done(id, httpError(status))),
  ...answers(request).map((answer) => done(id, answer)),
  done(id, interrupted),
  done(id, interruptedSlowRetry),
  done(id, endedWithoutId),
  done(id, accepted),
];

/** A refusal whose body is a JSON-RPC error (the stateless wire's way to say no). */
const rpcRefusal = (status: number, code: number, data?: unknown): RpcExchange => ({
  kind: 'http-error',
  status,
  body: 'refused',
  rpcError: data === undefined ? { code, message: 'no' } : { code, message: 'no', data },
});

/** `initialize` refused with `-32022`: naming the stateless revision, or naming none we speak. */
const UNSUPPORTED_VERSION = [
  rpcRefusal(400, -32022, { supported: ['2026-07-28'], requested: '2025-11-25' }),
  rpcRefusal(400, -32022, { supported: ['2099-01-01'], requested: '2025-11-25' }),
];

/** What the stateless POST can answer: every status, two JSON-RPC refusals, and the answers. */
/** A stateless request answered without `resultType`: a 2025 server that ignored the envelope. */
const untypedAnswer = (request: ModelledRequest): RpcExchange => ({
  ...(answers(request)[0] as Extract<RpcExchange, { kind: 'response' }>),
  untyped: true,
});

/** An `input_required` answer: the server asks the caller to confirm first. */
const askedForInput: RpcExchange = {
  kind: 'response',
  value: undefined,
  sessionId: undefined,
  inputRequired: {
    inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'Sure?' } } },
    requestState: 'state-1',
  },
};

// `input_required` comes only with `tools/call` (the specification's multi round-trip requests).
const statelessOutcomes = (request: ModelledRequest) => [
  ...requestOutcomes('postStatelessRequest', request),
  ...(request === 'tools/call' ? [done('postStatelessRequest', askedForInput)] : []),
  done('postStatelessRequest', untypedAnswer(request)),
  done('postStatelessRequest', rpcRefusal(400, -32602)),
  done('postStatelessRequest', rpcRefusal(404, -32601)),
  // A 2025 server's refusal of a revision it does not speak (the 2025 SDK's answer).
  done('postStatelessRequest', rpcRefusal(400, -32000)),
  done('postStatelessRequest', rpcRefusal(400, -32022, { supported: ['2025-11-25'] })),
  // Naming this very revision: one corrective retry.
  done('postStatelessRequest', rpcRefusal(400, -32022, { supported: ['2026-07-28'] })),
  done('postStatelessRequest', rpcRefusal(400, -32022, { supported: ['2099-01-01'] })),
];

const legacyPostOutcomes = (id: string) => [
  done(id, accepted),
  done(id, httpError(401)),
  done(id, httpError(500)),
];

const rpcResult = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });

/** The concrete events of the model, per event type. */
function eventCasesFor(
  request: ModelledRequest,
): Readonly<Record<string, readonly AnyEventObject[]>> {
  return {
    'xstate.done.actor.resolveCredentials': [done('resolveCredentials', new SecretValue('token'))],
    'xstate.error.actor.resolveCredentials': [failed('resolveCredentials', new Error('provider'))],
    'xstate.done.actor.postInitialize': [
      ...MODEL_STATUSES.map((status) => done('postInitialize', httpError(status))),
      done('postInitialize', initialized(true)),
      done('postInitialize', initialized(false)),
      done('postInitialize', interrupted),
    ],
    'xstate.error.actor.postInitialize': [failed('postInitialize', new Error('network'))],
    // A new session's `initialize`, after the server lost the first one.
    'xstate.done.actor.postReinitialize': [
      ...MODEL_STATUSES.map((status) => done('postReinitialize', httpError(status))),
      done('postReinitialize', initialized(true)),
      done('postReinitialize', initialized(false)),
      done('postReinitialize', interrupted),
    ],
    'xstate.error.actor.postReinitialize': [failed('postReinitialize', new Error('network'))],
    'xstate.done.actor.postInitialized': [
      done('postInitialized', accepted),
      done('postInitialized', httpError(500)),
    ],
    'xstate.error.actor.postInitialized': [
      failed('postInitialized', tooLarge),
      failed('postInitialized', redirected),
      failed('postInitialized', new Error('network')),
    ],
    'xstate.done.actor.postRequest': requestOutcomes('postRequest', request),
    'xstate.error.actor.postRequest': [failed('postRequest', new Error('network'))],
    'xstate.done.actor.resumeRequest': requestOutcomes('resumeRequest', request),
    'xstate.error.actor.resumeRequest': [failed('resumeRequest', new Error('network'))],
    'xstate.done.actor.postStatelessRequest': statelessOutcomes(request),
    'xstate.error.actor.postStatelessRequest': [
      failed('postStatelessRequest', new Error('network')),
    ],
    'xstate.done.actor.answerInputRequests': [
      { type: 'xstate.done.actor.answerInputRequests', output: { confirm: { action: 'accept' } } },
    ],
    'xstate.error.actor.answerInputRequests': [failed('answerInputRequests', new Error('refused'))],
    'xstate.done.actor.postLegacyInitialize': legacyPostOutcomes('postLegacyInitialize'),
    'xstate.error.actor.postLegacyInitialize': [failed('postLegacyInitialize', new Error('net'))],
    'xstate.done.actor.postLegacyInitialized': [done('postLegacyInitialized', accepted)],
    'xstate.error.actor.postLegacyInitialized': [
      failed('postLegacyInitialized', tooLarge),
      failed('postLegacyInitialized', redirected),
      failed('postLegacyInitialized', new Error('network')),
    ],
    'xstate.done.actor.postLegacyRequest': legacyPostOutcomes('postLegacyRequest'),
    'xstate.error.actor.postLegacyRequest': [failed('postLegacyRequest', new Error('network'))],
    'xstate.done.actor.postCancelled': [done('postCancelled', accepted)],
    'xstate.error.actor.postCancelled': [failed('postCancelled', new Error('network'))],
    'xstate.done.actor.driveTask': TASK_ENDINGS.map((output) => ({
      type: 'xstate.done.actor.driveTask',
      output,
    })),
    'xstate.error.actor.driveTask': [failed('driveTask', new Error('task machine'))],
    'xstate.done.actor.deleteSession': [{ type: 'xstate.done.actor.deleteSession' }],
    'xstate.error.actor.deleteSession': [failed('deleteSession', new Error('network'))],
    SSE_ENDPOINT: [
      { type: 'SSE_ENDPOINT', url: 'http://127.0.0.1:7000/messages?sessionId=1', bytes: 60 },
      { type: 'SSE_ENDPOINT', url: 'http://127.0.0.1:7001/messages', bytes: 60 },
      { type: 'SSE_ENDPOINT', url: 'http://127.0.0.1:7000/messages', bytes: 1_000_000 },
    ],
    SSE_MESSAGE: [
      {
        type: 'SSE_MESSAGE',
        bytes: 20,
        message: rpcResult(1, {
          protocolVersion: SESSION_REVISION,
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        }),
      },
      {
        type: 'SSE_MESSAGE',
        bytes: 20,
        message: rpcResult(1, {
          protocolVersion: '1999-01-01',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        }),
      },
      { type: 'SSE_MESSAGE', message: rpcResult(2, { content: [] }), bytes: 20 },
      {
        type: 'SSE_MESSAGE',
        bytes: 20,
        message: { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } },
      },
      {
        type: 'SSE_MESSAGE',
        message: rpcResult(2, { tools: [], nextCursor: 'page-2' }),
        bytes: 20,
      },
      { type: 'SSE_MESSAGE', message: rpcResult(3, { tools: [] }), bytes: 20 },
      {
        type: 'SSE_MESSAGE',
        message: rpcResult(3, { tools: [], nextCursor: 'page-3' }),
        bytes: 20,
      },
      { type: 'SSE_MESSAGE', message: rpcResult(99, {}), bytes: 20 },
      {
        type: 'SSE_MESSAGE',
        bytes: 20,
        message: {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 2, progress: 1, total: 2 },
        },
      },
      // Past the operation's byte ceiling: the budget edge comes before every other.
      { type: 'SSE_MESSAGE', message: rpcResult(2, { content: [] }), bytes: 1_000_000 },
    ],
    PROGRESS: [{ type: 'PROGRESS', progress: 1, total: 2, message: 'half' }],
    STREAM_REJECTED: [
      { type: 'STREAM_REJECTED', status: 401, body: '' },
      { type: 'STREAM_REJECTED', status: 500, body: 'no' },
    ],
    STREAM_FAILED: [{ type: 'STREAM_FAILED', error: new Error('reset') }],
    BYTES_READ: [
      { type: 'BYTES_READ', bytes: 10 },
      { type: 'BYTES_READ', bytes: 1_000_000 },
    ],
    CALLER_STREAM_OPEN: [{ type: 'CALLER_STREAM_OPEN' }],
    CALLER_STREAM_CLOSED: [{ type: 'CALLER_STREAM_CLOSED' }],
    CANCEL: [{ type: 'CANCEL', reason: 'caller stopped' }],
  };
}

/** Model options shared by the checks and the walk. */
export const mcpModelOptions: ModelOptions = {
  input: mcpModelInput,
  serializeState: serializeMcpState,
  eventCases: eventCasesFor('tools/call'),
  isPossible: isPossibleMcpEvent,
  limit: 20_000,
};

/** Model options of the paged discovery. */
export const mcpListModelOptions: ModelOptions = {
  ...mcpModelOptions,
  input: mcpListModelInput,
  eventCases: eventCasesFor('tools/list'),
};

/** The call of a connection without a token provider: nothing to resolve, no `credentials`. */
export const mcpTokenlessModelOptions: ModelOptions = {
  ...mcpModelOptions,
  input: { ...mcpModelInput, resolvesToken: false },
};

/** Request limits whose progress restarts the window, capped at 4 s from the request's start. */
const extendingLimits = {
  ...mcpModelInput.limits,
  request: { ...mcpModelInput.limits.request, maxTotalTimeoutMs: 4_000 },
};

/** The call of a connection told to speak legacy SSE (no probe), whose progress extends. */
export const mcpSseModelOptions: ModelOptions = {
  ...mcpModelOptions,
  input: { ...mcpModelInput, transportType: 'sse', limits: extendingLimits },
};

/** The call of a connection told to speak Streamable HTTP (no fallback), whose progress extends. */
export const mcpStreamableOnlyModelOptions: ModelOptions = {
  ...mcpModelOptions,
  input: { ...mcpModelInput, transportType: 'streamable-http', limits: extendingLimits },
};

/** A caller that declared sampling: the run holds the standalone stream before its request. */
const samplingCaller: McpCallerRelay = {
  capabilities: { sampling: {} },
  request: async () => ({ result: {} }),
  log: async () => {},
  takesLogs: false,
  defersInput: false,
  answered: undefined,
  acceptsTasks: false,
};

/** The call of a connection told to speak Streamable HTTP, relaying to a caller that can sample. */
export const mcpRelayModelOptions: ModelOptions = {
  ...mcpModelOptions,
  input: { ...mcpModelInput, transportType: 'streamable-http', relay: samplingCaller },
};

const mcpStatelessModelInput = {
  ...mcpModelInput,
  protocolVersion: '2026-07-28',
  limits: extendingLimits,
  maxInputRounds: 2,
} as const;

/**
 * The call of a connection pinned to MCP 2026-07-28: one POST, no handshake, no session; at most
 * two `input_required` rounds, so the limit is reached in the model.
 */
export const mcpStatelessModelOptions: ModelOptions = {
  ...mcpModelOptions,
  input: mcpStatelessModelInput,
};

/** A caller that answers by a retry of the whole call (a gateway's 2026 client), bringing answers. */
const deferringCaller: McpCallerRelay = {
  capabilities: { elicitation: {} },
  request: async () => ({ result: {} }),
  log: async () => {},
  takesLogs: false,
  defersInput: true,
  acceptsTasks: false,
  answered: { inputResponses: { confirm: { action: 'accept' } }, requestState: 's-1' },
};

/**
 * The stateless call of a gateway's 2026 client: its first POST carries the answers it brings, and
 * an `input_required` answer ends the run with the questions instead of an answering round.
 */
export const mcpStatelessDeferringModelOptions: ModelOptions = {
  ...mcpStatelessModelOptions,
  input: { ...mcpStatelessModelInput, relay: deferringCaller },
};

/**
 * The stateless call of a gateway's 2026 client that declared the tasks extension: a created task
 * ends the run with the task (the client polls it through the gateway) instead of `mcpTask`.
 */
export const mcpStatelessTaskTakingModelOptions: ModelOptions = {
  ...mcpStatelessModelOptions,
  input: {
    ...mcpStatelessModelInput,
    relay: { ...deferringCaller, answered: undefined, acceptsTasks: true },
  },
};

/**
 * The retry of a gateway's 2026 client that answers a task's question (decision 0051): its answers
 * go to that task, so the run goes from its credentials straight to `task`, with no request.
 */
export const mcpStatelessResumingModelOptions: ModelOptions = {
  ...mcpStatelessModelOptions,
  input: {
    ...mcpStatelessModelInput,
    relay: {
      ...deferringCaller,
      answered: { inputResponses: { confirm: { action: 'accept' } }, taskId: 'task-1' },
    },
  },
};

/** The paged discovery (two pages at most) of a connection pinned to MCP 2026-07-28. */
export const mcpStatelessListModelOptions: ModelOptions = {
  ...mcpListModelOptions,
  input: { ...mcpListModelInput, protocolVersion: '2026-07-28' },
};

const revisionCallCases = eventCasesFor('tools/call');

/** `initialize` outcomes that include the two `-32022` refusals. */
const revisionCases = {
  ...revisionCallCases,
  'xstate.done.actor.postInitialize': [
    ...(revisionCallCases['xstate.done.actor.postInitialize'] ?? []),
    ...UNSUPPORTED_VERSION.map((refusal) => done('postInitialize', refusal)),
  ],
};

/**
 * The call of a probing (`auto`) connection: the stateless POST first; answered as a 2025 server
 * answers, the 2025 handshake (whose `-32022` can no longer move the run); never SSE from a
 * `-32022`.
 */
export const mcpAutoModelOptions: ModelOptions = {
  ...mcpModelOptions,
  input: { ...mcpModelInput, protocolVersion: 'auto', maxInputRounds: 1 },
  eventCases: revisionCases,
};

/**
 * The call of a tool whose discovery found a 2025 server: the 2025 handshake first; a `-32022`
 * naming 2026-07-28 (the server was upgraded) moves the call to the stateless wire, once.
 */
export const mcpDiscoveredModelOptions: ModelOptions = {
  ...mcpModelOptions,
  input: { ...mcpModelInput, discovered: true, maxInputRounds: 1 },
  eventCases: revisionCases,
};
