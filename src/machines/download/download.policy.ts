/**
 * Pure rules of the `download` machine (ADR 0081): the defaults, the reading of a response
 * head, the file name, and the progress throttle. Pure: no I/O, no clock (time is passed in).
 */
import {
  extensionForMediaType,
  extensionOf,
  mediaTypeForFileName,
} from '../../wire/read/media-type.js';
import type { DownloadHead } from './download.types.js';

/** Default byte cap of a download: 100 MiB. */
export const DEFAULT_DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024;

/** Default deadline until the final response's headers: 15 s (URL resolution and hops included). */
export const DEFAULT_DOWNLOAD_HEADER_TIMEOUT_MS = 15_000;

/** Default deadline for the body once the headers arrived: 120 s. */
export const DEFAULT_DOWNLOAD_BODY_TIMEOUT_MS = 120_000;

/** The longest file-name stem taken from a URL; a longer one becomes {@link FALLBACK_STEM}. */
export const MAX_URL_STEM_CHARS = 60;

/** The stem used when the URL's base name is empty, unusable or too long. */
export const FALLBACK_STEM = 'download';

/** The extension used when neither the content type nor the URL gives one. */
export const FALLBACK_EXTENSION = '.bin';

/** Least time between two progress reports of one download, in ms. */
export const PROGRESS_INTERVAL_MS = 250;

/** A `Content-Length` value as a byte count: digits only, else `null` (not a trust boundary). */
export function declaredBytesOf(contentLength: string | null): number | null {
  if (contentLength === null || !/^\d{1,15}$/.test(contentLength.trim())) return null;
  return Number(contentLength.trim());
}

/** True when a status is not 2xx (redirects were already followed by the fetch). */
export function isErrorStatus(status: number): boolean {
  return status < 200 || status > 299;
}

/** True when a declared length is over the cap (an absent length is checked while streaming). */
export function isDeclaredTooLarge(declaredBytes: number | null, maxBytes: number): boolean {
  return declaredBytes !== null && declaredBytes > maxBytes;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The URL's base name, sanitised to `[A-Za-z0-9._-]`, split into a stem and its extension. */
function urlBaseName(urlPath: string): { stem: string; extension: string | undefined } {
  const last =
    urlPath
      .split('/')
      .filter((segment) => segment !== '')
      .at(-1) ?? '';
  const clean = decodeSegment(last)
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[._]+/, '');
  const extension = extensionOf(clean);
  const stem = extension === undefined ? clean : clean.slice(0, -extension.length);
  return { stem, extension };
}

/**
 * The boundary path of a downloaded file and its media type. A requested path is kept, with an
 * extension added only when it has none. Otherwise the URL's base name (sanitised; empty or
 * longer than {@link MAX_URL_STEM_CHARS} becomes `download`) gets the content type's extension,
 * else the URL's, else `.bin`. The media type is the content type's, else the name's.
 */
export function downloadTarget(
  head: Pick<DownloadHead, 'mediaType' | 'urlPath'>,
  requestedPath: string | undefined,
): { readonly path: string; readonly mediaType: string } {
  const url = urlBaseName(head.urlPath);
  const extension = extensionForMediaType(head.mediaType) ?? url.extension ?? FALLBACK_EXTENSION;
  let path: string;
  if (requestedPath !== undefined) {
    path =
      extensionOf(requestedPath) === undefined ? `${requestedPath}${extension}` : requestedPath;
  } else {
    const usable = url.stem !== '' && url.stem.length <= MAX_URL_STEM_CHARS;
    path = `${usable ? url.stem : FALLBACK_STEM}${extension}`;
  }
  return { path, mediaType: head.mediaType ?? mediaTypeForFileName(path) };
}

/** True when a progress report is due: the first one, or {@link PROGRESS_INTERVAL_MS} later. */
export function isProgressDue(lastReportAt: number | undefined, now: number): boolean {
  return lastReportAt === undefined || now - lastReportAt >= PROGRESS_INTERVAL_MS;
}
