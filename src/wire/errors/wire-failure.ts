/**
 * The one seam where an error leaves the wire layer (decision 0035). Whatever undici, Node's
 * sockets and TLS, a body or stream reader, or a timer throws, what reaches the machines is one of
 * our typed errors: the caller's cancellation (`signal.reason`) as it is, our own errors as they
 * are, a head past its bound as too large, an HTTP-level fault (a parser error, a body longer or
 * shorter than its `content-length`, an unsolicited `100` or `101`) as a protocol failure, a
 * known network code with its specific `failure`, every other fault as a network failure. The raw
 * error is always kept as `cause`. The rule is a closed world, not a list of known holes: a class
 * or code nobody listed still ends typed. Pure: no I/O.
 */
import { BrandedError } from '../../binding/kernel/branded-error.js';
import {
  type ConnectionErrorScope,
  ConnectionProtocolError,
  ConnectionResponseTooLargeError,
  duringOperation,
} from './errors.js';
import {
  ConnectionNetworkError,
  firstInCauses,
  type NetworkFailure,
  networkFailureOf,
} from './network-error.js';

/**
 * The most bytes of response headers any answer may have (64 KiB, where undici's default is
 * 16 KiB): room for an oversized `WWW-Authenticate` to be read and set aside (its parser bounds
 * it), while a head past it fails as `ConnectionResponseTooLargeError`.
 */
export const MAX_HEADER_BYTES = 65_536;

/** undici's code for a response head past `maxHeaderSize`. */
const HEADERS_OVERFLOW = 'UND_ERR_HEADERS_OVERFLOW';

/** The request failed because the answer's head was larger than {@link MAX_HEADER_BYTES}. */
export function isHeadersOverflow(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === HEADERS_OVERFLOW;
}

/** What a foreign error is, read once for both the connection and the download errors. */
export type WireFault =
  | { readonly kind: 'too-large' }
  | { readonly kind: 'http'; readonly fault: string }
  | { readonly kind: 'network'; readonly failure: NetworkFailure };

/** undici's codes of an answer that broke HTTP/1.1 itself (the parser's are `HPE_*`). */
const HTTP_FAULT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_RES_EXCEEDED_MAX_SIZE',
  'UND_ERR_RESPONSE',
]);

/** undici's class names of an HTTP-level fault, for one that carries no code. */
const HTTP_FAULT_NAMES: ReadonlySet<string> = new Set(['HTTPParserError', 'ResponseError']);

/**
 * undici's `SocketError` messages for an answer that broke HTTP/1.1, not the connection: bytes
 * with no request in flight or an unsolicited `100 Continue` (`bad response`), a `101` to a
 * request that asked for no upgrade (`bad upgrade`). undici destroys the socket itself, so the
 * code alone (`UND_ERR_SOCKET`) would read as a connection closed early, and retryable.
 */
const HTTP_FAULT_SOCKET_MESSAGES: ReadonlySet<string> = new Set(['bad response', 'bad upgrade']);

/** The HTTP-level fault `error` (or one of its causes) reports: its code or class name. */
function httpFaultOf(error: unknown): string | undefined {
  return firstInCauses(error, (current, code) => {
    if (code !== undefined && (code.startsWith('HPE_') || HTTP_FAULT_CODES.has(code))) return code;
    if (code === 'UND_ERR_SOCKET' && HTTP_FAULT_SOCKET_MESSAGES.has(current.message)) {
      return `${code}: ${current.message}`;
    }
    return HTTP_FAULT_NAMES.has(current.name) ? current.name : undefined;
  });
}

/**
 * What `error` is, whatever its class, code or type (a value that is not an `Error` too): a head
 * past {@link MAX_HEADER_BYTES}, an HTTP-level fault (read before the network codes, since undici
 * reports a broken answer as a socket error too), a known network failure, else a network
 * failure the client does not recognise (`other`). Total: never throws, never `undefined`.
 */
export function wireFaultOf(error: unknown): WireFault {
  if (isHeadersOverflow(error)) return { kind: 'too-large' };
  const fault = httpFaultOf(error);
  if (fault !== undefined) return { kind: 'http', fault };
  const failure = networkFailureOf(error);
  if (failure !== undefined) return { kind: 'network', failure };
  return { kind: 'network', failure: 'other' };
}

/**
 * The errors this seam typed, so a stream's failure can be told again in another scope; weak, so
 * it holds nothing past the error's own life.
 */
const TYPED_HERE = new WeakSet<object>();

/** `typed`, remembered as the seam's own typing of `cause`. */
function typedHere<T extends object>(typed: T): T {
  TYPED_HERE.add(typed);
  return typed;
}

/** One of the package's own errors, already typed (a byte ceiling, a refusal, a protocol error). */
function isOurs(error: unknown): boolean {
  return BrandedError.isInstance(error);
}

/**
 * `error` as it must leave the wire for the operation in `scope`: `signal.reason` once `signal`
 * has aborted, our own errors unchanged, anything else typed by {@link wireFaultOf} with the raw
 * error as its `cause`. Every wire exit (the request, the body readers, the SSE reader) throws
 * what this returns.
 */
export function wireFailure(
  error: unknown,
  scope: ConnectionErrorScope,
  signal?: AbortSignal,
): unknown {
  if (signal?.aborted === true) return signal.reason;
  if (isOurs(error)) return error;
  const fault = wireFaultOf(error);
  switch (fault.kind) {
    case 'too-large':
      return typedHere(
        new ConnectionResponseTooLargeError({ ...scope, maxBytes: MAX_HEADER_BYTES, cause: error }),
      );
    case 'http':
      return typedHere(
        new ConnectionProtocolError({
          ...scope,
          violation: `sent an answer that broke HTTP/1.1 (${fault.fault})${duringOperation(scope.operation)}`,
          cause: error,
        }),
      );
    case 'network':
      return typedHere(
        new ConnectionNetworkError({ ...scope, failure: fault.failure, cause: error }),
      );
  }
}

/**
 * A failure of a long-lived stream (the legacy HTTP+SSE GET), told in the scope of the operation
 * it broke: what this seam typed in the stream's opening scope is typed again in `scope`; every
 * other error of ours (a frame past its ceiling, a refused endpoint, a message that was not JSON)
 * keeps the scope it was raised in, and a foreign error is typed in `scope`.
 */
export function streamFailureIn(error: unknown, scope: ConnectionErrorScope): unknown {
  if (typeof error === 'object' && error !== null && TYPED_HERE.has(error)) {
    return wireFailure((error as Error).cause, scope);
  }
  return wireFailure(error, scope);
}
