/**
 * A live catalog seen from outside (issue 47): each relisting is an operation with its own
 * `tools/list` span, and the `listen` machine's states reach `observe` like every machine's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defineMcpClientConnection,
  type TransitionRecord,
  watchConnections,
} from '../../src/connections/index.js';
import { type EvolvingServers, startEvolvingServers } from '../fixtures/evolving-servers.js';
import { leakedHandles } from '../support/loopback-server.js';
import { useOtel } from '../support/otel.js';
import { until } from '../support/until.js';

const otel = useOtel();
let servers: EvolvingServers;

beforeAll(async () => {
  servers = await startEvolvingServers({ ttlMs: 60_000 });
});
afterAll(async () => {
  await servers.close();
  expect(await leakedHandles()).toEqual([]);
});

describe('a live catalog, observed', () => {
  it('exports a tools/list span per relisting, and records the listen states', async () => {
    const records: TransitionRecord[] = [];
    const connection = defineMcpClientConnection({
      name: 'observed',
      transport: { url: servers.url('/v2/stateless-only') },
    });
    const catalog = await watchConnections([connection], {
      listen: true,
      minRefreshIntervalMs: 0,
      observe: (record) => records.push(record),
    });
    await until('the stream is open', () => servers.openStreams('/v2/stateless-only') === 1);
    const changes: string[][] = [];
    catalog.on('change', (change) => changes.push([...change.added]));
    await servers.addTool('gamma', 'gamma v1');
    await until('gamma is seen', () => changes.length === 1);
    await catalog.refresh();
    await catalog.close();

    // Discovery, the notified relisting, the manual one: three listings, three spans.
    const listings = otel.spans().filter((span) => span.name === 'tools/list');
    expect(listings).toHaveLength(3);
    const listen = records.filter((record) => record.machine === 'listen');
    expect(listen.map((record) => record.to)).toEqual([
      'streaming.connecting',
      'streaming.listening.quiet',
      'streaming.listening.settling',
      'streaming.listening.quiet',
      'closed',
    ]);
    expect(new Set(listen.map((record) => record.connection))).toEqual(new Set(['observed']));
    await servers.removeTool('gamma', { notify: false });
  });
});
