/**
 * The public shapes of a live catalog (`watchConnections`, issue 47): its options, its change
 * events and its description.
 */
import type { AnyRuntimeToolDefinition } from '../binding/index.js';
import type { Catalog, CatalogEntry } from './catalog.js';
import type { ConnectionMountOptions } from './types.js';

/** Options of `watchConnections`: those of `mountConnections`, and when the catalog refreshes. */
export interface WatchConnectionsOptions extends ConnectionMountOptions {
  /**
   * Follow the servers' list-changed notifications (one long-lived stream per MCP connection whose
   * server offers them: `subscriptions/listen` on 2026-07-28). Default `false`.
   */
  readonly listen?: boolean;
  /**
   * How long a listing without a caching hint (2025-11-25 servers, OpenAPI documents) stays
   * fresh, in milliseconds. Default: forever (listed again only on a signal or `refresh`).
   */
  readonly defaultTtlMs?: number;
  /** List every connection again on this period, in milliseconds (a timer per connection). */
  readonly refreshInterval?: number;
  /**
   * The least time between two relistings of one connection that nobody asked for by name
   * (TTL expiry, notifications, an unknown tool, the interval), in milliseconds. Default 1,000: a
   * server answering `ttlMs: 0` ("stale at once") costs at most one listing a second.
   */
  readonly minRefreshIntervalMs?: number;
}

/** Why a connection was listed again. */
export type CatalogChangeReason = 'ttl' | 'list-changed' | 'unknown-tool' | 'manual' | 'interval';

/**
 * What one relisting of a connection changed, by mounted tool name; or, with `error`, why it
 * failed (the catalog then keeps the connection's last good listing, and the lists are empty).
 */
export interface CatalogChange {
  /** The connection's name. */
  readonly connection: string;
  /** Tools the connection has now and did not have. */
  readonly added: readonly string[];
  /** Tools it had and no longer has. */
  readonly removed: readonly string[];
  /** Tools whose description, schemas or annotations changed. */
  readonly changed: readonly string[];
  /** Why it was listed again. */
  readonly reason: CatalogChangeReason;
  /** The typed failure of a relisting that failed. */
  readonly error?: Error;
}

/** The last relisting of a connection, as `describe()` shows it. */
export interface CatalogRefresh {
  /** When it ended (epoch milliseconds). */
  readonly at: number;
  /** Why it ran (`discovery` for the first listing). */
  readonly reason: CatalogChangeReason | 'discovery';
  /** Whether it gave a listing the catalog took. */
  readonly outcome: 'ok' | 'failed';
  /** The typed failure, when it failed. */
  readonly error?: Error;
}

/** One connection's entry in a live catalog's description. */
export interface LiveCatalogEntry extends CatalogEntry {
  /** Milliseconds since the listing the catalog holds was received. */
  readonly ageMs: number;
  /** How long that listing is fresh (its `ttlMs`, else `defaultTtlMs`); absent: forever. */
  readonly ttlMs?: number;
  /** The connection's last relisting. */
  readonly lastRefresh: CatalogRefresh;
  /**
   * Its list-changed stream, when the catalog listens and the connection is MCP: `connecting`
   * (until the server says it listens), `listening`, `reconnecting` (after a drop, ending the
   * dropped stream's 2025 session and waiting its backoff), `unoffered` (the server offers no tool
   * list changes), `failed` (its connects failed too many times in a row; the TTL still holds),
   * `closed` (also while a stopping stream ends its 2025 session).
   */
  readonly listen?: 'connecting' | 'listening' | 'reconnecting' | 'unoffered' | 'failed' | 'closed';
}

/** What `LiveCatalog.describe()` reports: `describeCatalog` of its tools, with each connection's age. */
export interface CatalogDescription extends Catalog {
  readonly connections: readonly LiveCatalogEntry[];
}

/**
 * The tools of some connections, kept true while the host runs: each connection is listed again
 * when its listing's TTL has passed and one of its tools is used or `tools()` is read, when its
 * server says the list changed (`listen`), when a call finds a tool gone, or on `refresh`.
 */
export interface LiveCatalog {
  /**
   * The current definitions, a frozen array that stays the same object until a change. Reading it
   * starts the relisting of every stale connection in the background; it never waits for one.
   */
  tools(): readonly AnyRuntimeToolDefinition[];
  /** Calls `listener` after each relisting that changed a connection's tools or failed. */
  on(event: 'change', listener: (change: CatalogChange) => void): () => void;
  /**
   * Lists `connection` (else every connection) again now and resolves once the catalog holds the
   * answer. A relisting that fails is reported as a change with `error`, and in `describe()`; it
   * never rejects here, and never empties the catalog.
   */
  refresh(connection?: string): Promise<void>;
  /** `describeCatalog` of the current tools, with each connection's age, TTL and last refresh. */
  describe(): CatalogDescription;
  /** Stops every timer, stream and relisting in flight; the tools stay callable. */
  close(): Promise<void>;
}
