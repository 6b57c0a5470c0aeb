import { execFileSync } from 'node:child_process';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileBoundary, type FileBoundary } from '../../src/operations/file-boundary.js';
import { FileBoundaryError } from '../../src/operations/file-boundary-error.js';

let base: string;
let root: string;
let outside: string;
let files: FileBoundary;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'stitchkit-boundary-'));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'secret');
  files = createFileBoundary({ root });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text);

/** A web stream whose chunks the test releases one by one. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  return {
    stream,
    push: (text: string) => controller.enqueue(bytes(text)),
    end: () => controller.close(),
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return FileBoundaryError.isInstance(error) ? error.code : `raw: ${String(error)}`;
  }
}

/** An `onBytes` option and a promise that resolves once the first chunk reached the file. */
function firstChunk() {
  let seen!: () => void;
  const reached = new Promise<void>((resolve) => {
    seen = resolve;
  });
  return { reached, onBytes: () => seen() };
}

/** Every name in the root, recursively, temporary files included. */
async function rootListing(): Promise<string[]> {
  return (await readdir(root, { recursive: true })).map(String).sort();
}

describe('createFileBoundary: write', () => {
  it('streams a web stream, a Node stream and bytes into place with size and media type', async () => {
    const web = controlledStream();
    const pending = files.write('img/a.png', web.stream);
    web.push('ab');
    web.push('c');
    web.end();
    expect(await pending).toEqual({ path: 'img/a.png', size: 3, mediaType: 'image/png' });
    expect(await files.write('b.bin', Readable.from([Buffer.from('xy')]))).toEqual({
      path: 'b.bin',
      size: 2,
      mediaType: 'application/octet-stream',
    });
    expect(await files.write('./c//d.txt', bytes('hello'), { mediaType: 'text/x-note' })).toEqual({
      path: 'c/d.txt',
      size: 5,
      mediaType: 'text/x-note',
    });
    expect(await readFile(join(root, 'img/a.png'), 'utf8')).toBe('abc');
    expect(await rootListing()).toEqual(['b.bin', 'c', 'c/d.txt', 'img', 'img/a.png']);
  });

  it.each([
    ['an absolute path', '/etc/passwd', 'FILE_INVALID_PATH'],
    ['a .. segment', '../outside/x.txt', 'FILE_INVALID_PATH'],
    ['a .. segment in the middle', 'a/../../x.txt', 'FILE_INVALID_PATH'],
    ['a NUL byte', 'a\0.txt', 'FILE_INVALID_PATH'],
    ['a Windows drive path', 'C:\\Windows\\x.txt', 'FILE_INVALID_PATH'],
    ['a Windows drive-relative path', 'C:x.txt', 'FILE_INVALID_PATH'],
    ['a UNC path', '\\\\server\\share\\x.txt', 'FILE_INVALID_PATH'],
    ['a forward-slash UNC path', '//server/share/x.txt', 'FILE_INVALID_PATH'],
    ['backslash separators', 'a\\..\\x.txt', 'FILE_INVALID_PATH'],
    ['an empty path', '', 'FILE_INVALID_PATH'],
    ['a path naming no file', './.', 'FILE_INVALID_PATH'],
  ])('refuses %s (%j) with %s and writes nothing', async (_label, path, code) => {
    expect(await codeOf(files.write(path, bytes('x')))).toBe(code);
    expect(await rootListing()).toEqual([]);
  });

  it('refuses a path through a symlinked directory that leaves the root', async () => {
    await symlink(outside, join(root, 'escape'));
    expect(await codeOf(files.write('escape/new.txt', bytes('x')))).toBe('FILE_OUTSIDE_ROOT');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses to write onto a symlinked file that leaves the root, even when replacing', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    for (const ifExists of ['refuse', 'replace'] as const) {
      expect(await codeOf(files.write('link.txt', bytes('x'), { ifExists }))).toBe(
        'FILE_OUTSIDE_ROOT',
      );
    }
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('follows a symlinked directory that stays inside the root', async () => {
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'alias'));
    expect(await files.write('alias/x.txt', bytes('x'))).toMatchObject({ path: 'alias/x.txt' });
    expect(await readFile(join(root, 'real/x.txt'), 'utf8')).toBe('x');
  });

  it('refuses an existing file by default and replaces it when told', async () => {
    await files.write('a.txt', bytes('one'));
    expect(await codeOf(files.write('a.txt', bytes('two')))).toBe('FILE_EXISTS');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one');
    await files.write('a.txt', bytes('three'), { ifExists: 'replace' });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('three');
    const replacing = createFileBoundary({ root, ifExists: 'replace' });
    await replacing.write('a.txt', bytes('four'));
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('four');
    expect(await rootListing()).toEqual(['a.txt']);
  });

  it('refuses a directory where a file would go (FILE_NOT_REGULAR)', async () => {
    await mkdir(join(root, 'dir'));
    expect(await codeOf(files.write('dir', bytes('x'), { ifExists: 'replace' }))).toBe(
      'FILE_NOT_REGULAR',
    );
    await writeFile(join(root, 'plain'), 'x');
    expect(await codeOf(files.write('plain/child.txt', bytes('x')))).toBe('FILE_NOT_REGULAR');
  });

  it('refuses a symlink planted at the name between the check and the write, outside untouched', async () => {
    const body = controlledStream();
    const first = firstChunk();
    const pending = files.write('late.txt', body.stream, { onBytes: first.onBytes });
    body.push('part');
    // The checks have run (a chunk is being written); now plant a link to the outside file.
    await first.reached;
    await symlink(join(outside, 'secret.txt'), join(root, 'late.txt'));
    body.end();
    expect(await codeOf(pending)).toBe('FILE_EXISTS');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(await rootListing()).toEqual(['late.txt']);
  });

  it('replaces (never follows) a symlink planted at the name when replacing', async () => {
    const body = controlledStream();
    const first = firstChunk();
    const pending = files.write('late.txt', body.stream, {
      ifExists: 'replace',
      onBytes: first.onBytes,
    });
    body.push('mine');
    await first.reached;
    await symlink(join(outside, 'secret.txt'), join(root, 'late.txt'));
    body.end();
    expect(await pending).toMatchObject({ path: 'late.txt', size: 4 });
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(await readFile(join(root, 'late.txt'), 'utf8')).toBe('mine');
  });

  it('refuses a directory swapped for an outside symlink between the check and the commit', async () => {
    await mkdir(join(root, 'sub'));
    const body = controlledStream();
    const first = firstChunk();
    const pending = files.write('sub/x.txt', body.stream, { onBytes: first.onBytes });
    body.push('data');
    await first.reached;
    await rename(join(root, 'sub'), join(root, 'moved'));
    await symlink(outside, join(root, 'sub'));
    body.end();
    expect(await codeOf(pending)).toBe('FILE_OUTSIDE_ROOT');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('enforces the byte cap while streaming and leaves no partial file', async () => {
    const seen: number[] = [];
    const result = codeOf(
      files.write('big.bin', Readable.from([Buffer.alloc(4), Buffer.alloc(4), Buffer.alloc(4)]), {
        maxBytes: 8,
        onBytes: (total) => seen.push(total),
      }),
    );
    expect(await result).toBe('FILE_TOO_LARGE');
    expect(seen).toEqual([4, 8, 12]);
    expect(await rootListing()).toEqual([]);
    expect(await files.write('exact.bin', bytes('12345678'), { maxBytes: 8 })).toMatchObject({
      size: 8,
    });
  });

  it('stops on cancellation with the exact reason and leaves no partial file', async () => {
    const body = controlledStream();
    const controller = new AbortController();
    const first = firstChunk();
    const pending = files.write('c.txt', body.stream, {
      signal: controller.signal,
      onBytes: first.onBytes,
    });
    body.push('partial');
    await first.reached;
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(await rootListing()).toEqual([]);
  });

  it('keeps concurrent writes to one name whole: one wins when refusing, one whole body when replacing', async () => {
    const bodies = ['a', 'b', 'c', 'd', 'e'].map((letter) => letter.repeat(64 * 1024));
    const refused = await Promise.all(
      bodies.map((body) => codeOf(files.write('same.txt', bytes(body)))),
    );
    expect(refused.filter((code) => code === 'resolved')).toHaveLength(1);
    expect(refused.filter((code) => code === 'FILE_EXISTS')).toHaveLength(4);
    expect(bodies).toContain(await readFile(join(root, 'same.txt'), 'utf8'));
    await Promise.all(
      bodies.map((body) => files.write('other.txt', bytes(body), { ifExists: 'replace' })),
    );
    expect(bodies).toContain(await readFile(join(root, 'other.txt'), 'utf8'));
    expect(await rootListing()).toEqual(['other.txt', 'same.txt']);
  });
});

describe('createFileBoundary: read', () => {
  it('opens a regular file with its size, media type and content', async () => {
    await writeFile(join(root, 'doc.pdf'), 'pdf-bytes');
    const source = await files.read('doc.pdf');
    expect({ path: source.path, size: source.size, mediaType: source.mediaType }).toEqual({
      path: 'doc.pdf',
      size: 9,
      mediaType: 'application/pdf',
    });
    expect(await new Response(source.stream).text()).toBe('pdf-bytes');
  });

  it.each([
    ['a missing file', 'missing.txt', 'FILE_NOT_FOUND'],
    ['a .. escape', '../outside/secret.txt', 'FILE_INVALID_PATH'],
    ['an absolute path', join(tmpdir(), 'x'), 'FILE_INVALID_PATH'],
  ])('refuses %s with %s', async (_label, path, code) => {
    expect(await codeOf(files.read(path))).toBe(code);
  });

  it('refuses a symlink that leaves the root, a directory and a FIFO', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    await mkdir(join(root, 'dir'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect(await codeOf(files.read('link.txt'))).toBe('FILE_OUTSIDE_ROOT');
    expect(await codeOf(files.read('dir'))).toBe('FILE_NOT_REGULAR');
    expect(await codeOf(files.read('pipe'))).toBe('FILE_NOT_REGULAR');
  });

  it('projects its refusals without the path', () => {
    const error = new FileBoundaryError({ code: 'FILE_OUTSIDE_ROOT', path: '/secret/place' });
    expect(error.message).not.toContain('secret');
    expect(error.status).toBe(403);
  });
});
