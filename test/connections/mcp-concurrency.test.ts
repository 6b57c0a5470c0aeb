/**
 * Many calls at once: each call is its own client with its own credential, every one completes,
 * and nothing accumulates on shared objects (no listener warnings, no sessions left open).
 */
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../../src/connections/index.js';
import { useMcpPeers } from '../support/peer-suite.js';

const peers = useMcpPeers();

describe('concurrent calls', () => {
  it('completes 32 concurrent calls without a signal, each with its own bearer, and emits no warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const [whoami] = await mountConnections([
        defineMcpClientConnection({
          name: 'peer',
          transport: { url: peers.url('/stateful') },
          token: (context) =>
            context === undefined ? 'discovery' : `user-${String(context.user)}`,
          tools: { allow: ['whoami'] },
        }),
      ]);
      if (whoami === undefined) throw new Error('whoami not mounted');
      const users = Array.from({ length: 32 }, (_, index) => index);
      const results = await Promise.all(
        users.map((user) => runTool(whoami, {}, { source: 'agent', context: { user } })),
      );
      expect(
        results.map(
          (result) =>
            (result as { data?: { structuredContent?: { authorization?: string } } }).data
              ?.structuredContent?.authorization,
        ),
      ).toEqual(users.map((user) => `Bearer user-${user}`));
      // Let any deferred process warning surface before checking.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.name)).toEqual([]);
      await expect.poll(() => peers.sessions.active).toBe(0);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
