import { describe, expect, it } from 'vitest';
import {
  AgentToolError,
  AppError,
  isAgentToolError,
  TOOL_ERROR_PROJECTION,
} from '../../../src/binding/index.js';
import { brandSymbol, hasBrand, isRecord } from '../../../src/binding/kernel/type-guards.js';
import { WaitTimeoutError } from '../../../src/machines/wait/wait.timeout-error.js';

const BRAND = brandSymbol('test.Brand');
const OTHER = brandSymbol('test.Other');

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('brandSymbol', () => {
  it.each([
    ['AppError', 'stitchkit-transport.AppError'],
    ['AgentToolError', 'stitchkit-transport.AgentToolError'],
    ['error.WAIT_TIMEOUT', 'stitchkit-transport.error.WAIT_TIMEOUT'],
    ['toolErrorProjection', 'stitchkit-transport.toolErrorProjection'],
    ['', 'stitchkit-transport.'],
  ])('%j is the registered symbol %j', (key, registered) => {
    expect(brandSymbol(key)).toBe(Symbol.for(registered));
  });
});

describe('hasBrand', () => {
  it.each<[string, unknown, boolean]>([
    ['an object with the brand true', { [BRAND]: true }, true],
    ['an object that inherits the brand', Object.create({ [BRAND]: true }), true],
    ['an array with the brand true', Object.assign([], { [BRAND]: true }), true],
    ['an object with the brand "true"', { [BRAND]: 'true' }, false],
    ['an object with the brand 1', { [BRAND]: 1 }, false],
    ['an object with another brand', { [OTHER]: true }, false],
    ['an empty object', {}, false],
    ['a function with the brand', Object.assign(() => {}, { [BRAND]: true }), false],
    ['null', null, false],
    ['undefined', undefined, false],
    ['a string', 'brand', false],
    ['a number', 1, false],
  ])('%s', (_label, value, expected) => {
    expect(hasBrand(value, BRAND)).toBe(expected);
  });
});

describe('isRecord', () => {
  it.each<[string, unknown, boolean]>([
    ['an object literal', { a: 1 }, true],
    ['an empty object', {}, true],
    ['a null-prototype object', Object.create(null), true],
    ['a class instance', new Point(1, 2), true],
    ['a Date', new Date(0), true],
    ['a Map', new Map(), true],
    ['an array', [], false],
    ['a function', () => {}, false],
    ['null', null, false],
    ['undefined', undefined, false],
    ['a string', '{}', false],
    ['a number', 0, false],
    ['a boolean', true, false],
  ])('%s', (_label, value, expected) => {
    expect(isRecord(value)).toBe(expected);
  });
});

describe('the error brands', () => {
  // A value from another copy of the package carries only the registered symbol.
  it.each<[string, (value: unknown) => boolean, string]>([
    ['AppError', (value) => AppError.isInstance(value), 'stitchkit-transport.AppError'],
    ['AgentToolError', isAgentToolError, 'stitchkit-transport.AgentToolError'],
    [
      'WaitTimeoutError',
      (value) => WaitTimeoutError.isInstance(value),
      'stitchkit-transport.error.WAIT_TIMEOUT',
    ],
  ])('%s recognises a value branded %j', (_name, isInstance, registered) => {
    expect(isInstance({ [Symbol.for(registered)]: true })).toBe(true);
    expect(isInstance({})).toBe(false);
  });

  it('TOOL_ERROR_PROJECTION is still the registered stitchkit-transport.toolErrorProjection', () => {
    expect(TOOL_ERROR_PROJECTION).toBe(Symbol.for('stitchkit-transport.toolErrorProjection'));
  });

  it.each<[string, unknown, symbol]>([
    ['AppError', new AppError('X'), brandSymbol('AppError')],
    ['AgentToolError', new AgentToolError({ error: 'X' }), brandSymbol('AgentToolError')],
    ['WaitTimeoutError', new WaitTimeoutError(1), brandSymbol('error.WAIT_TIMEOUT')],
  ])('a new %s carries its brand', (_name, error, brand) => {
    expect(hasBrand(error, brand)).toBe(true);
  });
});
