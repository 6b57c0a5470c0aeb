/**
 * Counting what a run reads (decision 0016). An actor's byte counter reports the count to its
 * machine as `BYTES_READ`, so a deadline or a budget edge sees it while a body is still arriving;
 * an answer whose body has ended before its bytes were reported carries them instead
 * (`unreportedBytes`), and the machine's actions that read the count after the answer take them
 * with {@link readSoFar}. Shared by `mcpOperation` and `openApiCall`.
 */
import type { WireResponse } from '../wire/index.js';

/** A byte counter: the read's running total in, reports to the machine out. */
export interface BytesReadCounter {
  /** Takes the read's running total (it starts at `alreadyRead`). */
  readonly onBytes: (total: number) => void;
  /** The running total so far. */
  readonly bytesRead: () => number;
  /** What was counted and not reported; the counter reports nothing after it is asked. */
  readonly closeUnreported: () => number;
  /**
   * Takes the running total without reporting it: the caller hands the growth on with the event it
   * sends next ({@link BytesReadCounter.takeUnreported}). A later `onBytes` reports it too.
   */
  readonly hold: (total: number) => void;
  /** The growth not reported yet, now counted as reported: for the event that carries it. */
  readonly takeUnreported: () => number;
  /** Reports the growth not reported yet, if any (a stopped actor reports nothing). */
  readonly reportUnreported: () => void;
}

/** A response body, as the wire's readers take it. */
type AnswerBody = NonNullable<WireResponse['body']>;

/** True for a Node body read to its end; a WHATWG body never says so. */
function hasEnded(body: AnswerBody): boolean {
  return (body as { readonly readableEnded?: boolean }).readableEnded === true;
}

/**
 * The byte counter of one read; `report` gets the growth since the last report and the total.
 * Without `answer` it reports each chunk at once. With `answer` (the body of an exchange whose
 * answer carries its `unreportedBytes`) it reports in a microtask, so the chunks of one turn of the
 * event loop make one report, and not at all when `answer` has ended by then: a whole answer
 * reaches the machine with its bytes, and since a microtask runs before any timer, no deadline
 * can see them uncounted. A stopped actor reports nothing: stale progress could reopen a closed
 * decision.
 */
export function bytesReadCounter(
  signal: AbortSignal,
  report: (bytes: number, total: number) => void,
  alreadyRead = 0,
  answer?: AnswerBody,
): BytesReadCounter {
  let total = alreadyRead;
  let reported = alreadyRead;
  let pending = false;
  let closed = false;
  const flush = (): void => {
    pending = false;
    if (closed || signal.aborted || total <= reported) return;
    if (answer !== undefined && hasEnded(answer)) return;
    const bytes = total - reported;
    reported = total;
    report(bytes, total);
  };
  return {
    bytesRead: () => total,
    closeUnreported: () => {
      closed = true;
      return total - reported;
    },
    hold: (next) => {
      if (next > total) total = next;
    },
    takeUnreported: () => {
      const bytes = total - reported;
      reported = total;
      return bytes;
    },
    reportUnreported: flush,
    onBytes: (next) => {
      if (next <= total) return;
      total = next;
      if (answer === undefined) flush();
      else if (!pending) {
        pending = true;
        queueMicrotask(flush);
      }
    },
  };
}

/**
 * The bytes an exchange's answer read and reported no `BYTES_READ` for: its done event's
 * `output.unreportedBytes`, 0 for any other event (a deadline, a cancellation, a failure).
 */
function unreportedBytesOf(event: unknown): number {
  const output = (event as { readonly output?: { readonly unreportedBytes?: unknown } } | undefined)
    ?.output;
  const bytes = output?.unreportedBytes;
  return typeof bytes === 'number' && bytes > 0 ? bytes : 0;
}

/**
 * What a run has read, once the event in hand is taken: an answer carries the bytes of a body
 * that had ended before they were reported, so an edge that goes on reading or quotes the count
 * adds them; an edge that begins the next step resets the count, and one that ends the run with
 * its result needs none.
 */
export function readSoFar(context: { readonly readBytes: number }, event: unknown): number {
  return context.readBytes + unreportedBytesOf(event);
}
