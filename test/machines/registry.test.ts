import { describe, expect, it } from 'vitest';
import { MACHINE_REGISTRY } from '../../src/machines/registry.js';

describe('MACHINE_REGISTRY', () => {
  it('lists the eight machines in index order, each under its file stem', () => {
    expect(MACHINE_REGISTRY.map(({ name, machine }) => [name, machine.id])).toEqual([
      ['mcp-operation', 'mcpOperation'],
      ['mcp-task', 'mcpTask'],
      ['listen', 'listen'],
      ['spec-load', 'specLoad'],
      ['open-api-call', 'openApiCall'],
      ['retry', 'retry'],
      ['wait', 'wait'],
      ['download', 'download'],
    ]);
  });

  it('gives each a one-sentence summary for the visualizations index', () => {
    for (const { summary } of MACHINE_REGISTRY) {
      expect(summary).toMatch(/^[A-Z].{20,}\.$/);
    }
  });
});
