/**
 * Leak checks for suites that do real I/O: after a suite stops its servers, the library must have
 * left no socket and no timer behind, and no promise rejection may have gone unhandled.
 */
import { expect } from 'vitest';

type ResourceCounts = Readonly<Record<string, number>>;

const WATCHED = ['TCPSocketWrap', 'TCPServerWrap', 'Timeout'] as const;

/** Counts of the active handle kinds that matter (sockets, servers, timers). */
export function activeResourceCounts(): ResourceCounts {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if ((WATCHED as readonly string[]).includes(kind)) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

function exceeds(now: ResourceCounts, baseline: ResourceCounts): string[] {
  return WATCHED.filter((kind) => (now[kind] ?? 0) > (baseline[kind] ?? 0)).map(
    (kind) => `${kind}: ${now[kind] ?? 0} now, ${baseline[kind] ?? 0} before`,
  );
}

/**
 * Waits (bounded, 2 s) for sockets and timers to return to the baseline taken before the suite;
 * closed peers make the client's pooled sockets close asynchronously.
 */
export async function expectNoLeakedResources(baseline: ResourceCounts): Promise<void> {
  const deadline = Date.now() + 2_000;
  let excess = exceeds(activeResourceCounts(), baseline);
  while (excess.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    excess = exceeds(activeResourceCounts(), baseline);
  }
  expect(excess).toEqual([]);
}

const unhandled: unknown[] = [];
let tracking = false;

/** Starts recording unhandled rejections for this test file (idempotent). */
export function trackUnhandledRejections(): readonly unknown[] {
  if (!tracking) {
    tracking = true;
    process.on('unhandledRejection', (reason) => {
      unhandled.push(reason);
    });
  }
  return unhandled;
}

/** The TCP servers and sockets still open in this process. */
function openSockets(): string[] {
  return process
    .getActiveResourcesInfo()
    .filter((name) => name === 'TCPServerWrap' || name === 'TCPSocketWrap');
}

/**
 * Waits up to 5 s (polling every 10 ms) for every TCP server and socket of this test file's
 * process to close, then expects none to be open. Meant for `afterAll` once the suite's servers
 * are stopped.
 */
export async function expectNoOpenSockets(): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (openSockets().length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(openSockets()).toEqual([]);
}
