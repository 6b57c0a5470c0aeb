/**
 * `Retry-After` of a 429 or 503 answer (RFC 9110, section 10.2.3): delay-seconds or an HTTP date,
 * as milliseconds from now, never negative and never past the longest delay a timer honours.
 * Pure but for the clock it is given.
 */
import { MAX_TIMER_MS } from '../../binding/kernel/timers.js';

const DELAY_SECONDS = /^\d+$/;
/** An HTTP date names its month (IMF-fixdate, RFC 850 and asctime alike); `Date.parse` alone is lenient. */
const HTTP_DATE_MONTH = /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/;

/** The statuses whose `Retry-After` says when to try again. */
function isRetryLaterStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/** `value` (a `Retry-After` header) as ms from `now`, or `undefined` when it is neither form. */
export function retryAfterMsOf(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) return Math.min(Number(text) * 1000, MAX_TIMER_MS);
  if (!HTTP_DATE_MONTH.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_TIMER_MS);
}

/** The `retryAfterMs` of a refused answer: only a 429's or a 503's, when its header parses. */
export function retryAfterOfResponse(response: {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
}): number | undefined {
  if (!isRetryLaterStatus(response.status)) return undefined;
  return retryAfterMsOf(response.headers.get('retry-after'));
}
