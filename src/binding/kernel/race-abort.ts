/**
 * Racing work against an `AbortSignal`: the one helper every layer uses to stop waiting on
 * abort with the exact reason. It lives in the binding's kernel, the room every layer may import.
 */

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
