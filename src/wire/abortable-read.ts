/**
 * Stream reads that stop when a signal aborts, even when the stream ignores cancellation.
 * Wire functions start no timers: a deadline is a machine state that aborts this signal.
 */

/** Rejects at once with `signal.reason` when the signal has already aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

/**
 * Races a promise against the signal: rejects with the exact `signal.reason` on abort. The loser
 * keeps a handler, so a late rejection never becomes an unhandled one.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.then(undefined, () => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** One `reader.read()` raced against the signal. */
export function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal,
): ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return raceAbort(reader.read(), signal);
}

/**
 * Cancels the reader and releases its lock without waiting: a stream that ignores cancellation
 * must not hold the caller. Never throws.
 */
export function releaseReader(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  reason?: unknown,
): void {
  try {
    reader.cancel(reason).then(undefined, () => undefined);
  } catch {
    // A reader whose stream already errored may throw synchronously on some runtimes.
  }
  try {
    reader.releaseLock();
  } catch {
    // Releasing with a pending read throws on older stream implementations; the cancel suffices.
  }
}
