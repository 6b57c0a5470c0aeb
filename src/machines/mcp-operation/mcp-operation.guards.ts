/**
 * The named guards of `mcpOperation`. Each one is a total predicate over typed params that the
 * chart maps from the event or context at the transition, so a guard never inspects an untyped
 * event and its verdict does not depend on where it sits in a list. Pure: no I/O.
 */

import type { ToolCallerCapabilities } from '../../binding/contract/caller.js';
import {
  ConnectionResponseTooLargeError,
  ConnectionUrlError,
  type HostFence,
  isInsideFence,
  isResponseTo,
  isUnauthorizedStatus,
  MCP_RPC_ERROR,
  SESSION_REVISIONS,
  STATELESS_REVISION,
  supportedVersionsOf,
} from '../../wire/index.js';
import { credentialGuards } from '../credentials.js';
import type { SecretValue } from '../secret-value.js';
import {
  declaresCallerCapabilities,
  isSessionLostStatus,
  isSseFallbackStatus,
  MAX_STREAM_RESUMPTIONS,
  progressOf,
} from './mcp-operation.policy.js';
import type {
  AbandonCause,
  DecodedResponse,
  McpProtocolChoice,
  McpTransportChoice,
  RpcExchange,
} from './mcp-operation.types.js';

/** An exchange, and how many `input_required` rounds the call answered of how many it may. */
export interface InputRoundParams extends ExchangeParams {
  readonly round: number;
  readonly maxRounds: number;
  /** The caller answers by a later retry of the whole call (a gateway's 2026 client). */
  readonly defers: boolean;
}

/** The wire and revision a run was told to speak. */
export interface WireChoiceParams {
  readonly protocolChoice: McpProtocolChoice;
  readonly transportType: McpTransportChoice;
}

/** An exchange, and whether the caller takes a created task itself. */
export interface TaskHandBackParams extends ExchangeParams {
  readonly handsBack: boolean;
}

/** An exchange, and whether the run still probes (`auto`, holding no revision yet). */
export interface ProbeParams extends ExchangeParams {
  readonly probing: boolean;
}

/** An exchange, and whether the run already retried or switched (it then does neither again). */
export interface RetryParams extends ExchangeParams {
  readonly switched: boolean;
}

/** An exchange, and whether the run may still switch to the other revision. */
export interface SwitchParams extends ExchangeParams {
  readonly maySwitch: boolean;
}

const STATELESS_REFUSALS: ReadonlySet<number> = new Set(Object.values(MCP_RPC_ERROR));

/** A JSON-RPC code only a 2026-07-28 server sends (`-32020`, `-32021`, `-32022`). */
function isStatelessRefusal(code: number | undefined): boolean {
  return code !== undefined && STATELESS_REFUSALS.has(code);
}

/** A refusal carrying `-32022`, the stateless wire's "unsupported protocol version". */
function isUnsupportedVersionRefusal(
  exchange: RpcExchange,
): exchange is Extract<RpcExchange, { kind: 'http-error' }> {
  return (
    exchange.kind === 'http-error' &&
    exchange.rpcError?.code === MCP_RPC_ERROR.unsupportedProtocolVersion
  );
}

/** How one exchange ended. */
export interface ExchangeParams {
  readonly exchange: RpcExchange;
}

/** Where a paged `tools/list` stands once a page arrived. */
export interface PageParams {
  /** The cursor the page announced; `undefined` on the last page and for `tools/call`. */
  readonly nextCursor: string | undefined;
  /** Pages collected before this one. */
  readonly page: number;
  /** How many pages the run may follow. */
  readonly maxListPages: number;
}

/** An interrupted exchange, and how often the stream was already resumed. */
export interface ResumeParams extends ExchangeParams {
  readonly resumeAttempts: number;
}

/** Bytes a chunk added to what the operation had read, and its ceiling. */
export interface ReadParams {
  readonly readBytes: number;
  readonly bytes: number;
  readonly maxBytes: number;
}

/** A legacy stream message, and where the step that waits for the pending response stands. */
export interface LegacyStepParams {
  readonly message: unknown;
  readonly pendingId: number;
  /** The endpoint accepted the step's POST. */
  readonly accepted: boolean;
  /** The answer the stream already brought, if it came before the POST's acceptance. */
  readonly answer: DecodedResponse | undefined;
}

/** Every guard of the chart, by the name the chart and the diagrams use. */
export const mcpOperationGuards = {
  ...credentialGuards,

  /**
   * The caller declared something it can answer (sampling, elicitation, roots): the call holds the
   * session's standalone GET stream, where servers send requests not tied to ours, and a stream
   * that does not open by the handshake deadline fails the call. Only then (or for progress, see
   * `listensForSessionProgress`), so a call that cannot relay stays at its three requests.
   */
  relaysToCaller: (
    _: unknown,
    { capabilities }: { readonly capabilities: ToolCallerCapabilities },
  ): boolean => declaresCallerCapabilities(capabilities),

  /**
   * The call asked for progress in a stateful session: the call holds the session's standalone GET
   * stream too, where some servers send a call's progress (mcp-framework does), and relays the
   * reports that carry its token. A sessionless server has no such stream to offer.
   */
  listensForSessionProgress: (
    _: unknown,
    {
      progressToken,
      sessionId,
    }: {
      readonly progressToken: string | number | undefined;
      readonly sessionId: SecretValue | undefined;
    },
  ): boolean => progressToken !== undefined && sessionId !== undefined,

  /**
   * The request that carried the session id was refused with 404: the server no longer knows the
   * session and did not process the request. The run opens a new session and sends it again, once
   * per operation (decision 0037); a second 404 is a request error.
   */
  isLostSession: (
    _: unknown,
    {
      exchange,
      sessionId,
      reopened,
    }: ExchangeParams & {
      readonly sessionId: SecretValue | undefined;
      readonly reopened: boolean;
    },
  ): boolean =>
    !reopened &&
    sessionId !== undefined &&
    exchange.kind === 'http-error' &&
    isSessionLostStatus(exchange.status),

  /** The exchange was refused with 401: authorization is required, on every request. */
  isUnauthorized: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error' && isUnauthorizedStatus(exchange.status),

  /**
   * The exchange was refused with 400, 404 or 405 and the connection probes its wire (`auto`);
   * the chart asks only on the first initialize.
   */
  isFallbackStatus: (
    _: unknown,
    { exchange, transportType }: ExchangeParams & { readonly transportType: McpTransportChoice },
  ): boolean =>
    transportType === 'auto' &&
    exchange.kind === 'http-error' &&
    isSseFallbackStatus(exchange.status),

  /**
   * The run starts on the stateless wire: told to speak MCP 2026-07-28, or probing (`auto`) on a
   * Streamable connection (legacy SSE has no stateless wire).
   */
  startsStateless: (_: unknown, { protocolChoice, transportType }: WireChoiceParams): boolean =>
    transportType !== 'sse' && protocolChoice !== '2025-11-25',

  /**
   * The call resumes an upstream task an earlier attempt left waiting for its caller's answers
   * (the caller answers by a retry, decision 0051), on the stateless wire the task lives on: the
   * run sends the answers to the task instead of calling again.
   */
  resumesTask: (
    _: unknown,
    { taskId, protocolChoice, transportType }: WireChoiceParams & { readonly taskId?: string },
  ): boolean => taskId !== undefined && transportType !== 'sse' && protocolChoice !== '2025-11-25',

  /**
   * The server refused the 2025 handshake with `-32022`, naming 2026-07-28 among the versions it
   * supports, and the run may still switch: the request goes on the stateless wire instead.
   */
  offersStatelessRevision: (_: unknown, { exchange, maySwitch }: SwitchParams): boolean =>
    maySwitch &&
    isUnsupportedVersionRefusal(exchange) &&
    supportedVersionsOf(exchange.rpcError).includes(STATELESS_REVISION),

  /**
   * The stateless request was answered as a 2025 server answers it (400, 404 or 405 without a
   * 2026-07-28 JSON-RPC error: `-32020`, `-32021`, `-32022`), and the run may still switch: it speaks
   * 2025-11-25 instead, starting with `initialize`.
   */
  isSessionServer: (_: unknown, { exchange, maySwitch }: SwitchParams): boolean =>
    maySwitch &&
    exchange.kind === 'http-error' &&
    isSseFallbackStatus(exchange.status) &&
    !isStatelessRefusal(exchange.rpcError?.code),

  /**
   * The stateless request was refused with `-32022` naming 2026-07-28 itself, and the run has not
   * retried or switched yet: one corrective retry, as the specification's negotiation allows.
   */
  offersStatelessRetry: (_: unknown, { exchange, switched }: RetryParams): boolean =>
    !switched &&
    isUnsupportedVersionRefusal(exchange) &&
    supportedVersionsOf(exchange.rpcError).includes(STATELESS_REVISION),

  /**
   * The probe was answered without `resultType`, which every MCP 2026-07-28 result carries: a
   * 2025 server that ignored the envelope. A probing run speaks 2025-11-25 instead, so it calls in
   * the revision its listing came from. A run that holds a revision reads such a result as
   * complete, as the specification says.
   */
  isUntypedAnswer: (_: unknown, { exchange, probing }: ProbeParams): boolean =>
    probing && exchange.kind === 'response' && exchange.untyped === true,

  /**
   * The stateless request was refused with `-32022` naming a 2025 revision this client speaks, and
   * the run may still switch: it speaks 2025-11-25 instead.
   */
  offersSessionRevision: (_: unknown, { exchange, maySwitch }: SwitchParams): boolean =>
    maySwitch &&
    isUnsupportedVersionRefusal(exchange) &&
    supportedVersionsOf(exchange.rpcError).some((version) => SESSION_REVISIONS.includes(version)),

  /**
   * The server refused the protocol version with `-32022` (MCP 2026-07-28): a 2026-07-28 server, so
   * never a reason to fall back to legacy SSE.
   */
  isUnsupportedVersion: (_: unknown, { exchange }: ExchangeParams): boolean =>
    isUnsupportedVersionRefusal(exchange),

  /**
   * The stateless answer is `input_required` and the call may still answer a round: the caller is
   * asked, then the request is sent again with the answers.
   */
  asksForInput: (_: unknown, { exchange, round, maxRounds }: InputRoundParams): boolean =>
    exchange.kind === 'response' && exchange.inputRequired !== undefined && round < maxRounds,

  /**
   * The stateless answer is `input_required` and the caller answers by sending the whole call again
   * (a gateway in front of a 2026 client): the run ends with the questions instead of asking.
   */
  asksForDeferredInput: (_: unknown, { exchange, defers }: InputRoundParams): boolean =>
    defers && exchange.kind === 'response' && exchange.inputRequired !== undefined,

  /** The stateless answer is `input_required` again, past the rounds a call answers. */
  asksForInputPastLimit: (_: unknown, { exchange, round, maxRounds }: InputRoundParams): boolean =>
    exchange.kind === 'response' && exchange.inputRequired !== undefined && round >= maxRounds,

  /** The refusal's body is a JSON-RPC error: the server said why, in its own words. */
  isRpcRefusal: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error' && exchange.rpcError !== undefined,

  /** The connection was told to speak legacy HTTP+SSE: no Streamable probe is sent. */
  isSseOnly: (_: unknown, { transportType }: { readonly transportType: McpTransportChoice }) =>
    transportType === 'sse',

  /** The exchange was refused with any non-2xx status. */
  isHttpError: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error',

  /** The exchange carried the awaited JSON-RPC response. */
  isResponse: (_: unknown, { exchange }: ExchangeParams): boolean => exchange.kind === 'response',
  /**
   * The server runs the call as a task, and the caller takes tasks itself (a gateway whose client
   * declared the tasks extension): the run ends with the task (decision 0050). Before
   * `createsTask`.
   */
  handsTaskBack: (_: unknown, { exchange, handsBack }: TaskHandBackParams): boolean =>
    handsBack && exchange.kind === 'response' && exchange.task !== undefined,
  /** The server runs the call as a task: `mcpTask` drives it to its end (decision 0042). */
  createsTask: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'response' && exchange.task !== undefined,

  /** The SSE response broke off after an event id, and the resumption bound is not reached. */
  canResume: (_: unknown, { exchange, resumeAttempts }: ResumeParams): boolean =>
    exchange.kind === 'interrupted' &&
    exchange.lastEventId !== undefined &&
    resumeAttempts < MAX_STREAM_RESUMPTIONS,

  /** The page announced a next one, and the page limit leaves room for it. */
  hasNextPage: (_: unknown, { nextCursor, page, maxListPages }: PageParams): boolean =>
    nextCursor !== undefined && page + 1 < maxListPages,

  /** The page announced a next one, but the page limit is reached: the catalog is unbounded. */
  hasCursorAtPageLimit: (_: unknown, { nextCursor, page, maxListPages }: PageParams): boolean =>
    nextCursor !== undefined && page + 1 >= maxListPages,

  /** The failure was a byte ceiling: it ends the run even where other failures are ignored. */
  isSizeFailure: (_: unknown, { error }: { readonly error: unknown }): boolean =>
    ConnectionResponseTooLargeError.isInstance(error),

  /**
   * The failure was a refused URL (a redirect, on this wire): it ends the run even where other
   * failures are ignored, because every request refuses a redirect, notifications included.
   */
  isUrlRefusal: (_: unknown, { error }: { readonly error: unknown }): boolean =>
    ConnectionUrlError.isInstance(error),

  /** The chunk just read takes the operation over its byte ceiling. */
  exceedsReadBudget: (_: unknown, { readBytes, bytes, maxBytes }: ReadParams): boolean =>
    readBytes + bytes > maxBytes,

  /** The announced legacy endpoint is a URL inside the host fence; checked before any POST. */
  isFencedEndpoint: (
    _: unknown,
    { endpoint, fence }: { readonly endpoint: string | undefined; readonly fence: HostFence },
  ): boolean =>
    endpoint !== undefined && URL.canParse(endpoint) && isInsideFence(new URL(endpoint), fence),

  /**
   * The legacy stream's message answers the pending request, and its POST was already accepted:
   * the step has both its answers.
   */
  isAcceptedResponse: (_: unknown, { message, pendingId, accepted }: LegacyStepParams): boolean =>
    accepted && isResponseTo(message, pendingId),

  /**
   * The legacy stream's message answers the pending request before its POST's own answer: it is
   * held while the POST finishes. A second answer to the same id is not (the first one stands).
   */
  isEarlyResponse: (
    _: unknown,
    { message, pendingId, accepted, answer }: LegacyStepParams,
  ): boolean => !accepted && answer === undefined && isResponseTo(message, pendingId),

  /** The pending request's answer already arrived on the legacy stream. */
  holdsLegacyAnswer: (
    _: unknown,
    { answer }: { readonly answer: DecodedResponse | undefined },
  ): boolean => answer !== undefined,

  /** The legacy stream's answer decoded into a valid result. */
  isAnswered: (_: unknown, { answer }: { readonly answer: DecodedResponse | undefined }): boolean =>
    answer?.ok === true,

  /** The request's phase sets `maxTotalTimeoutMs`, so progress restarts its window. */
  extendsDeadline: (
    _: unknown,
    { maxTotalTimeoutMs }: { readonly maxTotalTimeoutMs: number | undefined },
  ): boolean => maxTotalTimeoutMs !== undefined,

  /** A legacy stream message is progress for our request and the phase lets progress extend. */
  isDeadlineExtendingNotice: (
    _: unknown,
    params: {
      readonly message: unknown;
      readonly progressToken: string | number | undefined;
      readonly maxTotalTimeoutMs: number | undefined;
    },
  ): boolean =>
    params.maxTotalTimeoutMs !== undefined &&
    progressOf(params.message, params.progressToken) !== undefined,

  /** A legacy stream message is the upstream's progress for our request. */
  isProgressNotice: (
    _: unknown,
    {
      message,
      progressToken,
    }: { readonly message: unknown; readonly progressToken: string | number | undefined },
  ): boolean => progressOf(message, progressToken) !== undefined,

  /** The run gave up a request it had sent: teardown sends `notifications/cancelled` first. */
  hasAbandonedRequest: (
    _: unknown,
    { abandoned }: { readonly abandoned: AbandonCause | undefined },
  ): boolean => abandoned !== undefined,

  /** The server assigned a Streamable HTTP session, which teardown must end. */
  hasSession: (
    _: unknown,
    { sessionId }: { readonly sessionId: SecretValue | undefined },
  ): boolean => sessionId !== undefined,
};
