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

const CONNECTION_ERROR_BRAND = Symbol.for('stitchkit-transport.error.CONNECTION_ERROR');

/** A projected failure: always not retryable unless `retryable` says otherwise. */
function projection(
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
 * The base of every connection error. Recognition goes through registered brands, never through
 * the prototype chain, so errors from a second copy of the package still match `instanceof`
 * and `isInstance`.
 */
export abstract class ConnectionError extends Error implements ToolErrorProjecting {
  /** The registered brand of the class; each concrete class has its own. */
  static readonly brand: symbol = CONNECTION_ERROR_BRAND;
  /** Stable machine-readable code of the class. */
  abstract readonly code: string;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    const own = (new.target as unknown as { readonly brand: symbol }).brand;
    for (const brand of new Set([CONNECTION_ERROR_BRAND, own])) {
      Object.defineProperty(this, brand, { value: true, enumerable: false });
    }
  }

  /** True for an instance of this class from any copy of the package. */
  static isInstance<T>(
    this: { readonly brand: symbol; readonly prototype: T },
    value: unknown,
  ): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the concrete subclass and its brand.
    return hasBrand(value, this.brand);
  }

  /** Makes `instanceof` brand-based, so it works across copies of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the concrete subclass and its brand.
    return hasBrand(value, (this as unknown as { readonly brand: symbol }).brand);
  }

  /** The model-safe projection of this failure (DESIGN §2.2); never throws. */
  abstract [TOOL_ERROR_PROJECTION](): AppError;
}

/**
 * A connection error raised while an operation ran: it keeps the connection's name (raw; never
 * projected), the operation and phase it happened in, and the raw bytes read by then.
 */
export abstract class ConnectionOperationError extends ConnectionError {
  /** The connection's configured name (raw; never projected). */
  readonly connectionName: string;
  /** The step that failed; absent when the caller did not say. */
  readonly operation: ConnectionOperation | undefined;
  /** The phase of that step, whose limits were in force. */
  readonly phase: ConnectionPhase;
  /** Raw bytes the operation had read when it failed. */
  readonly observedReadBytes: number;

  constructor(message: string, connectionName: string, context?: ConnectionFailureContext) {
    super(message, causeOption(context));
    const resolved = resolveContext(context);
    this.connectionName = connectionName;
    this.operation = resolved.operation;
    this.phase = resolved.phase;
    this.observedReadBytes = resolved.observedReadBytes;
  }
}

/** The upstream answered 401: the credential is missing, expired or revoked. */
export class ConnectionAuthorizationRequiredError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.authorizationRequired);
  override readonly name = 'ConnectionAuthorizationRequiredError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.authorizationRequired;

  constructor(connectionName: string, context?: ConnectionFailureContext) {
    super(`Connection "${connectionName}" requires authorization`, connectionName, context);
  }

  /** `UNAUTHORIZED` / 401, not retryable without a new credential. */
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

/** The upstream answered with a non-2xx status other than 401 (403 included). */
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

  constructor(
    connectionName: string,
    status: number,
    body: string,
    context?: ConnectionFailureContext,
  ) {
    super(
      `Connection "${connectionName}" request failed with status ${status}`,
      connectionName,
      context,
    );
    this.status = status;
    this.body = body.slice(0, MAX_ERROR_BODY_CHARS);
  }

  /** 403 is `FORBIDDEN`; anything else is `CONNECTION_REQUEST_FAILED` / 502. */
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
      { message, reason: 'upstream-request-failed', ...where },
      { retryable: isRetryableStatus(this.status) },
    );
  }
}

/**
 * A URL was refused: unparseable, not http(s), carrying userinfo, outside the host fence, a
 * redirect, or an off-fence SSE endpoint.
 */
export class ConnectionUrlError extends ConnectionError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.url);
  override readonly name = 'ConnectionUrlError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.url;
  /** The refused URL, redacted to origin and path (no userinfo, query or fragment). */
  readonly url: string | undefined;
  /** The operation whose request was refused; absent for definition-time refusals. */
  readonly operation: ConnectionOperation | undefined;
  /** The phase of that operation; absent for definition-time refusals. */
  readonly phase: ConnectionPhase | undefined;

  /** `message` is for hosts and logs; callers must not put query strings or tokens in it. */
  constructor(
    message: string,
    url?: string | URL,
    options?: ErrorOptions & { operation?: ConnectionOperation; phase?: ConnectionPhase },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.url = url === undefined ? undefined : redactForError(url);
    this.operation = options?.operation;
    this.phase = options?.phase;
  }

  /** `BAD_REQUEST` / 400: retrying the same URL cannot succeed. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const message = 'The connection refused a URL outside its policy.';
    const where =
      this.operation === undefined ? {} : { operation: this.operation, phase: this.phase };
    return projection('BAD_REQUEST', 400, { message, reason: 'url-rejected', ...where });
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

/** A deadline fired before the operation finished. */
export class ConnectionTimeoutError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.timeout);
  override readonly name = 'ConnectionTimeoutError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.timeout;
  /** The deadline that fired, in milliseconds. */
  readonly timeoutMs: number;

  constructor(connectionName: string, timeoutMs: number, context?: ConnectionFailureContext) {
    super(
      `Connection "${connectionName}" timed out after ${timeoutMs} ms`,
      connectionName,
      context,
    );
    this.timeoutMs = timeoutMs;
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

  constructor(connectionName: string, maxBytes: number, context?: ConnectionFailureContext) {
    super(
      `Connection "${connectionName}" response exceeded the ${maxBytes} byte limit`,
      connectionName,
      context,
    );
    this.maxBytes = maxBytes;
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
export class ConnectionProtocolError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.protocol);
  override readonly name = 'ConnectionProtocolError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.protocol;
  /** The JSON-RPC error code, when the upstream answered with a JSON-RPC error. */
  readonly rpcCode: number | undefined;

  /** `message` is for hosts and logs (it may quote upstream text); it is never projected. */
  constructor(
    connectionName: string,
    message: string,
    context?: ConnectionFailureContext & { rpcCode?: number },
  ) {
    super(message, connectionName, context);
    this.rpcCode = context?.rpcCode;
  }

  /** `CONNECTION_PROTOCOL_ERROR` / 502, not retryable. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection('CONNECTION_PROTOCOL_ERROR', 502, {
      message:
        this.rpcCode === undefined
          ? 'The connection returned a malformed response.'
          : `The connection answered with JSON-RPC error ${this.rpcCode}.`,
      reason: 'protocol-error',
      operation: this.operation,
      phase: this.phase,
      rpcCode: this.rpcCode,
    });
  }
}

/** The mounted connections expose more tools or schema bytes than the mount budget allows. */
export class ConnectionBudgetExceededError extends ConnectionError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.budgetExceeded);
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

  /** `BAD_REQUEST` / 400: the mount configuration must change. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection('BAD_REQUEST', 400, {
      message: `Connection surface exposes ${this.actual} ${this.unit}, above the budget of ${this.limit}.`,
      reason: 'mount-budget-exceeded',
      limit: this.limit,
      actual: this.actual,
      unit: this.unit,
    });
  }
}
