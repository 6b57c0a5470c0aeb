/**
 * Words a definition is found by in catalog search beyond its name, description and parameters
 * (decision 0045): for an OpenAPI operation, its path's literal segments and its tags, which a
 * definition has no field for. Kept beside the definition, not on it, so its shape stays the
 * runtime contract's; a copy made by the library (a result budget) keeps them.
 */
import type { AnyRuntimeToolDefinition } from './runtime-tool.js';

/** The words, or how to make them: a mount records the function, and search makes them once. */
type Keywords = string | (() => string);

const keywords = new WeakMap<AnyRuntimeToolDefinition, Keywords>();

/**
 * Records `words` as what `definition` is also searched by; returns `definition`. Given a
 * function, it runs on the first search (a mount that is never searched pays nothing for it).
 */
export function markSearchKeywords<D extends AnyRuntimeToolDefinition>(
  definition: D,
  words: Keywords,
): D {
  keywords.set(definition, words);
  return definition;
}

/** The words {@link markSearchKeywords} recorded for `definition`, or `''`. */
export function searchKeywordsOf(definition: AnyRuntimeToolDefinition): string {
  const words = keywords.get(definition);
  if (typeof words !== 'function') return words ?? '';
  const made = words();
  keywords.set(definition, made);
  return made;
}
