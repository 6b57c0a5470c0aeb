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
  'machines/mcp-operation/mcp-operation.messages.ts',
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

/**
 * `file:line` of every store of a key into an object made by a spread in the same block
 * (`const copy = { ...source }; copy.key = value;`). Node 20's optimized code gives each such
 * object a hidden class of its own (decision 0048 measured one per call, and its garbage), where
 * `Object.assign({}, source)` followed by the same store, or the key in the literal before the
 * spread, share one.
 */
function keysStoredOnSpreadCopies(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visitBlock = (statements: readonly ts.Statement[]): void => {
    const copies = new Set<string>();
    for (const statement of statements) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          const init = declaration.initializer;
          if (
            ts.isIdentifier(declaration.name) &&
            init !== undefined &&
            ts.isObjectLiteralExpression(init) &&
            init.properties.some(ts.isSpreadAssignment)
          ) {
            copies.add(declaration.name.text);
          }
        }
      }
      const store = (node: ts.Node): void => {
        if (
          ts.isBinaryExpression(node) &&
          node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
          (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left)) &&
          ts.isIdentifier(node.left.expression) &&
          copies.has(node.left.expression.text)
        ) {
          found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
        }
        if (!ts.isFunctionLike(node)) ts.forEachChild(node, store);
      };
      if (!ts.isVariableStatement(statement)) store(statement);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isBlock(node) || ts.isSourceFile(node)) visitBlock(node.statements);
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

  it('store no key into a spread copy on the path every call takes', () => {
    const offenders = PER_CALL_FILES.flatMap((file) =>
      keysStoredOnSpreadCopies(file, readFileSync(join(SRC, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('are caught when a key is stored into a spread copy, and not into an assigned copy', () => {
    const planted = [
      'export function a(params: Record<string, unknown>) {',
      '  const copy: Record<string, unknown> = { ...params };',
      '  copy._meta = 1;',
      "  if (params.x) copy['y'] = 2;",
      '  const fine: Record<string, unknown> = Object.assign({}, params);',
      '  fine._meta = 1;',
      '  return [copy, fine];',
      '}',
    ].join('\n');
    expect(keysStoredOnSpreadCopies('planted.ts', planted)).toEqual([
      'planted.ts:3',
      'planted.ts:4',
    ]);
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
