/**
 * The client's name and version come from the package's own `package.json`: from the sources,
 * and from the build loaded by `import` and by `require` (the CommonJS path, decision 0030).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_INFO } from '../../../src/wire/mcp/client-info.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const manifest = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** What `CLIENT_INFO` is when `dist/wire/mcp/client-info.js` is loaded by `how` in a fresh Node. */
function builtClientInfo(how: 'import' | 'require'): unknown {
  const file = resolve(ROOT, 'dist/wire/mcp/client-info.js');
  const script =
    how === 'import'
      ? `import(${JSON.stringify(file)}).then((m) => process.stdout.write(JSON.stringify(m.CLIENT_INFO)))`
      : `process.stdout.write(JSON.stringify(require(${JSON.stringify(file)}).CLIENT_INFO))`;
  // A neutral working directory: the file must find its package.json by itself.
  const out = execFileSync(process.execPath, ['-e', script], { cwd: '/', encoding: 'utf8' });
  return JSON.parse(out);
}

describe('CLIENT_INFO', () => {
  it("is the package's name and version, as package.json says", () => {
    expect(CLIENT_INFO).toEqual({ name: manifest.name, version: manifest.version });
    expect(CLIENT_INFO.name).toBe('stitchkit-transport');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(CLIENT_INFO)).toBe(true);
  });

  it.each(['import', 'require'] as const)('is the same from the build, loaded by %s', (how) => {
    expect(builtClientInfo(how)).toEqual({ name: manifest.name, version: manifest.version });
  });
});
