/**
 * Types of the `listen` machine: one long-lived list-changed stream of an MCP connection, kept
 * open for a live catalog (issue 47, decision 0047). Its context holds data only: the token and
 * the static headers stay wrapped.
 */
import type { HostFence, OperationScope } from '../../wire/index.js';
import type { CancelEvent, MachineResult } from '../run-machine.js';
import type { SecretValue } from '../secret-value.js';

/** Where the machine tells that the server's tool list changed: the live catalog. */
export interface ListenSink {
  /** The list changed (a burst of notifications is told once), or may have while the stream was down. */
  changed(): void;
}

/**
 * The wire a stream is held on: MCP 2026-07-28 `subscriptions/listen` (`stateless`), a
 * 2025-11-25 session's standalone GET stream (`session`), or the legacy HTTP+SSE stream (`sse`).
 */
export type ListenWire = 'stateless' | 'session' | 'sse';

/** What a run of `listen` needs: the connection's endpoint and headers, and its bounds. */
export interface ListenInput {
  readonly connectionName: string;
  /** The wire the connection's listing was spoken on. */
  readonly wire: ListenWire;
  /** The connection URL the listen request is posted to. */
  readonly url: string;
  readonly fence: HostFence;
  /** The connection's static headers, wrapped. */
  readonly headers: Readonly<Record<string, SecretValue>>;
  /** Whether the connection has a token provider (called with no principal, as discovery is). */
  readonly resolvesToken: boolean;
  /** How long the stream may take to say it listens (its acknowledgement), in ms. */
  readonly firstEventMs: number;
  /** How long a burst of notifications is gathered into one change, in ms; default 100. */
  readonly debounceMs?: number;
  /** How many connects in a row may fail before the machine gives up; default 5. */
  readonly maxFailures?: number;
  /** The largest SSE frame read, in bytes. */
  readonly maxFrameBytes: number;
  /** Where changes are told. */
  readonly sink: ListenSink;
}

/** Why a stream failed, as the guards read it: the typed error, and the answer's status or code. */
export interface ListenFailure {
  readonly error: Error;
  /** The HTTP status of a refused listen request. */
  readonly status?: number;
  /** The JSON-RPC error code the server answered with. */
  readonly rpcCode?: number;
  /** The server acknowledged the subscription without tool list changes (it offers none). */
  readonly unoffered?: boolean;
}

/** What the `listenStream` actor reports. */
/** A 2025-11-25 session a listen stream opened, which the machine ends with `DELETE`. */
export interface ListenSession {
  /** The server's `Mcp-Session-Id`. */
  readonly sessionId: SecretValue;
  /** The revision its handshake negotiated, for the `DELETE`'s `MCP-Protocol-Version`. */
  readonly protocolVersion: string | undefined;
}

export type ListenStreamEvent =
  /** A 2025-11-25 stream opened a session of its own: the machine ends it when the stream stops. */
  | { readonly type: 'SESSION_OPENED'; readonly session: ListenSession }
  /** The server acknowledged the subscription: the stream listens. */
  | { readonly type: 'OPENED' }
  /** A `notifications/tools/list_changed` arrived. */
  | { readonly type: 'CHANGED' }
  /** The stream ended: the server closed it (gracefully or not). */
  | { readonly type: 'STREAM_ENDED' }
  /** The stream could not be opened or read. */
  | { readonly type: 'STREAM_FAILED'; readonly failure: ListenFailure };

/** Events `listen` takes: its stream's reports, and `CANCEL` (the catalog closing). */
export type ListenEvent = ListenStreamEvent | CancelEvent;

/** What the `listenStream` actor receives. */
export interface ListenStreamInput {
  readonly wire: ListenWire;
  readonly scope: OperationScope;
  readonly url: string;
  readonly fence: HostFence;
  readonly headers: Readonly<Record<string, SecretValue>>;
  readonly token: SecretValue | undefined;
  readonly maxFrameBytes: number;
}

/** The context of `listen`. */
export interface ListenContext {
  readonly wire: ListenWire;
  readonly scope: OperationScope;
  readonly url: string;
  readonly fence: HostFence;
  readonly headers: Readonly<Record<string, SecretValue>>;
  readonly resolvesToken: boolean;
  readonly firstEventMs: number;
  readonly debounceMs: number;
  readonly maxFailures: number;
  readonly maxFrameBytes: number;
  readonly sink: ListenSink;
  /** The token of the current connect. */
  readonly token: SecretValue | undefined;
  /** Connects in a row that failed. */
  readonly failures: number;
  /** How many times the stream was opened. */
  readonly opened: number;
  /** Changes told to the sink. */
  readonly changes: number;
  /** The session the current stream opened (2025-11-25 Streamable HTTP), until it is ended. */
  readonly session: ListenSession | undefined;
  readonly outcome: ListenOutput | undefined;
}

/**
 * How a run of `listen` ended: closed by its catalog (`CANCEL`, failed with the reason), the
 * server offering no tool list changes (`offered: false`), or the last failure once the connects
 * in a row ran out.
 */
export type ListenOutput = MachineResult<{ readonly offered: false; readonly changes: number }>;
