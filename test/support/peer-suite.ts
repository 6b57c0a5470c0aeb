/**
 * Shared setup for suites against the MCP SDK peers: the peers start before the first test, and
 * after the last one they are closed and the file must have left no socket or timer behind and no
 * unhandled rejection.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { type McpPeers, startMcpPeers } from '../fixtures/mcp-peers.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from './leaks.js';

/**
 * Registers the suite's hooks and returns the peers. Call it once, first, at the top level of a
 * test file: its `afterAll` then runs after the file's own, so other servers are closed before
 * the leak check. The returned object forwards to the peers started in `beforeAll`.
 */
export function useMcpPeers(): McpPeers {
  let started: McpPeers | undefined;
  let baseline: ReturnType<typeof activeResourceCounts>;
  const unhandled = trackUnhandledRejections();
  const running = (): McpPeers => {
    if (started === undefined) throw new Error('the MCP peers start in beforeAll');
    return started;
  };

  beforeAll(async () => {
    baseline = activeResourceCounts();
    started = await startMcpPeers();
  });
  afterAll(async () => {
    await started?.close();
    await expectNoLeakedResources(baseline);
    expect(unhandled).toEqual([]);
  });

  return {
    get origin() {
      return running().origin;
    },
    url: (path) => running().url(path),
    get log() {
      return running().log;
    },
    get sessions() {
      return running().sessions;
    },
    get abortedToolSignals() {
      return running().abortedToolSignals;
    },
    openStreams: () => running().openStreams(),
    resetLog: () => running().resetLog(),
    close: () => running().close(),
  };
}
