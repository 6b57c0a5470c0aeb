/**
 * The list-changed stream of one connection of a live catalog: a run of the `listen` machine,
 * started where the server can give one (an MCP connection: `subscriptions/listen` on MCP
 * 2026-07-28, the standalone GET of a session of its own on 2025-11-25, the HTTP+SSE stream),
 * stopped when the catalog closes.
 */
import type { ListenWire } from '../machines/listen/listen.types.js';
import type { TransitionObserver } from '../machines/observe.js';
import { runMachine } from '../machines/run-machine.js';
import { STATELESS_REVISION } from '../wire/index.js';
import { resolveMcpConnection } from './define-mcp-connection.js';
import type { ConnectionDefinition, SpokenWire } from './types.js';

/**
 * The wire a connection's stream is held on: `subscriptions/listen` where the listing was spoken
 * in MCP 2026-07-28, a session's standalone GET where it was 2025 on Streamable HTTP, the legacy
 * HTTP+SSE stream where it was spoken there; none for an OpenAPI connection.
 */
export function listenWireOf(
  connection: ConnectionDefinition,
  spoken: SpokenWire | undefined,
): ListenWire | undefined {
  if (connection.kind !== 'mcp' || spoken === undefined) return undefined;
  if (spoken.protocolVersion === STATELESS_REVISION) return 'stateless';
  return spoken.transport === 'streamable-http' ? 'session' : 'sse';
}

/** How one connection's stream is run. */
export interface ListeningOptions {
  /** Aborted when the catalog closes: the machine takes it as `CANCEL`. */
  readonly signal: AbortSignal;
  readonly observe?: TransitionObserver;
  /** The MCP revision and transport the connection's listing was spoken on. */
  readonly spoken: SpokenWire | undefined;
  /** The server's tool list changed (or may have, while the stream was down). */
  readonly onChanged: () => void;
}

/** Where a stream stands, for `describe()`: its machine's state while it runs, else how it ended. */
export type ListenState =
  | 'connecting'
  | 'listening'
  | 'reconnecting'
  | 'unoffered'
  | 'failed'
  | 'closed';

/**
 * The stand of a running stream, from its machine's state path: `closed` once it only ends the
 * session its stream opened, before its outcome is known.
 */
export function listenStateOf(
  path: string,
): 'connecting' | 'listening' | 'reconnecting' | 'closed' {
  if (path.startsWith('streaming.listening')) return 'listening';
  if (path.startsWith('reconnecting')) return 'reconnecting';
  return path === 'closing' || path === 'endingSession' ? 'closed' : 'connecting';
}

/**
 * Starts the stream of `connection` when its server can give one, and returns a handle whose
 * `done` settles when the run ends (never rejects) and whose `state()` says where it stands;
 * `undefined` when the connection has none (an OpenAPI connection, a 2025 server).
 */
export function startListening(
  connection: ConnectionDefinition,
  options: ListeningOptions,
): { readonly done: Promise<void>; state(): ListenState } | undefined {
  const wire = listenWireOf(connection, options.spoken);
  if (wire === undefined || connection.kind !== 'mcp') return undefined;
  const resolved = resolveMcpConnection(connection);
  let state: ListenState = 'connecting';
  const observe = options.observe;
  const run = runMachine(
    resolved.listen,
    {
      connectionName: resolved.name,
      wire,
      url: resolved.url.href,
      fence: resolved.fence,
      headers: resolved.headers,
      resolvesToken: resolved.resolvesToken,
      firstEventMs: resolved.limits.discovery.timeoutMs,
      // A retry policy bounds the failed connects in a row; else the machine's default (5).
      ...(connection.retry === undefined ? {} : { maxFailures: resolved.attempts }),
      maxFrameBytes: resolved.limits.discovery.maxResponseBytes,
      sink: { changed: options.onChanged },
    },
    {
      signal: options.signal,
      // The stream's stand is read from its transitions; the host's observer sees them too.
      observe: (record) => {
        state = listenStateOf(record.to);
        observe?.(record);
      },
      labels: { connection: resolved.name, operation: 'subscriptions/listen', phase: 'discovery' },
    },
  );
  const done = run.then(
    () => {
      state = 'unoffered';
    },
    () => {
      state = options.signal.aborted ? 'closed' : 'failed';
    },
  );
  return { done, state: () => state };
}
