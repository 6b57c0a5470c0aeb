/**
 * GitHub's real OpenAPI document for the mount benchmark, fetched on demand and cached: `npm pack
 * @octokit/openapi@23.0.2` into `bench/.cache/` (gitignored; the package is 385 MB unpacked, so
 * it is not a dependency), then only `package/generated/api.github.com.json` is extracted and the
 * tarball removed. A cached file is reused on later runs; its size and SHA-256 are checked every
 * time it is used. Nothing here throws: a failed fetch or a wrong file is a reason to print.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { recordCommand } from './transcript.js';

const run = promisify(execFile);

/** The gitignored folder the bench caches fetched and generated documents in. */
export const CACHE_DIR = fileURLToPath(new URL('.cache/', import.meta.url));

/** The package, the file inside it and what that file must be. */
export const GITHUB_DOCUMENT = {
  packageSpec: '@octokit/openapi@23.0.2',
  tarball: 'octokit-openapi-23.0.2.tgz',
  member: 'package/generated/api.github.com.json',
  bytes: 13_001_822,
  sha256: '829b4bebb19a53133289f7b0bc819f4f1118115821db2ca9f25e9ee995a7da2a',
} as const;

/** Where the document is, or why it is not measured. */
export type DocumentSource =
  | { readonly path: string; readonly fetched: boolean }
  | { readonly notMeasured: string };

const FETCH_TIMEOUT_MS = 180_000;
const cachedPath = join(CACHE_DIR, GITHUB_DOCUMENT.member);

/** Why the file at `path` is not the expected document, or undefined when it is. */
async function mismatch(path: string): Promise<string | undefined> {
  const bytes = await readFile(path);
  if (bytes.length !== GITHUB_DOCUMENT.bytes) {
    return `${path} has ${bytes.length} bytes, expected ${GITHUB_DOCUMENT.bytes}`;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return sha256 === GITHUB_DOCUMENT.sha256
    ? undefined
    : `${path} has SHA-256 ${sha256}, expected ${GITHUB_DOCUMENT.sha256}`;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The line that says why `npm pack` or `tar` failed (npm's `npm error code …`), else the message. */
function failureReason(error: unknown): string {
  const { stderr, message } = error as { stderr?: unknown; message?: unknown };
  const lines = `${typeof stderr === 'string' ? stderr : ''}\n${String(message)}`
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.find((line) => /^npm (error|ERR!) code/.test(line)) ?? lines[0] ?? 'unknown';
}

async function fetchDocument(): Promise<void> {
  await mkdir(CACHE_DIR, { recursive: true });
  const pack = ['pack', GITHUB_DOCUMENT.packageSpec, '--pack-destination', CACHE_DIR];
  recordCommand('npm', pack);
  await run('npm', pack, { timeout: FETCH_TIMEOUT_MS });
  const tarball = join(CACHE_DIR, GITHUB_DOCUMENT.tarball);
  const extract = ['xzf', tarball, '-C', CACHE_DIR, GITHUB_DOCUMENT.member];
  recordCommand('tar', extract);
  try {
    await run('tar', extract, { timeout: FETCH_TIMEOUT_MS });
  } finally {
    await rm(tarball, { force: true });
  }
}

/**
 * The cached document, fetched first when it is not cached (never in `quick` mode). Resolves with
 * the reason instead when it cannot be had: not cached in `--quick`, no network, a wrong file.
 */
export async function githubDocument(options: {
  readonly quick: boolean;
}): Promise<DocumentSource> {
  let fetched = false;
  if (!(await exists(cachedPath))) {
    if (options.quick) return { notMeasured: 'not measured in --quick (not cached)' };
    try {
      await fetchDocument();
      fetched = true;
    } catch (error) {
      return { notMeasured: `not measured: fetch failed (${failureReason(error)})` };
    }
  }
  const wrong = await mismatch(cachedPath).catch((error: Error) => error.message);
  if (wrong !== undefined) {
    return { notMeasured: `not measured: ${wrong} (delete it to fetch it again)` };
  }
  return { path: cachedPath, fetched };
}
