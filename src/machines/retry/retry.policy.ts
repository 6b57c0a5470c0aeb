/**
 * The rules of a connection's retry policy: which failures another attempt may mend, which of
 * those are safe to repeat, and how long to wait first. Pure: no I/O, no clock, no randomness
 * (the jitter's random number is passed in).
 */
import { isRetryableStatus } from '../../binding/index.js';
import {
  ConnectionNetworkError,
  type ConnectionOperation,
  ConnectionRequestError,
  isRetryableNetworkFailure,
} from '../../wire/index.js';

/** The most attempts a policy may ask for, the first included. */
export const MAX_RETRY_ATTEMPTS = 10;
/** The nominal wait before the second attempt when the server named none; it doubles after. */
export const RETRY_BASE_DELAY_MS = 200;
/** The longest nominal wait between attempts when the server named none. */
export const RETRY_MAX_DELAY_MS = 5_000;
/**
 * How long an attempt told to stop (a deadline, a cancellation) may take to tear down: its
 * cancellation notice and its session's end, each bounded by the operation machine's own 2 s.
 */
export const ATTEMPT_STOP_TIMEOUT_MS = 5_000;

/**
 * The steps of an MCP run before its request is sent: a failure in one of them leaves the request
 * unsent, so a tool call that failed there is safe to repeat whatever the tool does.
 */
const BEFORE_THE_REQUEST: ReadonlySet<ConnectionOperation | undefined> = new Set([
  'initialize',
  'notifications/initialized',
  'endpoint',
]);

/** What the failure's `Retry-After` asked for, in ms, when it said. */
/** The requests of a call that became an MCP task. */
const TASK_OPERATIONS: ReadonlySet<ConnectionOperation | undefined> = new Set([
  'tasks/get',
  'tasks/update',
  'tasks/result',
  'tasks/cancel',
]);

function retryAfterOf(error: unknown): number | undefined {
  return ConnectionRequestError.isInstance(error) ? error.retryAfterMs : undefined;
}

/** The failure proves the server never received the request: its connection was refused. */
export function isNeverReceived(error: unknown): boolean {
  return ConnectionNetworkError.isInstance(error) && error.failure === 'refused';
}

/**
 * The failure is one another attempt may mend, by the same rules its projection tells the model it
 * is retryable: a refused, reset or early-closed connection, or a 408, 429, 502, 503 or 504.
 */
export function isTransientFailure(error: unknown): boolean {
  if (ConnectionNetworkError.isInstance(error)) return isRetryableNetworkFailure(error.failure);
  return ConnectionRequestError.isInstance(error) && isRetryableStatus(error.status);
}

/**
 * Whether `error` may be answered by another attempt: it is transient, and either the server
 * never received the request, the failure came before the request was sent, or the operation
 * may run twice (`repeatable`). Cancellations, deadlines, 401s and every other refusal end the
 * operation as they are.
 */
export function isRetryableFailure(error: unknown, repeatable: boolean): boolean {
  if (!isTransientFailure(error)) return false;
  // A request of a call that became a task failed: the task may still run on the server, so the
  // call is never sent again (decision 0042), however safe it would be to repeat.
  if (TASK_OPERATIONS.has((error as ConnectionRequestError).operation)) return false;
  if (repeatable || isNeverReceived(error)) return true;
  return BEFORE_THE_REQUEST.has((error as ConnectionRequestError).operation);
}

/**
 * The nominal wait after failed attempt number `attempt` (1-based): what the server's
 * `Retry-After` asked for, else 200 ms doubling per attempt up to 5 s.
 */
export function nominalRetryDelayMs(error: unknown, attempt: number): number {
  const asked = retryAfterOf(error);
  if (asked !== undefined) return asked;
  const doublings = Math.max(0, Math.floor(attempt) - 1);
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** doublings, RETRY_MAX_DELAY_MS);
}

/**
 * The wait actually taken: the server's `Retry-After` exactly, else the nominal wait with equal
 * jitter (between half of it and all of it), so clients that failed together do not return
 * together. `random` is in [0, 1).
 */
export function retryDelayMs(error: unknown, attempt: number, random: number): number {
  const asked = retryAfterOf(error);
  if (asked !== undefined) return asked;
  const nominal = nominalRetryDelayMs(error, attempt);
  return Math.round(nominal / 2 + (nominal / 2) * random);
}

/** An attempt after waiting `delayMs` from `now` would start before the deadline. */
export function fitsBeforeDeadline(now: number, delayMs: number, deadlineAt: number): boolean {
  return now + delayMs < deadlineAt;
}
