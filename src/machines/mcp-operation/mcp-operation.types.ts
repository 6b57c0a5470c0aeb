/**
 * Types of the `mcpOperation` machine: its input, context, events and output, and the shapes its
 * actors report. Context holds data only: secrets and the principal sit in it wrapped in
 * {@link SecretValue}, so serialised snapshots never show them; functions enter through
 * `makeMcpOperationActors(deps)`.
 */

import type { ToolCaller, ToolCallerCapabilities } from '../../binding/contract/caller.js';
import type { CallToolResult } from '../../binding/kernel/mcp-types.js';
import type {
  AuthChallenge,
  ConnectionOperation,
  HostFence,
  InputRequired,
  McpHeaderParam,
  McpToolList,
  OperationScope,
  PhaseLimits,
  RpcErrorBody,
  STATELESS_LOG_LEVEL,
  WireTraceContext,
} from '../../wire/index.js';
import type { TaskSnapshot } from '../../wire/mcp/tasks.js';
import type { CancelEvent, MachineResult } from '../run-machine.js';
import type { SecretValue } from '../secret-value.js';

export type { McpToolList, PhaseLimits } from '../../wire/index.js';
export type { TokenResolver } from '../credentials.js';

/**
 * What every actor of a run shares: the operation's scope, the fence, the headers known so far,
 * and the caller the upstream's requests and log messages are relayed to (still wrapped).
 */
export interface ActorBase {
  readonly scope: OperationScope;
  readonly fence: HostFence;
  readonly headers: HeaderParts;
  readonly relay: SecretValue<McpCallerRelay> | undefined;
  readonly callerCapabilities: ToolCallerCapabilities;
}

/** The MCP request one machine run performs after the handshake. */
export type McpRequest =
  | { readonly method: 'tools/list' }
  | {
      readonly method: 'tools/call';
      readonly params: { readonly name: string; readonly arguments: Record<string, unknown> };
      /** The arguments the stateless wire mirrors into `Mcp-Param-*` headers (`x-mcp-header`). */
      readonly headerParams?: readonly McpHeaderParam[];
      /**
       * 2025-11-25: call the tool as a task (`params.task`), asking the server to keep it `ttlMs`;
       * the stateless wire never sends it (there the server decides).
       */
      readonly task?: { readonly ttlMs: number };
    }
  | {
      /**
       * One request of a task a call handed back to its caller (a gateway relaying the task):
       * stateless wire only, `Mcp-Name` the task id; its answer is read by the caller.
       */
      readonly method: 'tasks/get' | 'tasks/update' | 'tasks/cancel';
      readonly params: {
        readonly taskId: string;
        readonly inputResponses?: Readonly<Record<string, unknown>>;
      };
    };

/** Which wire the operation ended up on. */
export type McpTransportKind = 'streamable-http' | 'sse';

/**
 * Which wire to speak: `auto` probes Streamable HTTP and falls back to legacy SSE on 400/404/405
 * of the first `initialize` (ADR 0180); a named wire is used as told, without probe or fallback.
 */
export type McpTransportChoice = McpTransportKind | 'auto';

/**
 * Which protocol revision to speak: `auto` tries the stateless wire (MCP 2026-07-28, one POST per
 * request) first and speaks 2025-11-25 when the server answers as a 2025 server; a named revision
 * is spoken as told (see `McpOperationInput.discovered` for a revision that may still switch once).
 */
export type McpProtocolChoice = 'auto' | '2026-07-28' | '2025-11-25';

/**
 * A `tasks/*` request's answer, as the server wrote it (its caller reads it with the task
 * readers of `wire/mcp/tasks.ts`).
 */
export type McpTaskAnswer = Readonly<Record<string, unknown>>;

/** The result of the machine's request, by method. */
export type McpRequestResult = McpToolList | CallToolResult | McpTaskAnswer;

/** What a run of `mcpOperation` needs. Built once per connection and call by the connection layer. */
export interface McpOperationInput {
  /** The connection's name; used in host-facing error messages only. */
  readonly connectionName: string;
  /** The connection URL (absolute http(s), already inside the fence). */
  readonly url: string;
  /** Hosts this connection may talk to. */
  readonly fence: HostFence;
  /** Static headers from the connection config, wrapped as secrets. */
  readonly headers: Readonly<Record<string, SecretValue>>;
  /** Who the run acts for (a tool call's handler context); opaque: only the token resolver reads it. */
  readonly principal?: unknown;
  /**
   * Whether the connection has a token provider to call for this run; default `true`. Without one
   * there is nothing to resolve: the run skips `credentials` and its actor.
   */
  readonly resolvesToken?: boolean;
  /** The wire to speak; default `auto` (probe Streamable HTTP, fall back on 400/404/405). */
  readonly transportType?: McpTransportChoice;
  /** The protocol revision to speak; default `auto`. */
  readonly protocolVersion?: McpProtocolChoice;
  /**
   * The named revision is discovery's revision rather than the connection's pin: one answer that
   * contradicts it (a stateless request answered as a 2025 server would, a 2025 `initialize` refused
   * with `-32022` naming 2026-07-28) switches the run to the other revision, once. Default `false`.
   */
  readonly discovered?: boolean;
  /** The request to perform after the handshake. */
  readonly request: McpRequest;
  /**
   * Handshake limits are always the discovery limits; request limits are the phase's (each task
   * request's too); the task deadline bounds a call that became a task (default 10 minutes).
   */
  readonly limits: {
    readonly handshake: PhaseLimits;
    readonly request: PhaseLimits;
    readonly task?: { readonly timeoutMs: number };
  };
  /** How many `tools/list` pages to follow; default `MAX_TOOL_LIST_PAGES`. */
  readonly maxListPages?: number;
  /** How many `input_required` rounds a stateless call answers; default `MAX_INPUT_ROUNDS`. */
  readonly maxInputRounds?: number;
  /**
   * Sent as `_meta.progressToken` with `tools/call` when someone listens to progress; each
   * matching `notifications/progress` is then emitted as a `progress` event of the run.
   */
  readonly progressToken?: string | number;
  /**
   * The call's caller, when it can receive anything: its capabilities are declared upstream, the
   * upstream's requests for them are relayed to it (on the call's stream and, when it declared
   * any, on a standalone GET stream held for the call), and log messages are passed on.
   */
  readonly relay?: McpCallerRelay;
  /** The operation's trace context, for every request's `_meta` and headers (decision 0032). */
  readonly trace?: WireTraceContext;
}

/**
 * The call's caller, reached through the run: the binding's `ctx.caller`. Its capabilities are
 * declared upstream in `initialize`, the upstream's requests for them are relayed to it, and the
 * upstream's log messages are passed on.
 */
export type McpCallerRelay = ToolCaller;

/**
 * The run's deadline moved on: the call became a task, which the run drives until `at` at the
 * latest (ms since the epoch: the task deadline, one request window and the cancel bound). A
 * policy that bounds the run from outside (a connection's retry policy) extends its own deadline
 * to it (decision 0046).
 */
export interface McpDeadlineEvent {
  readonly type: 'deadline';
  readonly at: number;
}

/** What a run emits: the upstream's progress, and a deadline that moved on. */
export type McpOperationEmitted = McpProgressEvent | McpDeadlineEvent;

/** A progress report of the upstream, as the run emits it (`notifications/progress` params). */
export interface McpProgressEvent {
  readonly type: 'progress';
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** A decoded JSON-RPC response: the value, or the protocol error that refused it. */
export type DecodedResponse =
  | {
      readonly ok: true;
      readonly value: unknown;
      /** A stateless answer without `resultType`: a 2025 server that ignored the envelope. */
      readonly untyped?: boolean;
      /** A stateless `input_required` result: what the server asks before it completes. */
      readonly inputRequired?: InputRequired;
      /** A `tools/call` the server runs as a task: the task it created (`value` is undefined). */
      readonly task?: TaskSnapshot;
    }
  | { readonly ok: false; readonly error: unknown };

/** Context of `mcpOperation`: the input with its defaults filled in, then the run's data. */
export interface McpOperationContext
  extends Required<
    Omit<McpOperationInput, 'principal' | 'progressToken' | 'relay' | 'protocolVersion' | 'trace'>
  > {
  /** The protocol revision the run was told to speak (`auto` unless pinned). */
  protocolChoice: McpProtocolChoice;
  /** The run switched from one revision to the other already; it never switches back. */
  switched: boolean;
  /** The run speaks the stateless wire (MCP 2026-07-28): one POST per request, no session. */
  stateless: boolean;
  /** The progress token of the request, when someone listens. */
  progressToken: string | number | undefined;
  /** The operation's trace context, when the host traces it. */
  trace: WireTraceContext | undefined;
  /** The caller relay, wrapped so snapshots never serialise it; wiped at teardown. */
  relay: SecretValue<McpCallerRelay> | undefined;
  /** The capabilities declared upstream in `initialize`: the caller's, or none. */
  callerCapabilities: ToolCallerCapabilities;
  /**
   * The log level a stateless request asks for (`_meta` `logLevel`): `debug`, every message, when the
   * caller takes logs; absent otherwise, so the upstream sends none.
   */
  logLevel: typeof STATELESS_LOG_LEVEL | undefined;
  /** The principal, wrapped so snapshots never serialise it; wiped at teardown. */
  principal: SecretValue<unknown> | undefined;
  /** The bearer token once resolved. */
  token: SecretValue | undefined;
  /** The wire in use. */
  transport: McpTransportKind;
  /** The Streamable HTTP status that sent the run to legacy HTTP+SSE, once it fell back. */
  fallbackStatus: number | undefined;
  /** The legacy SSE POST endpoint, once announced and resolved. */
  endpoint: string | undefined;
  /** The Streamable HTTP session id, when the server assigned one. */
  sessionId: SecretValue | undefined;
  /** The server lost the run's session and the run opened a new one (once per operation). */
  sessionReopened: boolean;
  /** The protocol version the server chose. */
  protocolVersion: string | undefined;
  /** Absolute time (ms since epoch) at which the handshake deadline fires. */
  handshakeDeadlineAt: number;
  /** Absolute time (ms since epoch) at which the request deadline fires. */
  requestDeadlineAt: number;
  /** When the request started, for the `maxTotalTimeoutMs` cap. */
  requestStartedAt: number;
  /** The operation in progress, for errors and limits. */
  operation: ConnectionOperation;
  /** Raw bytes the operation in progress has read. */
  readBytes: number;
  /** Raw byte ceiling of the operation in progress. */
  maxBytes: number;
  /** How many times the request's SSE stream has been resumed. */
  resumeAttempts: number;
  /** The last SSE event id seen on the request's stream. */
  lastEventId: string | undefined;
  /** The server's `retry:` advice for the request's stream, in ms. */
  retryMs: number | undefined;
  /** The JSON-RPC id of the response the run waits for. */
  pendingId: number;
  /** `tools/list` pages collected before the current one. */
  collected: McpToolList | undefined;
  /** The cursor of the `tools/list` page to request next. */
  cursor: string | undefined;
  /** How many `tools/list` pages were collected. */
  page: number;
  /** The pending response taken from the legacy stream, decoded; the Streamable wire needs none. */
  legacyAnswer: DecodedResponse | undefined;
  /** The endpoint accepted the pending legacy POST; its answer on the stream may still be due. */
  legacyAccepted: boolean;
  /** Why the sent request was given up (the caller cancelled, its deadline fired), if it was. */
  abandoned: AbandonCause | undefined;
  /** `input_required` rounds answered so far. */
  inputRound: number;
  /** The caller answers questions by a later retry of the whole call (`defersInput`). */
  defersInput: boolean;
  /** The caller takes a task as the call's answer (`acceptsTasks`): a created task ends the run. */
  handsTaskBack: boolean;
  /** What the server asks in the round in progress, and the state it sent with it. */
  inputRequired: InputRequired | undefined;
  /** The caller's answers to the last round, sent with the retry. */
  inputResponses: Readonly<Record<string, unknown>> | undefined;
  /** The upstream task a retry's answers are for: the run resumes it instead of calling again. */
  resumedTaskId: string | undefined;
  /** The task the call's answer created, once it did (`mcpTask` drives it). */
  task: TaskSnapshot | undefined;
  /** The 2025 server's handshake offered task-augmented tool calls. */
  tasksOffered: boolean;
  /** When the run stops waiting for `mcpTask` (a backstop past the task's own deadlines). */
  taskBackstopAt: number;
  /** The final outcome, decided before teardown. */
  outcome: McpOperationOutput | undefined;
}

/** Why a request that was sent is given up; teardown then sends `notifications/cancelled`. */
export type AbandonCause = 'cancelled' | 'timeout';

/** Events the machine receives besides actor completions and delays. */
export type McpOperationEvent =
  | CancelEvent
  | { readonly type: 'BYTES_READ'; readonly bytes: number }
  | {
      readonly type: 'PROGRESS';
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  /** `bytes`: what the stream read since its last report, carried by this event (decision 0018). */
  | { readonly type: 'SSE_ENDPOINT'; readonly url: string; readonly bytes: number }
  | { readonly type: 'SSE_MESSAGE'; readonly message: unknown; readonly bytes: number }
  | {
      readonly type: 'STREAM_REJECTED';
      readonly status: number;
      readonly body: string;
      /** The `WWW-Authenticate` challenge of a 401 or 403, when it parses. */
      readonly challenge?: AuthChallenge;
    }
  | { readonly type: 'STREAM_ENDED' }
  | { readonly type: 'STREAM_FAILED'; readonly error: unknown }
  /**
   * The session's standalone GET stream is open: it carries the upstream's requests for the
   * caller, and progress for the call.
   */
  | { readonly type: 'CALLER_STREAM_OPEN' }
  /** The standalone GET stream was refused (405 and the like), ended or failed: none is held. */
  | { readonly type: 'CALLER_STREAM_CLOSED' };

/**
 * How one Streamable HTTP exchange ended, as the machine's guards see it. `interrupted` is an SSE
 * response that ended before the answer; it can be resumed only when it had an event id.
 * `unreportedBytes` is what the answer read and no `BYTES_READ` reported (absent: none).
 */
export type RpcExchange = { readonly unreportedBytes?: number } & (
  | {
      readonly kind: 'http-error';
      readonly status: number;
      readonly body: string;
      /** The `WWW-Authenticate` challenge of a 401 or 403, when it parses. */
      readonly challenge?: AuthChallenge;
      /** The JSON-RPC error the body carries, when it is one (a stateless refusal, say). */
      readonly rpcError?: RpcErrorBody;
      /** A 429's or 503's `Retry-After`, in ms. */
      readonly retryAfterMs?: number;
    }
  | { readonly kind: 'accepted'; readonly status: number }
  | {
      readonly kind: 'response';
      readonly value: unknown;
      readonly sessionId: SecretValue | undefined;
      /**
       * A stateless request answered without `resultType`, which every MCP 2026-07-28 result carries:
       * a 2025 server that ignored the envelope sends that.
       */
      readonly untyped?: boolean;
      /** A stateless `input_required` result (its `value` is then undefined). */
      readonly inputRequired?: InputRequired;
      /** A `tools/call` the server runs as a task (its `value` is then undefined). */
      readonly task?: TaskSnapshot;
    }
  | {
      readonly kind: 'interrupted';
      readonly lastEventId: string | undefined;
      readonly retryMs: number | undefined;
    }
);

/** The machine's output: the request's result, or the typed failure (or the caller's reason). */
export type McpOperationOutput = MachineResult<{
  readonly result: McpRequestResult;
  readonly transport: McpTransportKind;
  readonly protocolVersion: string;
  /** The 2025 server offers task-augmented tool calls (`capabilities.tasks.requests.tools.call`). */
  readonly tasksOffered: boolean;
}>;

/** The secret-bearing header parts known so far; revealed only by {@link buildRequestHeaders}. */
export interface HeaderParts {
  readonly staticHeaders: Readonly<Record<string, SecretValue>>;
  readonly token: SecretValue | undefined;
  readonly sessionId: SecretValue | undefined;
  readonly protocolVersion: string | undefined;
  /** The operation's trace context, whose headers every request carries when it has them. */
  readonly trace?: WireTraceContext | undefined;
}
