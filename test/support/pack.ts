/**
 * The package as a user installs it: `npm pack` of the repository (its `dist/`, built by
 * `pretest`, taken as it is) into a folder, for the suites that install the tarball.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

/** Packs the repository into `destination`; resolves with the tarball's file name. */
export async function packInto(destination: string): Promise<string> {
  const { stdout } = await run(
    'npm',
    ['pack', '--ignore-scripts', '--pack-destination', destination, '--json'],
    { cwd: ROOT },
  );
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return filename;
}
