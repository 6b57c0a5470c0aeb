import { describe, expect, it } from 'vitest';
import {
  assertMaxResponseBytes,
  assertTimeoutMs,
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  limitsForOperation,
  MAX_TIMER_MS,
  resolveMcpLimits,
  resolveOperationLimits,
} from '../../src/connections/limits.js';
import {
  type ConnectionOperation,
  type ConnectionPhase,
  phaseOfOperation,
} from '../../src/wire/core/operation.js';

const INVALID: readonly [string, unknown][] = [
  ['0', 0],
  ['-1', -1],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['1.5', 1.5],
  ['MAX_SAFE_INTEGER + 1', Number.MAX_SAFE_INTEGER + 1],
  ['a numeric string', '100'],
];

describe('defaults', () => {
  it('are 30 s, 1 MiB and the 32-bit timer range', () => {
    expect(DEFAULT_CONNECTION_TIMEOUT_MS).toBe(30_000);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(1_048_576);
    expect(MAX_TIMER_MS).toBe(2_147_483_647);
  });

  it('fill both phases and the task deadline when nothing is configured', () => {
    const limits = resolveMcpLimits({});
    const expected = { timeoutMs: 30_000, maxResponseBytes: 1_048_576 };
    expect(limits).toEqual({ discovery: expected, call: expected, task: { timeoutMs: 600_000 } });
  });
});

describe('limits.task', () => {
  it('takes the task deadline of a call that becomes a task, apart from the request deadline', () => {
    const limits = resolveMcpLimits({ timeoutMs: 5_000, limits: { task: { timeoutMs: 90_000 } } });
    expect(limits.task).toEqual({ timeoutMs: 90_000 });
    expect(limits.call.timeoutMs).toBe(5_000);
  });

  it.each([0, -1, 1.5, Number.NaN, 2_147_483_648, '60000'])(
    'refuses %s, naming the option',
    (value) => {
      expect(() => resolveMcpLimits({ limits: { task: { timeoutMs: value as number } } })).toThrow(
        /limits\.task\.timeoutMs/,
      );
    },
  );
});

describe('assertTimeoutMs', () => {
  it.each([1, 50, MAX_TIMER_MS])('accepts %d', (value) => {
    expect(assertTimeoutMs(value, 'timeoutMs')).toBe(value);
  });

  it.each([...INVALID, ['2_147_483_648', 2_147_483_648]])('refuses %s', (_label, value) => {
    expect(() => assertTimeoutMs(value, 'limits.call.timeoutMs')).toThrow(RangeError);
    expect(() => assertTimeoutMs(value, 'limits.call.timeoutMs')).toThrow(
      /limits\.call\.timeoutMs must be a positive integer .* 2147483647/,
    );
  });
});

describe('assertMaxResponseBytes', () => {
  it.each([1, 64, Number.MAX_SAFE_INTEGER])('accepts %d', (value) => {
    expect(assertMaxResponseBytes(value, 'maxResponseBytes')).toBe(value);
  });

  it.each(INVALID)('refuses %s', (_label, value) => {
    expect(() => assertMaxResponseBytes(value, 'maxResponseBytes')).toThrow(
      /maxResponseBytes must be a positive safe integer/,
    );
  });
});

type Field = 'timeoutMs' | 'maxResponseBytes';
const FIELDS: readonly Field[] = ['timeoutMs', 'maxResponseBytes'];
const PHASES: readonly ConnectionPhase[] = ['discovery', 'call'];

describe.each(FIELDS)('resolveMcpLimits refuses an invalid %s', (field) => {
  it.each(INVALID)('as the shared value (%s)', (_label, value) => {
    expect(() => resolveMcpLimits({ [field]: value })).toThrow(RangeError);
    expect(() => resolveMcpLimits({ [field]: value })).toThrow(new RegExp(`^${field} must`));
  });

  it.each(
    PHASES.flatMap((phase) => INVALID.map(([label, value]) => [phase, label, value] as const)),
  )('in limits.%s (%s), even when the other phase is valid', (phase, _label, value) => {
    const attempt = () => resolveMcpLimits({ limits: { [phase]: { [field]: value } } });
    expect(attempt).toThrow(RangeError);
    expect(attempt).toThrow(new RegExp(`^limits\\.${phase}\\.${field} must`));
  });
});

describe('timer range', () => {
  it.each([
    ['shared', { timeoutMs: 2_147_483_648 }],
    ['discovery', { limits: { discovery: { timeoutMs: 2_147_483_648 } } }],
    ['call', { limits: { call: { timeoutMs: 2_147_483_648 } } }],
  ])('refuses 2_147_483_648 ms as the %s timeout', (_label, config) => {
    expect(() => resolveMcpLimits(config)).toThrow(RangeError);
  });

  it('accepts a byte ceiling above the timer range', () => {
    expect(resolveMcpLimits({ maxResponseBytes: 2_147_483_648 }).call.maxResponseBytes).toBe(
      2_147_483_648,
    );
  });
});

describe('maxTotalTimeoutMs', () => {
  it('is per phase, absent unless given, and validated as a timer value', () => {
    const limits = resolveMcpLimits({ limits: { call: { maxTotalTimeoutMs: 60_000 } } });
    expect(limits.call).toEqual({
      timeoutMs: 30_000,
      maxResponseBytes: 1_048_576,
      maxTotalTimeoutMs: 60_000,
    });
    expect(limits.discovery).toEqual({ timeoutMs: 30_000, maxResponseBytes: 1_048_576 });
    for (const value of [0, -1, 1.5, 2 ** 31, Number.NaN, '60000']) {
      expect(() =>
        resolveMcpLimits({ limits: { call: { maxTotalTimeoutMs: value as number } } }),
      ).toThrow(
        new RangeError(
          `limits.call.maxTotalTimeoutMs must be a positive integer number of milliseconds no greater than 2147483647 (the timer range); got ${typeof value === 'number' ? String(value) : typeof value}`,
        ),
      );
    }
  });
});

describe('per-field inheritance', () => {
  it('inherits the shared values when no override is given', () => {
    const limits = resolveMcpLimits({ timeoutMs: 5_000, maxResponseBytes: 2_048 });
    expect(limits.discovery).toEqual({ timeoutMs: 5_000, maxResponseBytes: 2_048 });
    expect(limits.call).toEqual({ timeoutMs: 5_000, maxResponseBytes: 2_048 });
  });

  it('overrides one field of one phase and inherits the other field', () => {
    const limits = resolveMcpLimits({
      timeoutMs: 5_000,
      maxResponseBytes: 2_048,
      limits: { discovery: { maxResponseBytes: 8_192 }, call: { timeoutMs: 60_000 } },
    });
    expect(limits.discovery).toEqual({ timeoutMs: 5_000, maxResponseBytes: 8_192 });
    expect(limits.call).toEqual({ timeoutMs: 60_000, maxResponseBytes: 2_048 });
  });

  it('treats an explicitly undefined override field as inherit', () => {
    const limits = resolveMcpLimits({
      timeoutMs: 5_000,
      limits: { call: { timeoutMs: undefined, maxResponseBytes: 10 } },
    });
    expect(limits.call).toEqual({ timeoutMs: 5_000, maxResponseBytes: 10 });
  });

  it('inherits the defaults when only overrides are given', () => {
    const limits = resolveMcpLimits({ limits: { call: { timeoutMs: 100 } } });
    expect(limits.call).toEqual({ timeoutMs: 100, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES });
    expect(limits.discovery.timeoutMs).toBe(DEFAULT_CONNECTION_TIMEOUT_MS);
  });

  it('returns frozen objects', () => {
    const limits = resolveMcpLimits({});
    expect(Object.isFrozen(limits)).toBe(true);
    expect(Object.isFrozen(limits.discovery)).toBe(true);
    expect(Object.isFrozen(limits.call)).toBe(true);
  });
});

describe('resolveOperationLimits', () => {
  it('fills the defaults and names the option prefix in errors', () => {
    expect(resolveOperationLimits({})).toEqual({ timeoutMs: 30_000, maxResponseBytes: 1_048_576 });
    expect(() => resolveOperationLimits({ timeoutMs: 0 }, 'openapi')).toThrow(
      /^openapi\.timeoutMs must/,
    );
  });
});

describe('phaseOfOperation', () => {
  it.each<[ConnectionOperation, ConnectionPhase]>([
    ['initialize', 'discovery'],
    ['notifications/initialized', 'discovery'],
    ['tools/list', 'discovery'],
    ['endpoint', 'discovery'],
    ['openapi/spec', 'discovery'],
    ['tools/call', 'call'],
    ['openapi/call', 'call'],
  ])('%s runs under %s limits', (operation, phase) => {
    expect(phaseOfOperation(operation)).toBe(phase);
  });

  it('picks the limits of the operation phase', () => {
    const limits = resolveMcpLimits({
      limits: { discovery: { timeoutMs: 10 }, call: { timeoutMs: 20 } },
    });
    expect(limitsForOperation(limits, 'initialize').timeoutMs).toBe(10);
    expect(limitsForOperation(limits, 'tools/call').timeoutMs).toBe(20);
  });
});
