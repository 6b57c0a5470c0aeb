/**
 * The gateway's task ids (decision 0050): `gt1.<body>.<tag>`, sealed with the request-state
 * codec's key. An id opens only with the key that sealed it, only before it expires, only as a
 * task id (a request state never opens as one, nor a task id as a state), and gives back exactly
 * what was sealed: the tool, the upstream's id, the owner, the expiry.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createGatewayRequestState,
  type GatewayRequestState,
  type GatewayStateCodec,
  gatewayStateCodecOf,
  type SealedTaskId,
} from '../../../src/binding/mounts/gateway-state.js';

/** The codec behind `requestState`, as a mount on a v2 server created with it reads it. */
function codecOf(requestState: GatewayRequestState): GatewayStateCodec {
  const codec = gatewayStateCodecOf(
    { server: { _requestStateVerify: requestState.verify } },
    requestState,
  );
  if (codec === undefined) throw new Error('no codec');
  return codec;
}

const NOW = Date.parse('2026-12-05T12:00:00Z');
const TASK: SealedTaskId = {
  tool: 'jobs_slow_compute',
  upstream: '6f1c-upstream-id',
  owner: 'alice',
  expiresAt: NOW + 60_000,
};

afterEach(() => {
  vi.useRealTimers();
});

describe('a sealed task id', () => {
  it('opens to exactly what was sealed, with or without an owner', () => {
    vi.useFakeTimers({ now: NOW });
    const codec = codecOf(createGatewayRequestState());
    const id = codec.sealTask(TASK);
    expect(id).toMatch(/^gt1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(codec.openTask(id)).toEqual(TASK);
    const unowned = { ...TASK, owner: undefined };
    expect(codec.openTask(codec.sealTask(unowned))).toEqual(unowned);
  });

  it('opens until its expiry and not a millisecond after', () => {
    vi.useFakeTimers({ now: NOW });
    const codec = codecOf(createGatewayRequestState());
    const id = codec.sealTask(TASK);
    vi.setSystemTime(TASK.expiresAt);
    expect(codec.openTask(id)).toEqual(TASK);
    vi.setSystemTime(TASK.expiresAt + 1);
    expect(codec.openTask(id)).toBeUndefined();
  });

  it('opens only with the key that sealed it: a shared key opens it on another instance', () => {
    vi.useFakeTimers({ now: NOW });
    const key = 'a shared key of thirty-two bytes!';
    const id = codecOf(createGatewayRequestState({ key })).sealTask(TASK);
    expect(codecOf(createGatewayRequestState({ key })).openTask(id)).toEqual(TASK);
    expect(codecOf(createGatewayRequestState()).openTask(id)).toBeUndefined();
  });

  it('refuses every altered id: body, tag, version, or an extra part', () => {
    vi.useFakeTimers({ now: NOW });
    const codec = codecOf(createGatewayRequestState());
    const id = codec.sealTask(TASK);
    const [version, body = '', tag = ''] = id.split('.');
    const forged = Buffer.from(JSON.stringify({ t: TASK.tool, u: 'other', x: TASK.expiresAt }));
    const altered = [
      `${version}.${forged.toString('base64url')}.${tag}`,
      `${version}.${body}.${tag.slice(1)}`,
      `${version}.${body}.${tag.startsWith('A') ? 'B' : 'A'}${tag.slice(1)}`,
      `g1.${body}.${tag}`,
      `${id}.x`,
      `${version}.${body}`,
      '',
    ];
    expect(altered.map((candidate) => codec.openTask(candidate))).toEqual(
      altered.map(() => undefined),
    );
  });

  it('never opens as a request state, and a request state never opens as a task id', () => {
    vi.useFakeTimers({ now: NOW });
    const codec = codecOf(createGatewayRequestState());
    const state = codec.mint(TASK.tool, {}, 'upstream-state');
    expect(codec.openTask(state)).toBeUndefined();
    expect(codec.open(codec.sealTask(TASK), TASK.tool, {})).toBe(false);
  });
});

describe('a sealed request state', () => {
  it('opens to the upstream state and the task it was minted with, or to neither', () => {
    const codec = codecOf(createGatewayRequestState());
    const args = { filename: 'a.txt' };
    expect(codec.open(codec.mint('t', args, 'up-1', { taskId: 'k-1' }), 't', args)).toEqual({
      upstream: 'up-1',
      taskId: 'k-1',
    });
    expect(codec.open(codec.mint('t', args, undefined), 't', args)).toEqual({
      upstream: undefined,
      taskId: undefined,
    });
  });

  it('opens only for its tool, its arguments and its client', () => {
    const codec = codecOf(createGatewayRequestState());
    const state = codec.mint('t', { filename: 'a.txt' }, 'up', { owner: 'alice' });
    expect([
      codec.open(state, 't', { filename: 'a.txt' }, 'alice') !== false,
      codec.open(state, 'other', { filename: 'a.txt' }, 'alice'),
      codec.open(state, 't', { filename: 'b.txt' }, 'alice'),
      codec.open(state, 't', { filename: 'a.txt' }, 'bob'),
      codec.open(state, 't', { filename: 'a.txt' }),
    ]).toEqual([true, false, false, false, false]);
    // A state minted without a client opens only without one.
    const unowned = codec.mint('t', { filename: 'a.txt' }, 'up');
    expect(codec.open(unowned, 't', { filename: 'a.txt' }, 'alice')).toBe(false);
  });

  it('lives its ttlSeconds to the second, and not a millisecond more', () => {
    vi.useFakeTimers({ now: NOW });
    const codec = codecOf(createGatewayRequestState({ ttlSeconds: 1 }));
    const state = codec.mint('t', {}, 'up');
    vi.setSystemTime(NOW + 1_000);
    expect(codec.open(state, 't', {})).not.toBe(false);
    vi.setSystemTime(NOW + 1_001);
    expect(codec.open(state, 't', {})).toBe(false);
  });

  it('takes a key of 16 bytes and refuses one of 15', () => {
    expect(() => createGatewayRequestState({ key: 'k'.repeat(16) })).not.toThrow();
    expect(() => createGatewayRequestState({ key: 'k'.repeat(15) })).toThrow(
      'createGatewayRequestState: the key needs 16 bytes or more',
    );
  });
});
