/**
 * The set of failure codes the library can put in a result, read from its source rather than
 * copied: every code handed to `new AppError(…)`, to `projection(…)` (the connection errors'
 * projections) and to the upstream tool error's constructor under `src/`. A code handed on from
 * elsewhere (a lowercase variable such as `code` or `result.code`) is not a new one; any other
 * shape of argument fails loudly, so a new kind of call site cannot go unseen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONNECTION_ERROR_CODES } from '../../src/wire/errors/errors.js';

const SOURCE_ROOT = fileURLToPath(new URL('../../src/', import.meta.url));

/** The first code argument of each call that builds a projected failure. */
const CALL_SITE =
  /(?<!function )\b(?:new AppError|projection|new UpstreamToolError)\(\s*(?:result,\s*)?([^,)]+)[,)]/g;
const CODE_TEXT = /^'([A-Z][A-Z0-9_]*)'$/;

function literalConstant(source: string, name: string): string | undefined {
  const found = new RegExp(`const ${name}(?::[^=]+)? = '([A-Z][A-Z0-9_]*)'`).exec(source);
  return found?.[1];
}

/** A class's `readonly code`: a literal, a constant, a code table entry, or a union type's members. */
function codesOfThis(source: string, file: string): string[] {
  const assigned = /readonly code = ([^;]+);/.exec(source)?.[1];
  if (assigned !== undefined) return codesOfArgument(assigned, source, file);
  const typed = /readonly code: (\w+);/.exec(source)?.[1];
  const union =
    typed === undefined ? undefined : new RegExp(`type ${typed} =([^;]+);`).exec(source)?.[1];
  if (union === undefined) throw new Error(`${file}: cannot read the code of this.code`);
  return [...union.matchAll(/'([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1] as string);
}

function codesOfArgument(argument: string, source: string, file: string): string[] {
  const text = argument.trim();
  const literal = CODE_TEXT.exec(text)?.[1];
  if (literal !== undefined) return [literal];
  const tableKey = /^CONNECTION_ERROR_CODES\.(\w+)$/.exec(text)?.[1];
  if (tableKey !== undefined) {
    const code = (CONNECTION_ERROR_CODES as Record<string, string>)[tableKey];
    if (code === undefined) throw new Error(`${file}: no CONNECTION_ERROR_CODES.${tableKey}`);
    return [code];
  }
  if (text === 'this.code') return codesOfThis(source, file);
  if (/^[A-Z][A-Z0-9_]*$/.test(text)) {
    const constant = literalConstant(source, text);
    if (constant === undefined) throw new Error(`${file}: cannot resolve the constant ${text}`);
    return [constant];
  }
  // A parameter or a field handed on (`code`, `result.code`, an upstream's `error`): not new.
  if (/^[a-z][\w.]*$/.test(text)) return [];
  throw new Error(`${file}: a code argument of an unknown shape: ${text}`);
}

function sourceFiles(): string[] {
  return readdirSync(SOURCE_ROOT, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(SOURCE_ROOT, name));
}

function readLibraryCodes(): ReadonlySet<string> {
  const codes = new Set<string>();
  for (const file of sourceFiles()) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(CALL_SITE)) {
      for (const code of codesOfArgument(match[1] as string, source, file)) codes.add(code);
    }
  }
  return codes;
}

/** Every failure code the library's own code can produce, read once from `src/`. */
export const LIBRARY_CODES: ReadonlySet<string> = readLibraryCodes();
