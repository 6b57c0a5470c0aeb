/**
 * The per-call objects rule (docs/architecture.md, "Per-call objects"; decision 0022): on the path
 * every call takes, no object literal writes a key after a spread. In Node 20's V8 such a literal
 * leaves the fast clone and stores each later key on a slow path; keys first and spreads last, or
 * `Object.assign`, keep it fast. Errors are exempt (`new X({ ...scope, violation })`): they are
 * built once, on a failure. The rule is checked here, once, instead of in a comment at each site.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** The files whose code runs on every call: inputs, messages, reads, records, the runner. */
const PER_CALL_FILES = [
  'binding/contract/run-tool.ts',
  'connections/mcp-operation-run.ts',
  'connections/mcp-tools.ts',
  'connections/openapi-tools.ts',
  'connections/run-operation.ts',
  'machines/bytes-read.ts',
  'machines/mcp-operation/mcp-operation.actors.ts',
  'machines/mcp-operation/mcp-operation.policy.ts',
  'machines/mcp-operation/mcp-operation.server-requests.ts',
  'machines/observe.ts',
  'machines/open-api-call/open-api-call.actors.ts',
  'machines/open-api-call/open-api-call.policy.ts',
  'machines/run-machine.ts',
  'openapi/request.ts',
  'openapi/security.ts',
  'wire/read/abortable-read.ts',
  'wire/read/bounded-body.ts',
  'wire/http/fetch-guarded.ts',
  'wire/http/http-client.ts',
  'wire/mcp/json-rpc.ts',
  'wire/read/sse-reader.ts',
];

/** `file:line` of every object literal in `text` that writes a key after a spread. */
function keysAfterSpread(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    // An error's fields: built once, when the call fails.
    if (ts.isNewExpression(node)) return;
    if (ts.isObjectLiteralExpression(node)) {
      const firstSpread = node.properties.findIndex(ts.isSpreadAssignment);
      const late = node.properties.find(
        (property, index) =>
          firstSpread >= 0 && index > firstSpread && !ts.isSpreadAssignment(property),
      );
      if (late !== undefined) {
        found.push(`${file}:${source.getLineAndCharacterOfPosition(late.getStart()).line + 1}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('per-call objects', () => {
  it('write no key after a spread on the path every call takes', () => {
    const offenders = PER_CALL_FILES.flatMap((file) =>
      keysAfterSpread(file, readFileSync(join(SRC, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('are caught when a key follows a spread, and not when spreads come last or build an error', () => {
    const planted = [
      'export const a = (scope: object) => ({ ...scope, signal: 1 });',
      'export const b = (scope: object) => ({ signal: 1, ...scope });',
      'export const c = (scope: object) => new Error(String({ ...scope, violation: 1 }));',
      'export const d = (x?: object) => ({ head: 1, ...(x ?? {}), tail: 2 });',
    ].join('\n');
    expect(keysAfterSpread('planted.ts', planted)).toEqual(['planted.ts:1', 'planted.ts:4']);
  });
});
