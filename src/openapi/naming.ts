/**
 * Tool names of OpenAPI operations: `<connection>__<operationId or METHOD_path>`, sanitised to
 * `[A-Za-z0-9_-]`, at most 64 characters (shortened with a stable hash suffix, never by plain
 * truncation), collisions suffixed `_2`, `_3`. Deterministic for a given document. Beside the
 * name, the words an operation is also searched by (`operationKeywords`). Pure.
 */
import { createHash } from 'node:crypto';

/** The longest tool name models accept. */
export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/** Runs of characters outside `[A-Za-z0-9_-]` become `_`; edge `_` trimmed; empty: `operation`. */
export function sanitizeNamePart(raw: string): string {
  const cleaned = raw.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return cleaned === '' ? 'operation' : cleaned;
}

/** A name of at most `max` characters: long ones keep a prefix and a hash of the whole name. */
export function fitName(name: string, max: number): string {
  if (name.length <= max) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_LENGTH);
  return `${name.slice(0, max - HASH_LENGTH - 1)}_${hash}`;
}

/** The raw operation name: its `operationId` if it has one, else `METHOD_path`. */
export function rawOperationName(operationId: unknown, method: string, path: string): string {
  return typeof operationId === 'string' && operationId.trim() !== ''
    ? operationId
    : `${method}_${path}`;
}

/**
 * Names tools of one connection in document order. Each call returns a name unique among the
 * names handed out so far.
 */
export function createToolNamer(connectionName: string): (rawName: string) => string {
  const prefix = `${sanitizeNamePart(connectionName)}__`;
  const taken = new Set<string>();
  return (rawName) => {
    const base = fitName(`${prefix}${sanitizeNamePart(rawName)}`, MAX_TOOL_NAME_LENGTH);
    let name = base;
    for (let n = 2; taken.has(name); n += 1) {
      const suffix = `_${n}`;
      name = `${fitName(base, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  };
}

/**
 * `<prefix>__<name>` under the same rule as an OpenAPI tool's name: `[A-Za-z0-9_-]`, at most 64
 * characters, shortened with a stable hash suffix, never by plain truncation.
 */
export function prefixedToolName(prefix: string, name: string): string {
  return fitName(`${sanitizeNamePart(prefix)}__${sanitizeNamePart(name)}`, MAX_TOOL_NAME_LENGTH);
}

/**
 * The words an operation is found by in catalog search beyond its name and text (decision
 * 0045): its path's literal segments (not its `{variables}`, which are parameters) and its tags.
 * `/repos/{owner}/{repo}/forks` with tag `repos` gives `repos forks repos`.
 */
export function operationKeywords(path: string, tags: unknown): string {
  const words = path.split('/').filter((segment) => segment !== '' && !segment.includes('{'));
  if (Array.isArray(tags)) {
    for (const tag of tags) if (typeof tag === 'string') words.push(tag);
  }
  return words.join(' ');
}
