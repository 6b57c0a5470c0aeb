/**
 * Live catalogs against real MCP SDK servers whose tools change while they run (issue 47): a tool
 * added, removed and changed is seen through list-changed on each wire that has one, through a
 * call that finds a tool gone, and through TTL expiry; a burst is one relisting; a dropped stream
 * reconnects; a failing refresh keeps the last listing; `close()` leaves nothing open.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogChange,
  defineMcpClientConnection,
  type LiveCatalog,
  watchConnections,
} from '../../src/connections/index.js';
import { runTool } from '../../src/index.js';
import {
  type EvolvingPath,
  type EvolvingServers,
  startEvolvingServers,
} from '../fixtures/evolving-servers.js';
import { leakedHandles } from '../support/loopback-server.js';
import { until } from '../support/until.js';

let servers: EvolvingServers;
const open: LiveCatalog[] = [];

beforeAll(async () => {
  // A long TTL, so that reading the catalog lists nothing by itself: each test's listings are
  // the ones its signal asks for (the TTL tests start servers of their own).
  servers = await startEvolvingServers({ ttlMs: 60_000 });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((catalog) => catalog.close()));
  await servers.reset();
});
afterAll(async () => {
  await servers.close();
  expect(await leakedHandles()).toEqual([]);
});

const names = (catalog: LiveCatalog) => catalog.tools().map((tool) => tool.name);
const listening = (catalog: LiveCatalog) =>
  catalog.describe().connections[0]?.listen === 'listening';

async function watch(
  path: EvolvingPath,
  options: Parameters<typeof watchConnections>[1] = {},
): Promise<{ catalog: LiveCatalog; changes: CatalogChange[] }> {
  const connection = defineMcpClientConnection({
    name: 'evolving',
    transport: {
      url: servers.url(path),
      ...(path === '/v1/sse' ? { type: 'sse' as const } : {}),
    },
  });
  const catalog = await watchConnections([connection], { onSkippedTool: () => {}, ...options });
  open.push(catalog);
  const changes: CatalogChange[] = [];
  catalog.on('change', (change) => changes.push(change));
  return { catalog, changes };
}

describe('a live catalog that listens', () => {
  it.each([
    ['/v2/stateless-only', 'stateless'],
    ['/v2/dual', 'stateless'],
    ['/v1/stateful', 'session'],
    ['/v1/sse', 'sse'],
  ] as const)(
    'on %s (%s wire) sees a tool added, changed and removed as they are announced',
    async (path, _wire) => {
      const { catalog, changes } = await watch(path, { listen: true, minRefreshIntervalMs: 0 });
      await until('the catalog listens', () => listening(catalog));
      expect(catalog.describe().connections.map((entry) => entry.listen)).toEqual(['listening']);
      const listed = servers.listCalls(path);

      const started = performance.now();
      await servers.addTool('gamma', 'gamma v1');
      await until('gamma is seen', () => changes.length === 1);
      const added = performance.now() - started;
      expect(changes[0]).toEqual({
        connection: 'evolving',
        added: ['gamma'],
        removed: [],
        changed: [],
        reason: 'list-changed',
      });
      expect(names(catalog)).toEqual(['alpha', 'beta', 'gamma']);

      await servers.changeTool('alpha', { description: 'alpha v2' });
      await until('alpha v2 is seen', () => changes.length === 2);
      expect(changes[1]).toMatchObject({ added: [], removed: [], changed: ['alpha'] });
      expect(catalog.tools().find((tool) => tool.name === 'alpha')?.description).toBe('alpha v2');

      await servers.removeTool('beta');
      await until('beta is gone', () => changes.length === 3);
      expect(changes[2]).toMatchObject({ added: [], removed: ['beta'], changed: [] });
      expect(names(catalog)).toEqual(['alpha', 'gamma']);
      // One relisting per change, and nothing else listed.
      expect(servers.listCalls(path) - listed).toBe(3);
      console.info(
        `${path}: upstream change to the catalog's change event in ${added.toFixed(0)} ms`,
      );
    },
  );

  it('gathers a burst of 20 notifications into one relisting', async () => {
    const path = '/v2/stateless-only';
    const { catalog, changes } = await watch(path, { listen: true });
    await until('the catalog listens', () => listening(catalog));
    const listed = servers.listCalls(path);
    await servers.addTool('gamma', 'gamma v1', { notify: false });
    await servers.notifyBurst(20);
    await until('gamma is seen', () => changes.length === 1);
    // The debounce window has passed and the relisting is done: nothing more comes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(servers.listCalls(path) - listed).toBe(1);
    expect(changes.map((change) => change.added)).toEqual([['gamma']]);
    expect(names(catalog)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it.each([['/v2/stateless-only'], ['/v1/stateful'], ['/v1/sse']] as const)(
    'on %s reconnects a dropped stream and catches up on what it missed',
    async (path) => {
      const { catalog, changes } = await watch(path, { listen: true });
      await until('the catalog listens', () => listening(catalog));
      expect(await servers.dropStreams(path)).toBe(1);
      await until('the catalog waits to reconnect', () => !listening(catalog));
      expect(catalog.describe().connections[0]?.listen).toBe('reconnecting');
      // Changed while the stream is down: nobody is told, the reconnect relists.
      await servers.addTool('gamma', 'gamma v1');
      await until('gamma is seen', () => changes.length === 1);
      expect(listening(catalog)).toBe(true);
      expect(changes[0]).toMatchObject({ added: ['gamma'], reason: 'list-changed' });
      expect(names(catalog)).toEqual(['alpha', 'beta', 'gamma']);
    },
  );

  it('on /v1/stateless, which has no stream to give, listens to nothing and still refreshes', async () => {
    const path = '/v1/stateless';
    const { catalog, changes } = await watch(path, { listen: true });
    await until(
      'the listen state is known',
      () => catalog.describe().connections[0]?.listen === 'unoffered',
    );
    expect(servers.openStreams(path)).toBe(0);
    await servers.addTool('gamma', 'gamma v1');
    await catalog.refresh();
    expect(changes).toEqual([
      { connection: 'evolving', added: ['gamma'], removed: [], changed: [], reason: 'manual' },
    ]);
  });
});

describe('a live catalog that does not listen', () => {
  it.each([['/v2/stateless-only'], ['/v1/stateful']] as const)(
    'on %s relists once when a call finds its tool gone, and the call fails typed',
    async (path) => {
      const { catalog, changes } = await watch(path);
      const beta = catalog.tools().find((tool) => tool.name === 'beta');
      await servers.removeTool('beta', { notify: false });
      const result = await runTool(beta as NonNullable<typeof beta>, {}, { source: 'agent' });
      expect(result.ok).toBe(false);
      await until('beta is gone', () => changes.length === 1);
      expect(changes[0]).toEqual({
        connection: 'evolving',
        added: [],
        removed: ['beta'],
        changed: [],
        reason: 'unknown-tool',
      });
      expect(names(catalog)).toEqual(['alpha']);
    },
  );

  it.each([
    ['/v2/stateless-only', ['POST tools/list 200']],
    ['/v2/dual', ['POST tools/list 200']],
    [
      '/v1/stateful',
      [
        'POST initialize 200',
        'POST notifications/initialized 202',
        'POST tools/list 200',
        'DELETE - 200',
      ],
    ],
    [
      '/v1/stateless',
      ['POST initialize 200', 'POST notifications/initialized 202', 'POST tools/list 200'],
    ],
    [
      '/v1/sse',
      [
        'GET - 200',
        'POST initialize 202',
        'POST notifications/initialized 202',
        'POST tools/list 202',
      ],
    ],
  ] as const)(
    'on %s a relisting costs exactly what discovery settled on, no probe',
    async (path, expected) => {
      const { catalog } = await watch(path);
      servers.resetLog();
      await catalog.refresh();
      expect(
        servers.log.map((entry) => `${entry.httpMethod} ${entry.rpcMethod ?? '-'} ${entry.status}`),
      ).toEqual(expected);
    },
  );

  it('honours a listing TTL: relisted once it has passed and the catalog is read, not before', async () => {
    const ttl = await startEvolvingServers({ ttlMs: 300 });
    try {
      const connection = defineMcpClientConnection({
        name: 'ttl',
        transport: { url: ttl.url('/v2/stateless-only') },
      });
      const catalog = await watchConnections([connection], { minRefreshIntervalMs: 0 });
      open.push(catalog);
      const changes: CatalogChange[] = [];
      catalog.on('change', (change) => changes.push(change));
      expect(catalog.describe().connections[0]?.ttlMs).toBe(300);
      await ttl.addTool('gamma', 'gamma v1', { notify: false });
      // Fresh: reading does not list again.
      expect(catalog.tools().map((tool) => tool.name)).toEqual(['alpha', 'beta']);
      expect(ttl.listCalls('/v2/stateless-only')).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 350));
      // Stale: the read answers at once with what the catalog holds, and lists again behind it.
      expect(catalog.tools().map((tool) => tool.name)).toEqual(['alpha', 'beta']);
      await until('gamma is seen', () => changes.length === 1);
      expect(changes[0]).toMatchObject({ added: ['gamma'], reason: 'ttl' });
      expect(ttl.listCalls('/v2/stateless-only')).toBe(2);
      await catalog.close();
    } finally {
      await ttl.close();
    }
  });

  it.each([
    // Within the floor, 50 reads of a stale listing ask for one relisting, at the floor's end.
    [300, 'at the floor'],
    // With no floor, the first read starts it and the other 49 share it.
    [0, 'at once'],
  ])('lists a connection whose TTL is 0 once for 50 reads (floor %i ms: %s)', async (floor) => {
    const zero = await startEvolvingServers();
    try {
      const connection = defineMcpClientConnection({
        name: 'zero',
        transport: { url: zero.url('/v2/stateless-only') },
      });
      const catalog = await watchConnections([connection], { minRefreshIntervalMs: floor });
      open.push(catalog);
      expect(catalog.describe().connections[0]?.ttlMs).toBe(0);
      for (let read = 0; read < 50; read += 1) catalog.tools();
      await until('the catalog relisted', () => zero.listCalls('/v2/stateless-only') === 2);
      await new Promise((resolve) => setTimeout(resolve, floor + 200));
      expect(zero.listCalls('/v2/stateless-only')).toBe(2);
      await catalog.close();
    } finally {
      await zero.close();
    }
  });

  it('keeps the last good listing when a refresh fails, and says why', async () => {
    const gone = await startEvolvingServers();
    const connection = defineMcpClientConnection({
      name: 'gone',
      transport: { url: gone.url('/v2/stateless-only') },
    });
    const catalog = await watchConnections([connection]);
    open.push(catalog);
    const changes: CatalogChange[] = [];
    catalog.on('change', (change) => changes.push(change));
    await gone.close();
    await catalog.refresh();
    expect(catalog.tools().map((tool) => tool.name)).toEqual(['alpha', 'beta']);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ added: [], removed: [], changed: [], reason: 'manual' });
    expect(changes[0]?.error?.name).toBe('ConnectionNetworkError');
    expect(catalog.describe().connections[0]?.lastRefresh).toMatchObject({
      reason: 'manual',
      outcome: 'failed',
    });
  });

  it('leaves no stream, socket or timer after close()', async () => {
    const { catalog } = await watch('/v2/stateless-only', {
      listen: true,
      refreshInterval: 60_000,
    });
    await until('the stream is open', () => servers.openStreams('/v2/stateless-only') === 1);
    await catalog.close();
    await until('the stream is closed', () => servers.openStreams('/v2/stateless-only') === 0);
    expect(catalog.describe().connections[0]?.listen).toBe('closed');
  });
});
