/**
 * Serving a web-standard handler (the MCP SDK v2's `createMcpHandler`) from `node:http`: the
 * demo's embedded 2026 server and the test servers use this one relay.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** Lowercased header names mapped to single strings (repeated headers joined with `, `). */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** A web-standard request handler, as the MCP SDK v2's `createMcpHandler` returns one. */
export interface WebHandler {
  fetch(request: Request): Promise<Response>;
}

/**
 * Relays one node:http request (its body already read as `body`) to a web-standard handler and
 * streams the answer back. A client that closes the response before it is complete aborts the
 * request's signal, which MCP 2026-07-28 servers read as cancellation.
 */
export async function relayToWebHandler(
  handler: WebHandler,
  req: IncomingMessage,
  res: ServerResponse,
  body: string | undefined,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(flattenHeaders(req.headers))) {
    headers.set(name, value);
  }
  // A client that goes away before the answer is complete cancels the request (MCP 2026-07-28).
  const disconnected = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) disconnected.abort();
  });
  const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal: disconnected.signal,
    ...(body === undefined ? {} : { body }),
  });
  const response = await handler.fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body) {
    if (res.destroyed) break;
    res.write(chunk);
  }
  res.end();
}
