import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MCP_ERROR_PRESENTATION,
  MCP_INPUT_REQUIRED,
  MCP_REQUIRED_CAPABILITIES,
  mcpErrorPresentationOf,
  mcpInputRequestOf,
  mcpRequiredCapabilitiesOf,
} from '../../../src/binding/kernel/mcp-protocols.js';

const SRC = resolve(import.meta.dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the registered symbols of the MCP failure protocols', () => {
  // The registry keys are the protocol between two copies of the package: they never change.
  it.each([
    ['MCP_ERROR_PRESENTATION', MCP_ERROR_PRESENTATION, 'stitchkit-transport.mcpErrorPresentation'],
    ['MCP_INPUT_REQUIRED', MCP_INPUT_REQUIRED, 'stitchkit-transport.mcpInputRequired'],
    [
      'MCP_REQUIRED_CAPABILITIES',
      MCP_REQUIRED_CAPABILITIES,
      'stitchkit-transport.mcpRequiredCapabilities',
    ],
  ])('%s is Symbol.for(%j)', (_name, symbol, key) => {
    expect(symbol).toBe(Symbol.for(key));
  });

  it('are made by brandSymbol alone: no source file spells a package symbol with Symbol.for', () => {
    const bare = /Symbol\.for\(\s*['"`]stitchkit-transport\./;
    const offenders = sourceFiles(SRC)
      .filter((file) => bare.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual(['binding/kernel/type-guards.ts']);
  });
});

describe('mcpErrorPresentationOf', () => {
  const content = [{ type: 'text' as const, text: 'upstream said no' }];

  it('reads the presentation a failure carries, called with the failure as `this`', () => {
    const failure = {
      content,
      [MCP_ERROR_PRESENTATION]() {
        return { content: this.content };
      },
    };
    expect(mcpErrorPresentationOf(failure)).toEqual({ content });
  });

  it.each([
    ['a value that is not an object', 'boom'],
    ['null', null],
    ['an object without the method', { content }],
    [
      'a method that throws',
      {
        [MCP_ERROR_PRESENTATION]: () => {
          throw new Error('x');
        },
      },
    ],
    ['a presentation without a content array', { [MCP_ERROR_PRESENTATION]: () => ({}) }],
    ['a presentation that is a class instance', { [MCP_ERROR_PRESENTATION]: () => new Date() }],
  ])('is undefined for %s', (_case, cause) => {
    expect(mcpErrorPresentationOf(cause)).toBeUndefined();
  });
});

describe('mcpInputRequestOf', () => {
  it('reads the questions and the state', () => {
    const request = { inputRequests: { ask: { method: 'elicitation/create' } }, requestState: 's' };
    expect(mcpInputRequestOf({ [MCP_INPUT_REQUIRED]: () => request })).toEqual(request);
  });

  it('is undefined when the questions are not a plain object', () => {
    expect(mcpInputRequestOf({ [MCP_INPUT_REQUIRED]: () => ({ inputRequests: [] }) })).toBe(
      undefined,
    );
  });
});

describe('mcpRequiredCapabilitiesOf', () => {
  it('reads the required capabilities', () => {
    const cause = { [MCP_REQUIRED_CAPABILITIES]: () => ({ sampling: {} }) };
    expect(mcpRequiredCapabilitiesOf(cause)).toEqual({ sampling: {} });
  });

  it('is undefined when the failure names none', () => {
    expect(mcpRequiredCapabilitiesOf({ [MCP_REQUIRED_CAPABILITIES]: () => undefined })).toBe(
      undefined,
    );
  });
});
