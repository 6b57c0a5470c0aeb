/**
 * The path rules of the managed file boundary: which spellings name a file inside the root.
 * Pure: no I/O; symlinks are judged later, on the real path.
 */
import { FileBoundaryError } from './file-boundary-error.js';

/** The longest path the boundary accepts, in characters. */
export const MAX_FILE_PATH_CHARS = 1024;

/** The longest single segment (most file systems' name limit, in bytes for ASCII names). */
const MAX_SEGMENT_CHARS = 255;

/**
 * The segments of a boundary path, `.` and empty segments dropped. Refused with
 * `FILE_INVALID_PATH`: an empty or overlong path, a NUL byte, a backslash (so Windows separators,
 * `C:\` and UNC `\\server` forms), an absolute path (`/x`, `//server/share`), a drive form
 * (`C:x`), a `..` segment, a path naming no file.
 */
export function boundaryPathSegments(path: unknown): string[] {
  const refuse = (): never => {
    throw new FileBoundaryError({
      code: 'FILE_INVALID_PATH',
      ...(typeof path === 'string' ? { path } : {}),
    });
  };
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_FILE_PATH_CHARS) refuse();
  const text = path as string;
  if (text.includes('\0') || text.includes('\\')) refuse();
  if (text.startsWith('/') || /^[A-Za-z]:/.test(text)) refuse();
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) refuse();
  for (const segment of segments) {
    if (segment === '..' || segment.length > MAX_SEGMENT_CHARS) refuse();
  }
  return segments;
}

/** The canonical spelling of a boundary path: its segments joined by `/`. */
export function normalizeBoundaryPath(path: unknown): string {
  return boundaryPathSegments(path).join('/');
}
