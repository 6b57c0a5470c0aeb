import { describe, expect, it } from 'vitest';
import { operationFromMeta, toStatePath } from '../../src/machines/observe.js';

describe('toStatePath', () => {
  it.each([
    ['polling', 'polling'],
    [{ handshake: 'streamable' }, 'handshake.streamable'],
    [{ handshake: { legacy: 'endpoint' } }, 'handshake.legacy.endpoint'],
    [{ a: 'x', b: { c: 'y' } }, 'a.x,b.c.y'],
    [{ region: {} }, 'region'],
  ])('renders %j as %s', (value, path) => {
    expect(toStatePath(value)).toBe(path);
  });
});

describe('operationFromMeta', () => {
  it('takes the deepest active state that names an operation', () => {
    expect(
      operationFromMeta({
        'm.handshake': { operation: 'initialize' },
        'm.handshake.legacy': { operation: 'endpoint' },
        'm.handshake.legacy.wait': { note: 'no operation' },
      }),
    ).toBe('endpoint');
  });

  it('is undefined when no active state names one', () => {
    expect(operationFromMeta({ 'm.idle': { note: 'x' } })).toBeUndefined();
  });
});
