/**
 * Network failures, typed: a connection refused, a name that does not resolve, a reset, a TLS
 * handshake refused, a socket closed before its answer ended. Node and undici report them as
 * plain errors with a `code` (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`, ...), sometimes
 * wrapped in a `cause`; here they become one {@link ConnectionNetworkError} with the operation
 * and phase they ended, and nothing of the host in what the model sees.
 */
import type { AppError } from '../../binding/kernel/app-error.js';
import { TOOL_ERROR_PROJECTION } from '../../binding/kernel/app-error.js';
import {
  brandFor,
  CONNECTION_ERROR_CODES,
  type ConnectionErrorScope,
  ConnectionOperationError,
  duringOperation,
  projection,
} from './errors.js';

/**
 * What failed on the network; `other` is a fault no code of ours names (an error class or code
 * undici adds later, a value that is not an `Error`), typed all the same (decision 0035).
 */
export type NetworkFailure = 'refused' | 'dns' | 'reset' | 'tls' | 'closed' | 'proxy' | 'other';

const BY_CODE: Readonly<Record<string, NetworkFailure>> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  EADDRNOTAVAIL: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'closed',
  UND_ERR_CLOSED: 'closed',
  ECONNABORTED: 'closed',
  ERR_STREAM_PREMATURE_CLOSE: 'closed',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls',
  UNABLE_TO_GET_ISSUER_CERT: 'tls',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'tls',
  CERT_HAS_EXPIRED: 'tls',
  CERT_NOT_YET_VALID: 'tls',
  CERT_UNTRUSTED: 'tls',
  CERT_REJECTED: 'tls',
  HOSTNAME_MISMATCH: 'tls',
};

/** Words for each failure, as the messages use them. */
const DESCRIBED: Readonly<Record<NetworkFailure, string>> = {
  refused: 'the connection was refused',
  dns: 'the host name did not resolve',
  reset: 'the connection was reset',
  tls: 'the TLS handshake failed',
  closed: 'the connection closed before the answer ended',
  proxy: 'the proxy refused to open a tunnel',
  other: 'the request failed for a reason the client does not recognise',
};

/** Words for `failure` (`the connection was refused`), model-safe: no host, no address. */
export function describeNetworkFailure(failure: NetworkFailure): string {
  return DESCRIBED[failure];
}

/** The failures another attempt may mend: the connection was refused, reset or closed early. */
export function isRetryableNetworkFailure(failure: NetworkFailure): boolean {
  return failure === 'refused' || failure === 'reset' || failure === 'closed';
}

/** How deep a `cause` chain is followed. */
const MAX_CAUSES = 4;

/**
 * The known network failure `error` (or one of its causes) reports, or `undefined` for anything
 * else; the wire's seam (`wireFailure`) types the rest.
 */
export function networkFailureOf(error: unknown): NetworkFailure | undefined {
  return firstInCauses(error, (current, code) => {
    if (code === undefined) return undefined;
    // undici's ProxyAgent: the proxy answered its CONNECT with something other than 200 (a 407
    // asking for credentials, a 403, a 502).
    if (code === 'UND_ERR_ABORTED' && current.message.startsWith('Proxy response')) return 'proxy';
    const failure = BY_CODE[code];
    if (failure !== undefined) return failure;
    if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) return 'tls';
    return undefined;
  });
}

/**
 * The first answer `read` gives for `error` or one of its causes (at most {@link MAX_CAUSES}
 * deep), each read with its string `code` if it has one; `undefined` when none answers.
 */
export function firstInCauses<T>(
  error: unknown,
  read: (current: Error, code: string | undefined) => T | undefined,
): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSES && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    const answer = read(current, typeof code === 'string' ? code : undefined);
    if (answer !== undefined) return answer;
    current = current.cause;
  }
  return undefined;
}

/**
 * The connection could not be used: refused, unresolved, reset, refused at TLS or closed early.
 * `failure` says which; the host and URL stay out of the projection.
 */
export class ConnectionNetworkError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.network);
  override readonly name = 'ConnectionNetworkError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.network;
  /** What failed. */
  readonly failure: NetworkFailure;

  constructor(fields: ConnectionErrorScope & { readonly failure: NetworkFailure }) {
    super(
      fields,
      `failed on the network: ${DESCRIBED[fields.failure]}${duringOperation(fields.operation)}`,
    );
    this.failure = fields.failure;
  }

  /** `CONNECTION_NETWORK_ERROR` / 502; retryable for `refused`, `reset` and `closed`. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection(
      CONNECTION_ERROR_CODES.network,
      502,
      {
        message: `The connection failed: ${DESCRIBED[this.failure]}.`,
        reason: 'network',
        failure: this.failure,
        operation: this.operation,
        phase: this.phase,
      },
      { retryable: isRetryableNetworkFailure(this.failure) },
    );
  }
}
