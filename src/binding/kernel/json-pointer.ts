/**
 * JSON pointers of URI fragments (`#/$defs/a~1b`), as `$ref`s write them. Pure: no I/O.
 */

/** Decodes one JSON-pointer segment of a URI fragment (`%xx`, then `~1` and `~0`); never throws. */
export function decodePointerSegment(segment: string): string {
  if (!segment.includes('%') && !segment.includes('~')) return segment;
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A lone `%` is taken literally.
  }
  return decoded.replaceAll('~1', '/').replaceAll('~0', '~');
}
