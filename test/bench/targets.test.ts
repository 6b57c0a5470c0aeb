/**
 * The benchmark's floor targets read the like-for-like floor: the same requests on undici's
 * `request` (the wire client ours is built on), not the WHATWG `fetch` row printed beside it.
 */
import { describe, expect, it } from 'vitest';
import type { AlternativeResult } from '../../bench/rounds.js';
import { computeTargets } from '../../bench/targets.js';

/** A measured row with the latency and client CPU given, every other figure neutral. */
function measured(
  id: AlternativeResult['id'],
  latencyMedianMs: number,
  cpuMicrosPerCall: number,
): AlternativeResult {
  return {
    id,
    name: id,
    latencyMedianMs,
    latencyP95Ms: latencyMedianMs,
    cpuMicrosPerCall,
    mainThreadCpuMicrosPerCall: cpuMicrosPerCall,
    throughputMedian: 100,
    throughputP95: 100,
    requestsPerCall: { POST: 3 },
    connectionsPerCall: 0,
    serverCpuMicrosPerCall: 1_000,
    serverMainThreadCpuMicrosPerCall: 1_000,
  };
}

const none = { server: 'sessionless' as const, results: [] };

function targetRows(
  results: readonly AlternativeResult[],
  xstate = Number.NaN,
  floor = Number.NaN,
) {
  return computeTargets({
    sessionless: { server: 'sessionless', results },
    legacy: none,
    throughput: none,
    sse: [],
    profile: {
      calls: 0,
      packages: [],
      busyMicros: 0,
      xstateShare: xstate,
      xstateFunctions: [],
    },
    memory: [],
    xstateFloorShare: floor,
  });
}

function floorRows(results: readonly AlternativeResult[]) {
  return targetRows(results).filter((row) => row.target.includes('floor'));
}

describe('the XState target row', () => {
  it("prints XState's own floor for the call beside its share", () => {
    const row = targetRows([], 0.27, 0.105).find((entry) => entry.target.startsWith('XState'));
    expect(row).toEqual({
      target: "XState's share of a call's client CPU (profile, charged)",
      goal: '<= 10 %',
      measured: "27.0 % (XState's own floor for this call: 10.5 %)",
      status: 'missed',
    });
  });
});

describe('the floor targets of bench section 1', () => {
  it('divide ours by the raw undici row, not the raw fetch row', () => {
    // Ours 2.35x the undici floor's CPU and 2x its latency, under half of fetch's.
    const rows = floorRows([
      measured('ours', 2, 2_350),
      measured('sdk-per-call', 4, 5_000),
      measured('raw-fetch', 4.5, 5_000),
      measured('raw-undici', 1, 1_000),
    ]);
    expect(rows).toEqual([
      {
        target: 'the same vs the raw undici floor',
        goal: '<= 1.05x',
        measured: '2.00x',
        status: 'missed',
      },
      {
        target: 'client CPU per call vs the raw undici floor',
        goal: '<= 1.00x',
        measured: '2.35x',
        status: 'missed',
      },
    ]);
  });

  it('are met when ours is at or under the undici floor', () => {
    const rows = floorRows([
      measured('ours', 1, 900),
      measured('raw-fetch', 0.5, 400),
      measured('raw-undici', 1, 1_000),
    ]);
    expect(rows.map((row) => [row.measured, row.status])).toEqual([
      ['1.00x', 'met'],
      ['0.90x', 'met'],
    ]);
  });

  it('are not measured without an undici row', () => {
    const rows = floorRows([measured('ours', 1, 900), measured('raw-fetch', 2, 2_000)]);
    expect(rows.map((row) => [row.measured, row.status])).toEqual([
      ['n/a', 'not measured'],
      ['n/a', 'not measured'],
    ]);
  });
});
