/**
 * The connection error classes. Every one is built the same way, `new XError(fields)`: one object
 * holding the scope (connection, operation, phase, bytes read, cause) and the class's own facts;
 * the class writes its own message. Each keeps the raw facts for host hooks and projects itself
 * onto a model-safe {@link AppError}: the projection never carries a connection name, URL, token
 * or upstream body (docs/architecture.md, "Errors").
 */

import {
  AppError,
  isRetryableStatus,
  TOOL_ERROR_PROJECTION,
  type ToolErrorProjecting,
} from '../../binding/kernel/app-error.js';
import { BrandedError } from '../../binding/kernel/branded-error.js';
import {
  MCP_INPUT_REQUIRED,
  MCP_REQUIRED_CAPABILITIES,
  type McpCapabilityRequiring,
  type McpInputRequest,
  type McpInputRequiring,
} from '../../binding/kernel/mcp-protocols.js';
import { MCP_RPC_ERROR } from '../../binding/kernel/rpc-codes.js';
import { brandSymbol } from '../../binding/kernel/type-guards.js';
import {
  type ConnectionOperation,
  type ConnectionPhase,
  type OperationScope,
  phaseOfOperation,
} from '../core/operation.js';
import { redactUrl } from '../core/redact.js';
import type { AuthChallenge } from '../core/www-authenticate.js';

export type { ConnectionOperation, ConnectionPhase, OperationScope } from '../core/operation.js';
export type { AuthChallenge } from '../core/www-authenticate.js';

/** ` during <operation>` for a failure's message, or nothing when it has no operation. */
export function duringOperation(operation: ConnectionOperation | undefined): string {
  return operation === undefined ? '' : ` during ${operation}`;
}

/** The longest excerpt of an upstream error body an error keeps. */
export const MAX_ERROR_BODY_CHARS = 512;

/**
 * What every connection error is built from: the scope it happened in (operation and phase are
 * absent only for refusals at definition time) and the underlying cause.
 */
export type ConnectionErrorScope = Pick<OperationScope, 'connectionName'> &
  Partial<Omit<OperationScope, 'connectionName'>> & {
    /** The underlying failure, kept in-process only (standard `Error.cause`). */
    readonly cause?: unknown;
  };

/** Stable codes of the connection error classes; each one also names the class brand. */
export const CONNECTION_ERROR_CODES = Object.freeze({
  authorizationRequired: 'CONNECTION_AUTHORIZATION_REQUIRED',
  request: 'CONNECTION_REQUEST_FAILED',
  url: 'CONNECTION_URL_REJECTED',
  timeout: 'CONNECTION_TIMEOUT',
  responseTooLarge: 'CONNECTION_RESPONSE_TOO_LARGE',
  protocol: 'CONNECTION_PROTOCOL_ERROR',
  inputRequired: 'CONNECTION_INPUT_REQUIRED',
  network: 'CONNECTION_NETWORK_ERROR',
  credential: 'CONNECTION_CREDENTIAL_INVALID',
  task: 'CONNECTION_TASK_FAILED',
  taskCreated: 'CONNECTION_TASK_CREATED',
} as const);

/** The registered brand of the error class with `code` (the wire's error modules share it). */
export function brandFor(code: string): symbol {
  return brandSymbol(`error.${code}`);
}

interface ResolvedContext {
  operation: ConnectionOperation | undefined;
  phase: ConnectionPhase;
  observedReadBytes: number;
}

function resolveScope(scope: ConnectionErrorScope): ResolvedContext {
  const operation = scope.operation;
  return {
    operation,
    phase: scope.phase ?? (operation === undefined ? 'call' : phaseOfOperation(operation)),
    observedReadBytes: scope.observedReadBytes ?? 0,
  };
}

function causeOption(scope: ConnectionErrorScope): ErrorOptions | undefined {
  return 'cause' in scope ? { cause: scope.cause } : undefined;
}

/** Only defined fields, so projected JSON has no `undefined` holes. */
function safeDetails(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** A projected failure: always not retryable unless `retryable` says otherwise. */
export function projection(
  code: string,
  status: number,
  details: Record<string, unknown> & { message: string },
  extra: { retryable?: boolean; hint?: string } = {},
): AppError {
  return new AppError(code, {
    message: details.message,
    status,
    retryable: extra.retryable ?? false,
    details: safeDetails(details),
    ...(extra.hint === undefined ? {} : { hint: extra.hint }),
  });
}

/**
 * The base of every connection error. Like every error of the package it is recognised by
 * registered brands ({@link BrandedError}): each concrete class has its own, and every instance
 * also carries this base's, so `instanceof ConnectionError` holds across package copies.
 */
export abstract class ConnectionError extends BrandedError implements ToolErrorProjecting {
  /** The registered brand shared by every connection error. */
  static override readonly brand: symbol = brandFor('CONNECTION_ERROR');
  /** Stable machine-readable code of the class. */
  abstract readonly code: string;

  /** The model-safe projection of this failure (docs/architecture.md, "Errors"); never throws. */
  abstract [TOOL_ERROR_PROJECTION](): AppError;
}

/**
 * A connection error with a scope: it keeps the connection's name (raw; never projected), the
 * operation and phase it happened in, and the raw bytes read by then. Its message always starts
 * with `Connection "<name>"`, written here and nowhere else.
 */
export abstract class ConnectionOperationError extends ConnectionError {
  /** The connection's configured name (raw; never projected). */
  readonly connectionName: string;
  /** The step that failed; absent for refusals at definition time. */
  readonly operation: ConnectionOperation | undefined;
  /** The phase whose limits were in force: derived from `operation` when not given, else `call`. */
  readonly phase: ConnectionPhase;
  /** Raw bytes the operation had read when it failed; 0 when not given. */
  readonly observedReadBytes: number;

  /** The Streamable HTTP status that led to legacy HTTP+SSE, when the failure came after it. */
  readonly fallbackStatus: number | undefined;

  /**
   * `what` completes the sentence that starts with `Connection "<name>"`; after a fallback to
   * legacy HTTP+SSE the sentence says what the Streamable HTTP POST was answered first.
   */
  protected constructor(scope: ConnectionErrorScope, what: string) {
    const fallback =
      scope.fallbackStatus === undefined
        ? ''
        : ` (after its Streamable HTTP POST was answered ${scope.fallbackStatus}, legacy HTTP+SSE was tried)`;
    super(`Connection "${scope.connectionName}" ${what}${fallback}`, causeOption(scope));
    const resolved = resolveScope(scope);
    this.connectionName = scope.connectionName;
    this.operation = resolved.operation;
    this.phase = resolved.phase;
    this.observedReadBytes = resolved.observedReadBytes;
    this.fallbackStatus = scope.fallbackStatus;
  }
}

/**
 * The upstream answered 401: the credential is missing, expired or revoked. `challenge` says where
 * to reauthorize when the server sent a parseable `WWW-Authenticate` (MCP servers name their
 * `resource_metadata` and `scope` there); it is host-facing and never projected.
 */
export class ConnectionAuthorizationRequiredError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.authorizationRequired);
  override readonly name = 'ConnectionAuthorizationRequiredError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.authorizationRequired;
  /** The server's `WWW-Authenticate` challenge, when it sent one that parses (raw; never projected). */
  readonly challenge: AuthChallenge | undefined;

  constructor(fields: ConnectionErrorScope & { readonly challenge?: AuthChallenge | undefined }) {
    super(fields, 'requires authorization');
    this.challenge = fields.challenge;
  }

  /** `UNAUTHORIZED` / 401, not retryable without a new credential; the challenge stays out. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection(
      'UNAUTHORIZED',
      401,
      {
        message: 'The connection requires authorization.',
        reason: 'authorization-required',
        operation: this.operation,
        phase: this.phase,
      },
      { hint: 'Obtain a new credential before retrying.' },
    );
  }
}

/**
 * The upstream answered with a non-2xx status other than 401 (403 included). A 403 may carry a
 * step-up `challenge` (`error="insufficient_scope"` with the `scope` to ask for).
 */
export class ConnectionRequestError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.request);
  override readonly name = 'ConnectionRequestError';
  /** Stable code of this class (the projection says `FORBIDDEN` for a 403). */
  readonly code = CONNECTION_ERROR_CODES.request;
  /** The upstream HTTP status. */
  readonly status: number;
  /** At most {@link MAX_ERROR_BODY_CHARS} characters of the error body (raw; never projected). */
  readonly body: string;
  /**
   * The `WWW-Authenticate` challenge of a 403 that sent one that parses, e.g. a step-up request
   * (raw; never projected). The wire reads it only on 401 and 403.
   */
  readonly challenge: AuthChallenge | undefined;
  /** How long a 429 or 503 asked to wait (its `Retry-After`), in ms, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(
    fields: ConnectionErrorScope & {
      readonly status: number;
      readonly body: string;
      readonly challenge?: AuthChallenge | undefined;
      readonly retryAfterMs?: number | undefined;
    },
  ) {
    super(fields, `request failed with status ${fields.status}`);
    this.status = fields.status;
    this.body = fields.body.slice(0, MAX_ERROR_BODY_CHARS);
    this.challenge = fields.challenge;
    this.retryAfterMs = fields.retryAfterMs;
  }

  /** 403 is `FORBIDDEN`; anything else is `CONNECTION_REQUEST_FAILED` / 502; no challenge. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const where = { operation: this.operation, phase: this.phase, upstreamStatus: this.status };
    if (this.status === 403) {
      const message = 'The connection refused the request: permission denied.';
      return projection('FORBIDDEN', 403, { message, reason: 'permission-denied', ...where });
    }
    const message = `The connection request failed with upstream status ${this.status}.`;
    return projection(
      'CONNECTION_REQUEST_FAILED',
      502,
      { message, reason: 'upstream-request-failed', ...where, retryAfterMs: this.retryAfterMs },
      { retryable: isRetryableStatus(this.status) },
    );
  }
}

/**
 * A URL was refused: unparseable, not http(s), carrying userinfo, outside the host fence, a
 * redirect, or an off-fence SSE endpoint.
 */
export class ConnectionUrlError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.url);
  override readonly name = 'ConnectionUrlError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.url;
  /** The refused URL, redacted to origin and path (no userinfo, query or fragment). */
  readonly url: string | undefined;
  /**
   * Where a refused redirect pointed, redacted to origin and path, when it stays on the refused
   * URL's host (e.g. `/mcp` to `/mcp/`): the URL the host may configure instead. `undefined` for
   * other refusals and for a redirect to another host, which is never named.
   */
  readonly redirectTo: string | undefined;

  /**
   * `refusal` completes `Connection "<name>" …` (e.g. `refused a redirect (status 307)`); it must
   * not quote a query string or a token. `url` and `redirectTo` are stored redacted.
   */
  constructor(
    fields: ConnectionErrorScope & {
      readonly refusal: string;
      readonly url?: string | URL;
      readonly redirectTo?: string | URL;
    },
  ) {
    super(fields, fields.refusal);
    this.url = fields.url === undefined ? undefined : redactUrl(fields.url);
    this.redirectTo = fields.redirectTo === undefined ? undefined : redactUrl(fields.redirectTo);
  }

  /** `BAD_REQUEST` / 400: retrying the same URL cannot succeed. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const message = 'The connection refused a URL outside its policy.';
    // A refusal at definition time has no operation, so it reports no phase either.
    const where =
      this.operation === undefined ? {} : { operation: this.operation, phase: this.phase };
    return projection('BAD_REQUEST', 400, { message, reason: 'url-rejected', ...where });
  }
}

/** A deadline fired before the operation finished. */
export class ConnectionTimeoutError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.timeout);
  override readonly name = 'ConnectionTimeoutError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.timeout;
  /** The deadline that fired, in milliseconds. */
  readonly timeoutMs: number;

  constructor(fields: ConnectionErrorScope & { readonly timeoutMs: number }) {
    super(fields, `timed out after ${fields.timeoutMs} ms`);
    this.timeoutMs = fields.timeoutMs;
  }

  /** `CONNECTION_TIMEOUT` / 504, not retryable: the same budget would fail again. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection('CONNECTION_TIMEOUT', 504, {
      message: `The connection timed out after ${this.timeoutMs} ms.`,
      reason: 'deadline-exceeded',
      operation: this.operation,
      phase: this.phase,
      timeoutMs: this.timeoutMs,
      observedReadBytes: this.observedReadBytes,
    });
  }
}

/** A raw byte ceiling (total or per SSE frame) was crossed. */
export class ConnectionResponseTooLargeError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.responseTooLarge);
  override readonly name = 'ConnectionResponseTooLargeError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.responseTooLarge;
  /** The ceiling that was crossed, in raw bytes. */
  readonly maxBytes: number;

  constructor(fields: ConnectionErrorScope & { readonly maxBytes: number }) {
    super(fields, `response exceeded the ${fields.maxBytes} byte limit`);
    this.maxBytes = fields.maxBytes;
  }

  /** `CONNECTION_RESPONSE_TOO_LARGE` / 413, not retryable. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection('CONNECTION_RESPONSE_TOO_LARGE', 413, {
      message: `The connection response exceeded the ${this.maxBytes} byte limit.`,
      reason: 'response-too-large',
      operation: this.operation,
      phase: this.phase,
      maxResponseBytes: this.maxBytes,
      observedReadBytes: this.observedReadBytes,
    });
  }
}

/**
 * The upstream broke the protocol: not JSON, an id mismatch, a stream that ended without a
 * response, an invalid MCP result, or a JSON-RPC error response (`rpcCode`).
 */
export class ConnectionProtocolError
  extends ConnectionOperationError
  implements McpCapabilityRequiring
{
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.protocol);
  override readonly name = 'ConnectionProtocolError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.protocol;
  /** The JSON-RPC error code, when the upstream answered with a JSON-RPC error. */
  readonly rpcCode: number | undefined;
  /**
   * The upstream's own message with that code, at most {@link MAX_ERROR_BODY_CHARS} characters,
   * when it sent one; for hosts and logs, never projected.
   */
  readonly rpcMessage: string | undefined;
  /** The model-safe message, when the violation is one of ours to explain (never upstream text). */
  readonly safeMessage: string | undefined;
  /** The JSON-RPC error's `data`, as the upstream sent it (host-facing; never projected). */
  readonly rpcData: unknown;

  /**
   * `violation` completes `Connection "<name>" …` (e.g. `sent a response that was not JSON`); it
   * is for hosts and logs and never projected. `safeMessage`, written by this package, replaces
   * the projection's generic message when the violation needs explaining to the model.
   */
  constructor(
    fields: ConnectionErrorScope & {
      readonly violation: string;
      readonly rpcCode?: number;
      readonly rpcMessage?: string;
      readonly rpcData?: unknown;
      readonly safeMessage?: string;
    },
  ) {
    super(fields, fields.violation);
    this.rpcCode = fields.rpcCode;
    this.rpcMessage = fields.rpcMessage?.slice(0, MAX_ERROR_BODY_CHARS);
    this.rpcData = fields.rpcData;
    this.safeMessage = fields.safeMessage;
  }

  /** A `-32021` refusal's `data.requiredCapabilities`, for a gateway to refuse its client alike. */
  [MCP_REQUIRED_CAPABILITIES](): Readonly<Record<string, unknown>> | undefined {
    if (this.rpcCode !== MCP_RPC_ERROR.missingClientCapability) return undefined;
    const data = this.rpcData as { requiredCapabilities?: unknown } | undefined;
    const required = data?.requiredCapabilities;
    return typeof required === 'object' && required !== null && !Array.isArray(required)
      ? (required as Record<string, unknown>)
      : undefined;
  }

  /** `CONNECTION_PROTOCOL_ERROR` / 502, not retryable. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection('CONNECTION_PROTOCOL_ERROR', 502, {
      message:
        this.safeMessage ??
        (this.rpcCode === undefined
          ? 'The connection returned a malformed response.'
          : `The connection answered with JSON-RPC error ${this.rpcCode}.`),
      reason: 'protocol-error',
      operation: this.operation,
      phase: this.phase,
      rpcCode: this.rpcCode,
    });
  }
}

/**
 * The upstream asked the caller something (`input_required`, MCP 2026-07-28) and the caller answers
 * by sending the whole call again (a gateway in front of a 2026 client,
 * `ToolCallerHandler.defersInput`): the call ends with the questions and the upstream's state,
 * which `mountMcp` answers as its own `input_required`. Never seen by a caller that answers at once.
 */
export class ConnectionInputRequiredError
  extends ConnectionOperationError
  implements McpInputRequiring
{
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.inputRequired);
  override readonly name = 'ConnectionInputRequiredError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.inputRequired;
  /** The questions, by the keys the upstream gave them, as written. */
  readonly inputRequests: Readonly<Record<string, unknown>>;
  /** The upstream's `requestState`, byte for byte, when it sent one. */
  readonly requestState: string | undefined;
  /** The upstream task that asked, when the questions came from inside one. */
  readonly taskId: string | undefined;

  constructor(fields: ConnectionErrorScope & McpInputRequest) {
    super(
      fields,
      fields.taskId === undefined
        ? 'needs answers from the caller before it can answer'
        : `task ${fields.taskId} needs answers from the caller before it can go on`,
    );
    this.inputRequests = fields.inputRequests;
    this.requestState = fields.requestState;
    this.taskId = fields.taskId;
  }

  /** The questions, the state and the task, for the gateway that relays them. */
  [MCP_INPUT_REQUIRED](): McpInputRequest {
    return {
      inputRequests: this.inputRequests,
      ...(this.requestState === undefined ? {} : { requestState: this.requestState }),
      ...(this.taskId === undefined ? {} : { taskId: this.taskId }),
    };
  }

  /** `CONNECTION_INPUT_REQUIRED` / 409, not retryable as it stands (it needs the answers). */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection('CONNECTION_INPUT_REQUIRED', 409, {
      message: 'The connection needs answers from the caller before it can answer.',
      reason: 'input-required',
      operation: this.operation,
      phase: this.phase,
    });
  }
}
