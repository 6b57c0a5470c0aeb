/**
 * Reads a fetch response body as text until a condition holds, for the fixture self-tests.
 */

/** Reads chunks from `response` until `done(text so far)` is true; returns the text and the open reader. */
export async function readUntil(
  response: Response,
  done: (text: string) => boolean,
): Promise<{ text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const body = response.body;
  if (body === null) throw new Error('response has no body');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done)
      throw new Error(`stream ended before the condition held: ${JSON.stringify(text)}`);
    text += decoder.decode(chunk.value, { stream: true });
  }
  return { text, reader };
}

/** Counts active handles of the given type (e.g. `TCPSocketWrap`, `TCPServerWrap`, `Timeout`). */
export function activeResources(type: string): number {
  return process.getActiveResourcesInfo().filter((name) => name === type).length;
}

/** Counts of the handle types a test server could leak. */
export interface HandleCounts {
  sockets: number;
  servers: number;
  timers: number;
}

/** The current number of TCP sockets, TCP listeners and timeouts. */
export function handleCounts(): HandleCounts {
  return {
    sockets: activeResources('TCPSocketWrap'),
    servers: activeResources('TCPServerWrap'),
    timers: activeResources('Timeout'),
  };
}

/** Handles above `baseline` (never negative): all zero when nothing was left behind. */
export function extraHandles(baseline: HandleCounts): HandleCounts {
  const now = handleCounts();
  return {
    sockets: Math.max(0, now.sockets - baseline.sockets),
    servers: Math.max(0, now.servers - baseline.servers),
    timers: Math.max(0, now.timers - baseline.timers),
  };
}
