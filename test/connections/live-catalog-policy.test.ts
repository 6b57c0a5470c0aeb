import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyRuntimeToolDefinition, defineRuntimeTool } from '../../src/binding/index.js';
import {
  diffTools,
  isStale,
  keepUnchanged,
  MAX_GATEWAY_TTL_MS,
  reasonToTell,
  remainingTtl,
  waitBeforeRelisting,
} from '../../src/connections/live-catalog-policy.js';

function tool(
  name: string,
  description = `${name} v1`,
  extra: Partial<AnyRuntimeToolDefinition> = {},
): AnyRuntimeToolDefinition {
  return defineRuntimeTool({
    name,
    description,
    identity: { serviceName: 'up', action: name, method: 'POST' },
    input: z.object({}),
    handler: () => null,
    ...extra,
  }) as AnyRuntimeToolDefinition;
}

describe('diffTools', () => {
  it('names what was added, removed and changed, each sorted', () => {
    const before = [tool('b'), tool('a'), tool('c'), tool('d')];
    const after = [
      tool('e'),
      tool('a', 'a v2'),
      tool('c', 'c v1', { inputJsonSchema: { type: 'object', properties: { q: {} } } }),
      tool('d', 'd v1', { annotations: { readOnlyHint: true } }),
      tool('f'),
    ];
    expect(diffTools(before, after)).toEqual({
      added: ['e', 'f'],
      removed: ['b'],
      changed: ['a', 'c', 'd'],
    });
  });

  it('sees no change in a relisting that built the same tools again', () => {
    expect(diffTools([tool('a'), tool('b')], [tool('b'), tool('a')])).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
  });
});

describe('keepUnchanged', () => {
  it('keeps the old definition of an unchanged tool and takes the new one of a changed tool', () => {
    const a = tool('a');
    const b = tool('b');
    const kept = keepUnchanged([a, b], [tool('a'), tool('b', 'b v2'), tool('c')]);
    expect(kept[0]).toBe(a);
    expect(kept[1]).not.toBe(b);
    expect(kept.map((each) => [each.name, each.description])).toEqual([
      ['a', 'a v1'],
      ['b', 'b v2'],
      ['c', 'c v1'],
    ]);
  });
});

describe('freshness and the floor', () => {
  it.each([
    [1_000, undefined, 10_000_000, false],
    [1_000, 0, 1_000, true],
    [1_000, 500, 1_499, false],
    [1_000, 500, 1_500, true],
  ])('a listing at %i fresh for %s is stale at %i: %s', (listedAt, ttl, now, expected) => {
    expect(isStale(listedAt, ttl, now)).toBe(expected);
  });

  it.each([
    [1_000, 1_000, 1_000, 1_000],
    [1_000, 1_000, 1_400, 600],
    [1_000, 1_000, 2_000, 0],
    [1_000, 0, 1_000, 0],
  ])('after a relisting at %i with a floor of %i, at %i waits %i', (last, floor, now, wait) => {
    expect(waitBeforeRelisting(last, floor, now)).toBe(wait);
  });

  it('tells what remains of a TTL, never less than nothing', () => {
    expect([remainingTtl(0, 30_000, 10_000), remainingTtl(0, 30_000, 40_000)]).toEqual([20_000, 0]);
    expect(MAX_GATEWAY_TTL_MS).toBe(60_000);
  });
});

describe('reasonToTell', () => {
  it('lets any signal replace a TTL expiry, and keeps the first signal otherwise', () => {
    expect(reasonToTell(undefined, 'ttl')).toBe('ttl');
    expect(reasonToTell('ttl', 'unknown-tool')).toBe('unknown-tool');
    expect(reasonToTell('ttl', 'ttl')).toBe('ttl');
    expect(reasonToTell('list-changed', 'unknown-tool')).toBe('list-changed');
    expect(reasonToTell('manual', 'ttl')).toBe('manual');
  });
});
