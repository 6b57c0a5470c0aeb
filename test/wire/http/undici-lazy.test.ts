/** undici is loaded on the first request, once for the process (decision 0048). */
import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { loadUndici } from '../../../src/wire/http/undici-lazy.js';

describe('loadUndici', () => {
  it("resolves to undici's own classes, the same module for every caller", async () => {
    const [first, second] = await Promise.all([loadUndici(), loadUndici()]);
    expect(first.Agent).toBe(undici.Agent);
    expect(first.ProxyAgent).toBe(undici.ProxyAgent);
    expect(first.EnvHttpProxyAgent).toBe(undici.EnvHttpProxyAgent);
    expect(second).toBe(first);
    expect(await loadUndici()).toBe(first);
  });
});
