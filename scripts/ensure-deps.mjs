// Makes `npm run demo` and `npm test` work straight after cloning: installs the locked
// dependencies once when they are missing, and does nothing otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  console.log('[stitchkit-transport] installing locked dependencies (npm ci)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
