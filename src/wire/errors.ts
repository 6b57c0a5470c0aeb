/**
 * The connection error classes (DESIGN §2.2). Each one keeps the raw facts for host hooks and
 * projects itself onto a model-safe {@link AppError}: the projection never carries a connection
 * name, URL, token or upstream body.
 */
import {
  AppError,
  isRetryableStatus,
  TOOL_ERROR_PROJECTION,
  type ToolErrorProjecting,
} from '../binding/app-error.js';
import { type ConnectionOperation, type ConnectionPhase, phaseOfOperation } from './operation.js';

export type { ConnectionOperation, ConnectionPhase } from './operation.js';

/** The longest excerpt of an upstream error body an error keeps. */
export const MAX_ERROR_BODY_CHARS = 512;

/** Where a failure happened and how much had been read when it did. */
export interface ConnectionFailureContext {
  /** The step that failed; a closed vocabulary. */
  operation?: ConnectionOperation;
  /** The limits in force; derived from `operation` when absent, else `call`. */
  phase?: ConnectionPhase;
  /** Raw bytes read for the operation so far; defaults to 0. */
  observedReadBytes?: number;
  /** The underlying failure, kept in-process only (standard `Error.cause`). */
  cause?: unknown;
}

/** Stable codes of the connection error classes; each one also names the class brand. */
export const CONNECTION_ERROR_CODES = Object.freeze({
  authorizationRequired: 'CONNECTION_AUTHORIZATION_REQUIRED',
  request: 'CONNECTION_REQUEST_FAILED',
  url: 'CONNECTION_URL_REJECTED',
  timeout: 'CONNECTION_TIMEOUT',
  responseTooLarge: 'CONNECTION_RESPONSE_TOO_LARGE',
  protocol: 'CONNECTION_PROTOCOL_ERROR',
  budgetExceeded: 'CONNECTION_BUDGET_EXCEEDED',
} as const);

function brandFor(code: string): symbol {
  return Symbol.for(`stitchkit-transport.error.${code}`);
}

function hasBrand(value: unknown, brand: symbol): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}

interface ResolvedContext {
  operation: ConnectionOperation | undefined;
  phase: ConnectionPhase;
  observedReadBytes: number;
}

function resolveContext(context: ConnectionFailureContext | undefined): ResolvedContext {
  const operation = context?.operation;
  return {
    operation,
    phase: context?.phase ?? (operation === undefined ? 'call' : phaseOfOperation(operation)),
    observedReadBytes: context?.observedReadBytes ?? 0,
  };
}

function causeOption(context: ConnectionFailureContext | undefined): ErrorOptions | undefined {
  return context !== undefined && 'cause' in context ? { cause: context.cause } : undefined;
}

/** Only defined fields, so projected JSON has no `undefined` holes. */
function safeDetails(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

const AUTHORIZATION_BRAND = brandFor(CONNECTION_ERROR_CODES.authorizationRequired);

/** The upstream answered 401: the credential is missing, expired or revoked. */
export class ConnectionAuthorizationRequiredError extends Error implements ToolErrorProjecting {
  override readonly name = 'ConnectionAuthorizationRequiredError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.authorizationRequired;
  /** The connection's configured name (raw; never projected). */
  readonly connectionName: string;
  /** The step that was refused. */
  readonly operation: ConnectionOperation | undefined;
  /** The phase of that step. */
  readonly phase: ConnectionPhase;

  constructor(connectionName: string, context?: ConnectionFailureContext) {
    super(`Connection "${connectionName}" requires authorization`, causeOption(context));
    const resolved = resolveContext(context);
    this.connectionName = connectionName;
    this.operation = resolved.operation;
    this.phase = resolved.phase;
  }

  get [AUTHORIZATION_BRAND](): true {
    return true;
  }

  /** True for an instance from any copy of this package. */
  static isInstance(value: unknown): value is ConnectionAuthorizationRequiredError {
    return hasBrand(value, AUTHORIZATION_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, AUTHORIZATION_BRAND);
  }

  /** `UNAUTHORIZED` / 401, not retryable without a new credential. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const message = 'The connection requires authorization.';
    return new AppError('UNAUTHORIZED', {
      message,
      status: 401,
      retryable: false,
      hint: 'Obtain a new credential before retrying.',
      details: safeDetails({
        message,
        reason: 'authorization-required',
        operation: this.operation,
        phase: this.phase,
      }),
    });
  }
}

const REQUEST_BRAND = brandFor(CONNECTION_ERROR_CODES.request);

/** The upstream answered with a non-2xx status other than 401 (403 included). */
export class ConnectionRequestError extends Error implements ToolErrorProjecting {
  override readonly name = 'ConnectionRequestError';
  /** Stable code of this class (the projection says `FORBIDDEN` for a 403). */
  readonly code = CONNECTION_ERROR_CODES.request;
  /** The connection's configured name (raw; never projected). */
  readonly connectionName: string;
  /** The upstream HTTP status. */
  readonly status: number;
  /** At most {@link MAX_ERROR_BODY_CHARS} characters of the error body (raw; never projected). */
  readonly body: string;
  /** The step that failed. */
  readonly operation: ConnectionOperation | undefined;
  /** The phase of that step. */
  readonly phase: ConnectionPhase;

  constructor(
    connectionName: string,
    status: number,
    body: string,
    context?: ConnectionFailureContext,
  ) {
    super(
      `Connection "${connectionName}" request failed with status ${status}`,
      causeOption(context),
    );
    const resolved = resolveContext(context);
    this.connectionName = connectionName;
    this.status = status;
    this.body = body.slice(0, MAX_ERROR_BODY_CHARS);
    this.operation = resolved.operation;
    this.phase = resolved.phase;
  }

  get [REQUEST_BRAND](): true {
    return true;
  }

  /** True for an instance from any copy of this package. */
  static isInstance(value: unknown): value is ConnectionRequestError {
    return hasBrand(value, REQUEST_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, REQUEST_BRAND);
  }

  /** 403 is `FORBIDDEN`; anything else is `CONNECTION_REQUEST_FAILED` / 502. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const base = { operation: this.operation, phase: this.phase, upstreamStatus: this.status };
    if (this.status === 403) {
      const message = 'The connection refused the request: permission denied.';
      return new AppError('FORBIDDEN', {
        message,
        status: 403,
        retryable: false,
        details: safeDetails({ message, reason: 'permission-denied', ...base }),
      });
    }
    const message = `The connection request failed with upstream status ${this.status}.`;
    return new AppError('CONNECTION_REQUEST_FAILED', {
      message,
      status: 502,
      retryable: isRetryableStatus(this.status),
      details: safeDetails({ message, reason: 'upstream-request-failed', ...base }),
    });
  }
}

const URL_BRAND = brandFor(CONNECTION_ERROR_CODES.url);

/**
 * A URL was refused: unparseable, not http(s), carrying userinfo, outside the host fence, a
 * redirect, or an off-fence SSE endpoint.
 */
export class ConnectionUrlError extends Error implements ToolErrorProjecting {
  override readonly name = 'ConnectionUrlError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.url;
  /** The refused URL, redacted to origin and path (no userinfo, query or fragment). */
  readonly url: string | undefined;

  /** `message` is for hosts and logs; callers must not put query strings or tokens in it. */
  constructor(message: string, url?: string | URL, options?: ErrorOptions) {
    super(message, options);
    this.url = url === undefined ? undefined : redactForError(url);
  }

  get [URL_BRAND](): true {
    return true;
  }

  /** True for an instance from any copy of this package. */
  static isInstance(value: unknown): value is ConnectionUrlError {
    return hasBrand(value, URL_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, URL_BRAND);
  }

  /** `BAD_REQUEST` / 400: retrying the same URL cannot succeed. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const message = 'The connection refused a URL outside its policy.';
    return new AppError('BAD_REQUEST', {
      message,
      status: 400,
      retryable: false,
      details: { message, reason: 'url-rejected' },
    });
  }
}

/** Origin plus path; anything unparseable is dropped rather than echoed. */
function redactForError(url: string | URL): string {
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    return parsed.origin === 'null'
      ? `${parsed.protocol}${parsed.pathname}`
      : `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '[unparseable URL]';
  }
}

const TIMEOUT_BRAND = brandFor(CONNECTION_ERROR_CODES.timeout);

/** A deadline fired before the operation finished. */
export class ConnectionTimeoutError extends Error implements ToolErrorProjecting {
  override readonly name = 'ConnectionTimeoutError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.timeout;
  /** The connection's configured name (raw; never projected). */
  readonly connectionName: string;
  /** The deadline that fired, in milliseconds. */
  readonly timeoutMs: number;
  /** The step that was running. */
  readonly operation: ConnectionOperation | undefined;
  /** The phase whose deadline fired. */
  readonly phase: ConnectionPhase;
  /** Raw bytes read before the deadline. */
  readonly observedReadBytes: number;

  constructor(connectionName: string, timeoutMs: number, context?: ConnectionFailureContext) {
    super(`Connection "${connectionName}" timed out after ${timeoutMs} ms`, causeOption(context));
    const resolved = resolveContext(context);
    this.connectionName = connectionName;
    this.timeoutMs = timeoutMs;
    this.operation = resolved.operation;
    this.phase = resolved.phase;
    this.observedReadBytes = resolved.observedReadBytes;
  }

  get [TIMEOUT_BRAND](): true {
    return true;
  }

  /** True for an instance from any copy of this package. */
  static isInstance(value: unknown): value is ConnectionTimeoutError {
    return hasBrand(value, TIMEOUT_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, TIMEOUT_BRAND);
  }

  /** `CONNECTION_TIMEOUT` / 504, not retryable: the same budget would fail again. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const message = `The connection timed out after ${this.timeoutMs} ms.`;
    return new AppError('CONNECTION_TIMEOUT', {
      message,
      status: 504,
      retryable: false,
      details: safeDetails({
        message,
        reason: 'deadline-exceeded',
        operation: this.operation,
        phase: this.phase,
        timeoutMs: this.timeoutMs,
        observedReadBytes: this.observedReadBytes,
      }),
    });
  }
}

const TOO_LARGE_BRAND = brandFor(CONNECTION_ERROR_CODES.responseTooLarge);

/** A raw byte ceiling (total or per SSE frame) was crossed. */
export class ConnectionResponseTooLargeError extends Error implements ToolErrorProjecting {
  override readonly name = 'ConnectionResponseTooLargeError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.responseTooLarge;
  /** The connection's configured name (raw; never projected). */
  readonly connectionName: string;
  /** The ceiling that was crossed, in raw bytes. */
  readonly maxBytes: number;
  /** The step that was reading. */
  readonly operation: ConnectionOperation | undefined;
  /** The phase whose ceiling applied. */
  readonly phase: ConnectionPhase;
  /** Raw bytes read when the ceiling was crossed. */
  readonly observedReadBytes: number;

  constructor(connectionName: string, maxBytes: number, context?: ConnectionFailureContext) {
    super(
      `Connection "${connectionName}" response exceeded the ${maxBytes} byte limit`,
      causeOption(context),
    );
    const resolved = resolveContext(context);
    this.connectionName = connectionName;
    this.maxBytes = maxBytes;
    this.operation = resolved.operation;
    this.phase = resolved.phase;
    this.observedReadBytes = resolved.observedReadBytes;
  }

  get [TOO_LARGE_BRAND](): true {
    return true;
  }

  /** True for an instance from any copy of this package. */
  static isInstance(value: unknown): value is ConnectionResponseTooLargeError {
    return hasBrand(value, TOO_LARGE_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, TOO_LARGE_BRAND);
  }

  /** `CONNECTION_RESPONSE_TOO_LARGE` / 413, not retryable. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const message = `The connection response exceeded the ${this.maxBytes} byte limit.`;
    return new AppError('CONNECTION_RESPONSE_TOO_LARGE', {
      message,
      status: 413,
      retryable: false,
      details: safeDetails({
        message,
        reason: 'response-too-large',
        operation: this.operation,
        phase: this.phase,
        maxResponseBytes: this.maxBytes,
        observedReadBytes: this.observedReadBytes,
      }),
    });
  }
}

const PROTOCOL_BRAND = brandFor(CONNECTION_ERROR_CODES.protocol);

/**
 * The upstream broke the protocol: not JSON, an id mismatch, a stream that ended without a
 * response, an invalid MCP result, or a JSON-RPC error response (`rpcCode`).
 */
export class ConnectionProtocolError extends Error implements ToolErrorProjecting {
  override readonly name = 'ConnectionProtocolError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.protocol;
  /** The connection's configured name (raw; never projected). */
  readonly connectionName: string;
  /** The step whose answer was malformed. */
  readonly operation: ConnectionOperation | undefined;
  /** The phase of that step. */
  readonly phase: ConnectionPhase;
  /** Raw bytes read for the operation. */
  readonly observedReadBytes: number;
  /** The JSON-RPC error code, when the upstream answered with a JSON-RPC error. */
  readonly rpcCode: number | undefined;

  /** `message` is for hosts and logs (it may quote upstream text); it is never projected. */
  constructor(
    connectionName: string,
    message: string,
    context?: ConnectionFailureContext & { rpcCode?: number },
  ) {
    super(message, causeOption(context));
    const resolved = resolveContext(context);
    this.connectionName = connectionName;
    this.operation = resolved.operation;
    this.phase = resolved.phase;
    this.observedReadBytes = resolved.observedReadBytes;
    this.rpcCode = context?.rpcCode;
  }

  get [PROTOCOL_BRAND](): true {
    return true;
  }

  /** True for an instance from any copy of this package. */
  static isInstance(value: unknown): value is ConnectionProtocolError {
    return hasBrand(value, PROTOCOL_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, PROTOCOL_BRAND);
  }

  /** `CONNECTION_PROTOCOL_ERROR` / 502, not retryable. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const message =
      this.rpcCode === undefined
        ? 'The connection returned a malformed response.'
        : `The connection answered with JSON-RPC error ${this.rpcCode}.`;
    return new AppError('CONNECTION_PROTOCOL_ERROR', {
      message,
      status: 502,
      retryable: false,
      details: safeDetails({
        message,
        reason: 'protocol-error',
        operation: this.operation,
        phase: this.phase,
        rpcCode: this.rpcCode,
      }),
    });
  }
}

const BUDGET_BRAND = brandFor(CONNECTION_ERROR_CODES.budgetExceeded);

/** The mounted connections expose more tools or schema bytes than the mount budget allows. */
export class ConnectionBudgetExceededError extends Error implements ToolErrorProjecting {
  override readonly name = 'ConnectionBudgetExceededError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.budgetExceeded;
  /** The configured budget. */
  readonly limit: number;
  /** What the connections actually expose. */
  readonly actual: number;
  /** What is counted. */
  readonly unit: 'tools' | 'schema bytes';

  constructor(limit: number, actual: number, unit: 'tools' | 'schema bytes' = 'tools') {
    super(`Connection surface exposes ${actual} ${unit}, above the budget of ${limit}`);
    this.limit = limit;
    this.actual = actual;
    this.unit = unit;
  }

  get [BUDGET_BRAND](): true {
    return true;
  }

  /** True for an instance from any copy of this package. */
  static isInstance(value: unknown): value is ConnectionBudgetExceededError {
    return hasBrand(value, BUDGET_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, BUDGET_BRAND);
  }

  /** `BAD_REQUEST` / 400: the mount configuration must change. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const message = `Connection surface exposes ${this.actual} ${this.unit}, above the budget of ${this.limit}.`;
    return new AppError('BAD_REQUEST', {
      message,
      status: 400,
      retryable: false,
      details: {
        message,
        reason: 'mount-budget-exceeded',
        limit: this.limit,
        actual: this.actual,
        unit: this.unit,
      },
    });
  }
}
