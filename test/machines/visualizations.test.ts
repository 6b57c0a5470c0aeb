import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkVisualizations, renderVisualizations } from '../../scripts/visualize.js';
import { MACHINE_CATALOGUE } from '../../src/machines/catalogue.js';

describe('visualizations/', () => {
  it('matches what the machine definitions generate (run `npm run visualize` when this fails)', async () => {
    expect(await checkVisualizations()).toEqual({ stale: [], missing: [], extra: [] });
  });

  it('holds a diagram and a Stately source for every catalogued machine, plus the index', () => {
    const names = [...renderVisualizations().keys()];
    for (const entry of MACHINE_CATALOGUE) {
      expect(names).toContain(`${entry.name}.mmd`);
      expect(names).toContain(`${entry.name}.stately.js`);
    }
    expect(names).toContain('README.md');
  });

  it('embeds each diagram in the index', () => {
    const files = renderVisualizations();
    const index = files.get('README.md') ?? '';
    for (const entry of MACHINE_CATALOGUE) {
      expect(index).toContain(`\`\`\`mermaid\n${files.get(`${entry.name}.mmd`)}\`\`\``);
    }
  });

  it('names stale, missing and extra files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'visualizations-'));
    try {
      const files = renderVisualizations();
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
