/**
 * The output schema of a download: the file reference `{ path, size, mediaType }` the file
 * boundary reports. Built with the application's zod (a peer dependency).
 */
import { z } from 'zod';

/** A file inside the file boundary: path relative to the root, size in bytes, media type. */
export const FileReferenceSchema = z.object({
  path: z.string().min(1),
  size: z.number().int().nonnegative(),
  mediaType: z.string().min(1),
});
