/**
 * What a refused answer (a non-2xx) tells the machine that judges it, read the one way every
 * credentialed connection request reads it (decision 0041): its status, the parsed challenge of
 * a 401 or a 403, the `Retry-After` of a 429 or a 503, and an excerpt of the body. A 401's body
 * is cancelled, never read: a 401 always ends as `ConnectionAuthorizationRequiredError`, which
 * keeps no body, so reading it could only turn the refusal into a size or deadline failure.
 */
import {
  type AuthChallenge,
  challengeField,
  challengeOfResponse,
} from '../core/www-authenticate.js';
import { cancelBody, type WireResponse } from '../read/abortable-read.js';
import { type ReadBudget, readErrorExcerpt } from '../read/bounded-body.js';
import { retryAfterOfResponse } from './retry-after.js';

/** A 401 always means "authorization required", on every request of every connection. */
export function isUnauthorizedStatus(status: number): boolean {
  return status === 401;
}

/** A refused answer, as the machines' `http-error` exchanges carry it. */
export interface HttpRefusal {
  /** The upstream HTTP status (never 2xx). */
  readonly status: number;
  /** At most `MAX_ERROR_BODY_CHARS` characters of the body; empty for a 401. */
  readonly body: string;
  /** A 401's or 403's parsed `WWW-Authenticate`; absent when it sent none that parses. */
  readonly challenge?: AuthChallenge;
  /** A 429's or 503's `Retry-After`, in ms; absent when it sent none that parses. */
  readonly retryAfterMs?: number;
}

/**
 * Reads the refused `response` within `budget`: a 401's body is cancelled at once, any other
 * body read to its excerpt (the whole body still counts against the ceiling, so an oversized
 * error body is `ConnectionResponseTooLargeError`). Optional fields are absent, never `undefined`.
 */
export async function readRefusal(
  response: WireResponse,
  budget: ReadBudget,
): Promise<HttpRefusal> {
  const challenge = challengeField(challengeOfResponse(response));
  if (isUnauthorizedStatus(response.status)) {
    cancelBody(response);
    return { status: response.status, body: '', ...challenge };
  }
  const body = await readErrorExcerpt(response, budget);
  const retryAfterMs = retryAfterOfResponse(response);
  return {
    status: response.status,
    body,
    ...challenge,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}
