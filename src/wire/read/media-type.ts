/**
 * Media types: the essence of a `Content-Type`, the two kinds of answer the connections decode
 * (JSON, an SSE stream), and for transferred files the extension a type is saved under and the type
 * a file name implies. Pure: no I/O.
 */

/** The type a file is reported as when nothing better is known. */
export const DEFAULT_MEDIA_TYPE = 'application/octet-stream';

const EXTENSION_BY_TYPE: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
  'image/svg+xml': '.svg',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'audio/mpeg': '.mp3',
  'audio/wav': '.wav',
  'audio/x-wav': '.wav',
  'audio/ogg': '.ogg',
  'application/pdf': '.pdf',
  'application/json': '.json',
  'application/zip': '.zip',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/html': '.html',
  'text/markdown': '.md',
};

const TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(EXTENSION_BY_TYPE).map(([type, ext]) => [ext, type])),
  '.jpeg': 'image/jpeg',
  '.wav': 'audio/wav',
};

/** `image/png` from `Image/PNG; charset=binary`; `null` for an absent or malformed value. */
export function mediaTypeEssence(contentType: string | null | undefined): string | null {
  if (contentType == null) return null;
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(essence) ? essence : null;
}

const JSON_SUFFIX = /^[a-z0-9.+-]+\/[a-z0-9.+-]+\+json$/;

/** A JSON media type: `application/json`, or any `+json` suffix (e.g. `application/problem+json`). */
export function isJsonMediaType(contentType: string | null | undefined): boolean {
  const essence = mediaTypeEssence(contentType);
  return essence !== null && (essence === 'application/json' || JSON_SUFFIX.test(essence));
}

/** An SSE stream: `text/event-stream`, whatever its parameters. */
export function isEventStream(contentType: string | null | undefined): boolean {
  return mediaTypeEssence(contentType) === 'text/event-stream';
}

/** The extension (with its dot) a media type is saved under, if the table knows it. */
export function extensionForMediaType(mediaType: string | null): string | undefined {
  return mediaType === null ? undefined : EXTENSION_BY_TYPE[mediaType];
}

/** The extension of a file name (`.png`, lowercased), if it has a short alphanumeric one. */
export function extensionOf(fileName: string): string | undefined {
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(fileName);
  return match === null || match.index === 0 ? undefined : `.${(match[1] ?? '').toLowerCase()}`;
}

/** The media type a file name implies, else {@link DEFAULT_MEDIA_TYPE}. */
export function mediaTypeForFileName(fileName: string): string {
  const extension = extensionOf(fileName);
  return (extension === undefined ? undefined : TYPE_BY_EXTENSION[extension]) ?? DEFAULT_MEDIA_TYPE;
}
