/**
 * The IPC messages between the benchmark runner and a server child. Shared by both sides so a
 * change to one side fails the type check of the other.
 */

/**
 * HTTP requests received, keyed by method (`POST`) and by route (`POST /sse`), the TCP
 * connections accepted, the server process's CPU time (user + system, µs) and its main thread's
 * alone, all since the last reset. Off Linux the main thread's is unknown: `NaN`, which the IPC
 * channel's JSON carries as `null`.
 */
export interface ServerCounts {
  readonly byMethod: Readonly<Record<string, number>>;
  readonly byRoute: Readonly<Record<string, number>>;
  readonly connections: number;
  readonly cpuMicros: number;
  readonly mainThreadCpuMicros: number | null;
}

/** Runner to server child. */
export type ParentMessage =
  | { readonly type: 'counts'; readonly id: number }
  | { readonly type: 'reset'; readonly id: number }
  | { readonly type: 'stop' };

/** Server child to runner. */
export type ChildMessage =
  | { readonly type: 'ready'; readonly port: number }
  | { readonly type: 'counts'; readonly id: number; readonly counts: ServerCounts }
  | { readonly type: 'reset'; readonly id: number };

/** Narrows an IPC payload to a {@link ParentMessage}. */
export function isParentMessage(value: unknown): value is ParentMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'counts' || type === 'reset' || type === 'stop';
}

/** Narrows an IPC payload to a {@link ChildMessage}. */
export function isChildMessage(value: unknown): value is ChildMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'ready' || type === 'counts' || type === 'reset';
}
