/**
 * The rules of a live catalog (issue 47), pure: what a relisting changed, when a listing is
 * stale, and when the next relisting of a connection may start. Time is passed in.
 */
import type { AnyRuntimeToolDefinition } from '../binding/index.js';
import type { CatalogChangeReason } from './live-catalog-types.js';

/** The default least time between two unasked relistings of one connection. */
export const DEFAULT_MIN_REFRESH_INTERVAL_MS = 1_000;

/** What a model sees of a tool: a change to any of it is a change of the tool. */
function fingerprintOf(tool: AnyRuntimeToolDefinition): string {
  return JSON.stringify([
    tool.description,
    tool.inputJsonSchema ?? null,
    tool.outputJsonSchema ?? null,
    tool.annotations ?? null,
  ]);
}

/** The tools added, removed and changed from `before` to `after`, by name, each list sorted. */
export function diffTools(
  before: readonly AnyRuntimeToolDefinition[],
  after: readonly AnyRuntimeToolDefinition[],
): { added: string[]; removed: string[]; changed: string[] } {
  const old = new Map(before.map((tool) => [tool.name, fingerprintOf(tool)]));
  const added: string[] = [];
  const changed: string[] = [];
  for (const tool of after) {
    const previous = old.get(tool.name);
    if (previous === undefined) added.push(tool.name);
    else if (previous !== fingerprintOf(tool)) changed.push(tool.name);
    old.delete(tool.name);
  }
  return { added: added.sort(), removed: [...old.keys()].sort(), changed: changed.sort() };
}

/**
 * The longest a gateway tells its clients its listing stays fresh, in ms: with no upstream TTL
 * (a 2025 server, a document) a change still reaches a client that polls within a minute.
 */
export const MAX_GATEWAY_TTL_MS = 60_000;

/** How long a listing received at `listedAt`, fresh for `ttlMs`, has left at `now` (never < 0). */
export function remainingTtl(listedAt: number, ttlMs: number, now: number): number {
  return Math.max(0, listedAt + ttlMs - now);
}

/** Whether a listing received at `listedAt` and fresh for `ttlMs` (absent: forever) is stale. */
export function isStale(listedAt: number, ttlMs: number | undefined, now: number): boolean {
  return ttlMs !== undefined && now >= listedAt + ttlMs;
}

/**
 * How long to wait before a relisting nobody asked for by name may start: none once `floorMs`
 * has passed since the last one started.
 */
export function waitBeforeRelisting(lastStartedAt: number, floorMs: number, now: number): number {
  return Math.max(0, lastStartedAt + floorMs - now);
}

/**
 * `after` with each tool whose model-facing parts did not change replaced by its definition in
 * `before`: a relisting then leaves unchanged tools the same objects, so a mount that follows the
 * catalog registers again only what changed.
 */
export function keepUnchanged(
  before: readonly AnyRuntimeToolDefinition[],
  after: readonly AnyRuntimeToolDefinition[],
): AnyRuntimeToolDefinition[] {
  const old = new Map(before.map((tool) => [tool.name, tool]));
  return after.map((tool) => {
    const previous = old.get(tool.name);
    return previous !== undefined && fingerprintOf(previous) === fingerprintOf(tool)
      ? previous
      : tool;
  });
}

/**
 * The reason one relisting asked for twice reports: a TTL expiry gives way to any signal (a
 * notification, an unknown tool, the interval, a manual refresh), which says more of why; else
 * the first reason stands.
 */
export function reasonToTell(
  pending: CatalogChangeReason | undefined,
  asked: CatalogChangeReason,
): CatalogChangeReason {
  return pending === undefined || pending === 'ttl' ? asked : pending;
}
