import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkVisualizations,
  freshnessMessage,
  renderVisualizations,
} from '../../scripts/visualize.js';
import { MACHINE_REGISTRY } from '../../src/machines/registry.js';

describe('visualizations/', () => {
  it('matches what the machine definitions generate (the failure shows the transition diff to review)', async () => {
    const drift = await checkVisualizations();
    expect(drift, await freshnessMessage(drift)).toEqual({ stale: [], missing: [], extra: [] });
  });

  it('holds a diagram and a Stately source for every registered machine, plus the index', async () => {
    const names = [...(await renderVisualizations()).keys()];
    for (const entry of MACHINE_REGISTRY) {
      expect(names).toContain(`${entry.name}.mmd`);
      expect(names).toContain(`${entry.name}.stately.js`);
      for (const view of ['svg', 'dot', 'transitions.md']) {
        expect(names).toContain(`${entry.name}.${view}`);
      }
    }
    expect(names).toContain('README.md');
  });

  it('embeds each diagram in the index', async () => {
    const files = await renderVisualizations();
    const index = files.get('README.md') ?? '';
    for (const entry of MACHINE_REGISTRY) {
      expect(index).toContain(`\`\`\`mermaid\n${files.get(`${entry.name}.mmd`)}\`\`\``);
    }
  });

  it('shows each overview picture in the index and links the table and every source', async () => {
    const index = (await renderVisualizations()).get('README.md') ?? '';
    for (const entry of MACHINE_REGISTRY) {
      expect(index).toMatch(new RegExp(`!\\[[^\\]]+\\]\\(\\./${entry.name}\\.svg\\)`));
      for (const file of ['transitions.md', 'mmd', 'dot', 'stately.js']) {
        expect(index).toContain(`(./${entry.name}.${file})`);
      }
    }
  });

  it('shows the transition diff of a stale table and says to review it before regenerating', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'visualizations-'));
    try {
      const files = await renderVisualizations();
      const table = (files.get('wait.transitions.md') ?? '').split('\n');
      // The committed table lacks the deadline row of a wait that saw a state.
      const row = table.findIndex((line) => line.includes('`hasState`'));
      for (const [name, content] of files) {
        const committed = table.filter((_, index) => index !== row).join('\n');
        await writeFile(join(dir, name), name === 'wait.transitions.md' ? committed : content);
      }
      const drift = await checkVisualizations(dir, files);
      expect((await freshnessMessage(drift, dir, files)).split('\n')).toEqual([
        'stale: visualizations/wait.transitions.md',
        '',
        'The transition diff of visualizations/wait.transitions.md (committed -, generated +):',
        `@@ line ${row}`,
        `  ${table[row - 1]}`,
        `+ ${table[row]}`,
        `  ${table[row + 1]}`,
        '',
        'Review the transition diff above first: each - row is a transition as committed, each + row one the chart has now.',
        'Only if every change is intended, run `npm run visualize` (and `npm run edges` for a machine',
        'whose transitions changed: its model walks pin their edges) and commit the result with the change.',
      ]);
      expect(await freshnessMessage({ stale: [], missing: [], extra: [] }, dir, files)).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names stale, missing and extra files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'visualizations-'));
    try {
      const files = await renderVisualizations();
      for (const [name, content] of files) {
        if (name === 'README.md') continue;
        await writeFile(join(dir, name), name === 'wait.mmd' ? `${content}edited\n` : content);
      }
      await writeFile(join(dir, 'old.mmd'), 'stateDiagram-v2\n');
      expect(await checkVisualizations(dir, files)).toEqual({
        stale: ['wait.mmd'],
        missing: ['README.md'],
        extra: ['old.mmd'],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
