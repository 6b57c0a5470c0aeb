/**
 * Shared teardown of the `defineWaitTool` suites, which serve their tools over real MCP peers:
 * once a suite has stopped its peers, no TCP server or socket may be left open.
 */
import { expect } from 'vitest';

/** The TCP servers and sockets still open in this process. */
function openSockets(): string[] {
  return process
    .getActiveResourcesInfo()
    .filter((name) => name === 'TCPServerWrap' || name === 'TCPSocketWrap');
}

/**
 * Waits up to 5 s (polling every 10 ms) for every TCP server and socket to close, then expects
 * none to be open. Meant for `afterAll`.
 */
export async function expectNoOpenSockets(): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (openSockets().length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(openSockets()).toEqual([]);
}
