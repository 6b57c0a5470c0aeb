/**
 * The repository explains itself: no source, test, doc or script points at a document outside
 * it (the design contract it was built from is summarised in docs/architecture.md).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
// Spelled in pieces so that this file does not match itself.
const OUTSIDE = [new RegExp(`\\.\\./${'shared'}\\b`), new RegExp(`${'DESIGN'}(\\.md)? ?§`)];

function trackedFiles(): string[] {
  const listed = execFileSync(
    'git',
    [
      'ls-files',
      '--cached',
      '--others',
      '--exclude-standard',
      'src',
      'test',
      'docs',
      'bench',
      'scripts',
      'conformance',
      'README.md',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return listed.split('\n').filter((file) => file !== '');
}

describe('the repository', () => {
  it('points at no document outside itself', () => {
    const offenders = trackedFiles().filter((file) => {
      const text = readFileSync(resolve(ROOT, file), 'utf8');
      return OUTSIDE.some((pattern) => pattern.test(text));
    });
    expect(offenders).toEqual([]);
  });

  it('links its architecture map from the README', () => {
    expect(readFileSync(resolve(ROOT, 'README.md'), 'utf8')).toContain('docs/architecture.md');
  });
});
