/**
 * One connection of a live catalog (issue 47): what the catalog holds of it (its last good
 * listing, its freshness, its relisting in flight and its stream), and how it is listed: a
 * discovery that reports only the skips it had not reported, and tells the catalog when one of
 * its tools is used or finds the listing stale.
 */
import type { AnyRuntimeToolDefinition } from '../binding/index.js';
import type { ToolListCache } from '../wire/index.js';
import type { startListening } from './live-catalog-listen.js';
import type {
  CatalogChangeReason,
  CatalogRefresh,
  WatchConnectionsOptions,
} from './live-catalog-types.js';
import {
  type CheckedMountOptions,
  containedReporter,
  discoverConnection,
  skippedSummary,
} from './mount.js';
import {
  type ConnectionDefinition,
  type DiscoveryWatch,
  isMountedDespite,
  type SkippedTool,
  type SpokenWire,
} from './types.js';

/** One connection of the catalog: its last good listing and its relisting in flight. */
export interface Slot {
  readonly connection: ConnectionDefinition;
  readonly name: string;
  tools: readonly AnyRuntimeToolDefinition[];
  skipped: readonly SkippedTool[];
  listedAt: number;
  ttlMs: number | undefined;
  /** Who may reuse the listing: `public` only when its server said so. */
  cacheScope: 'public' | 'private';
  lastRefresh: CatalogRefresh;
  lastStartedAt: number;
  inflight: Promise<void> | undefined;
  /** A relisting asked for while one was in flight: it runs once that one ends. */
  again: CatalogChangeReason | undefined;
  deferred: ReturnType<typeof setTimeout> | undefined;
  /** Why the deferred relisting will run. */
  pending: CatalogChangeReason | undefined;
  interval: ReturnType<typeof setInterval> | undefined;
  /** The MCP revision and transport the listing was spoken on (none for an OpenAPI document). */
  spoken: SpokenWire | undefined;
  listen: ReturnType<typeof startListening>;
}

/** What one listing gives a slot. */
export type Listing = Pick<
  Slot,
  'tools' | 'skipped' | 'listedAt' | 'ttlMs' | 'cacheScope' | 'spoken'
>;

/** A slot for `connection`, not listed yet. */
export function newSlot(connection: ConnectionDefinition): Slot {
  return {
    connection,
    name: typeof connection?.name === 'string' ? connection.name : '',
    tools: [],
    skipped: [],
    listedAt: 0,
    ttlMs: undefined,
    cacheScope: 'private',
    lastRefresh: { at: 0, reason: 'discovery', outcome: 'ok' },
    lastStartedAt: Date.now(),
    inflight: undefined,
    again: undefined,
    deferred: undefined,
    pending: undefined,
    interval: undefined,
    spoken: undefined,
    listen: undefined,
  };
}

/** A key for a skip report, so a relisting reports only what it newly skipped. */
function skipKey(entry: SkippedTool): string {
  return `${entry.tool}\u0000${entry.reason}`;
}

/** What a listing needs of its catalog. */
export interface ListingContext {
  readonly checked: CheckedMountOptions;
  readonly options: WatchConnectionsOptions;
  readonly defaultTtlMs: number | undefined;
  /** Aborted when the catalog closes. */
  readonly signal: AbortSignal;
  /** A tool of the listing is being called. */
  toolUsed(): void;
  /** A call found the listing stale. */
  listingStale(): void;
}

/**
 * Lists one connection: its definitions, what it skipped (each skip reported to the host once),
 * how long the listing is fresh, and what it was spoken on; a relisting speaks that again.
 */
export async function listConnection(slot: Slot, context: ListingContext): Promise<Listing> {
  const { options } = context;
  const known = new Set(slot.skipped.map(skipKey));
  const skipped: SkippedTool[] = [];
  const fresh: SkippedTool[] = [];
  const toHost = containedReporter(options.onSkippedTool ?? (() => undefined));
  let cache: ToolListCache | undefined;
  let spoken: SpokenWire | undefined;
  const watch: DiscoveryWatch = {
    signal: context.signal,
    ...(slot.spoken === undefined ? {} : { spoken: slot.spoken }),
    listed: (hint, wire) => {
      cache = hint;
      spoken = wire;
    },
    toolUsed: context.toolUsed,
    listingStale: context.listingStale,
  };
  const report = (entry: SkippedTool): void => {
    if (!isMountedDespite(entry.reason)) skipped.push(entry);
    if (known.has(skipKey(entry))) return;
    fresh.push(entry);
    toHost(entry);
  };
  const tools = await discoverConnection(
    slot.connection,
    report,
    options.observe,
    context.checked.results,
    watch,
  );
  if (options.onSkippedTool === undefined && fresh.length > 0) {
    for (const line of skippedSummary(slot.name, fresh, tools.length)) console.warn(line);
  }
  return {
    tools,
    skipped,
    listedAt: Date.now(),
    ttlMs: cache?.ttlMs ?? context.defaultTtlMs,
    cacheScope: cache?.cacheScope ?? 'private',
    spoken,
  };
}
