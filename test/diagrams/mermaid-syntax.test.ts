// @vitest-environment jsdom
/**
 * The committed diagrams are valid Mermaid: every `visualizations/*.mmd` parses as a state diagram
 * with Mermaid's own parser (in jsdom, as a browser would load it), and a broken one is refused.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import mermaid from 'mermaid';
import { describe, expect, it } from 'vitest';
import { MACHINE_REGISTRY } from '../../src/machines/registry.js';

const DIR = resolve(import.meta.dirname, '../../visualizations');
const diagrams = readdirSync(DIR).filter((name) => name.endsWith('.mmd'));

describe('Mermaid syntax of the committed diagrams', () => {
  it('finds the diagrams: the overview of every registered machine', () => {
    expect(diagrams).toEqual(expect.arrayContaining(['mcp-operation.mmd', 'wait.mmd']));
    expect(diagrams).toEqual(
      expect.arrayContaining(MACHINE_REGISTRY.map((entry) => `${entry.name}.mmd`)),
    );
  });

  it.each(diagrams)('%s parses as a state diagram', async (name) => {
    const parsed = await mermaid.parse(readFileSync(join(DIR, name), 'utf8'));
    expect(parsed).toMatchObject({ diagramType: 'stateDiagram' });
  });

  it('refuses a malformed diagram (the check can fail)', async () => {
    await expect(mermaid.parse('stateDiagram-v2\n  a --> : [[[')).rejects.toThrow();
  });
});
