/**
 * Callable OpenAPI documents (`openapi-call-cases.ts`) mounted against a real service on
 * loopback, each tool called with arguments generated from its own input schema (valid, `null`
 * for an optional property, or broken one known way) against generated answers (2xx JSON and
 * text, 204, 4xx, 401, 403, 5xx, 429 with `Retry-After`, over the bound, malformed, cut).
 * Invalid arguments end `VALIDATION_ERROR` and reach nobody; valid ones reach the service once,
 * exactly as the arguments say, and end as the answer's kind expects (a success with exactly the
 * answer's data). Floors: calls, calls with parameters, `null`s not sent, each outcome class.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import { defineOpenApiConnection, mountConnections } from '../../src/connections/index.js';
import { type FaultReply, reply, type SeenRequest } from '../fixtures/fault-server.js';
import { useFaultServers } from '../support/fault-suite.js';
import { type CallResult, untypedOutcome } from '../support/typed-outcome.js';
import { fuzzParameters } from './fuzz-config.js';
import {
  argumentsFor,
  CALLABLE_DOCUMENT,
  type GeneratedArguments,
  type GeneratedServiceAnswer,
  type Locations,
  MAX_BYTES,
  SERVICE_ANSWER,
} from './openapi-call-cases.js';

const { start } = useFaultServers();

/** What the oracle knows of one mounted operation: its method, template, parameter places, auth. */
interface OperationFacts {
  readonly method: string;
  readonly template: string;
  readonly locations: Locations;
  readonly bearer: boolean;
}

/** Each operation of a generated document by `operationId`, read from the document itself. */
function operationFacts(document: {
  paths: Record<string, Record<string, unknown>>;
}): Map<string, OperationFacts> {
  const facts = new Map<string, OperationFacts>();
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const operation = raw as {
        operationId: string;
        parameters: { name: string; in: 'path' | 'query' | 'header' }[];
        requestBody?: unknown;
        security?: unknown;
      };
      const locations: Record<string, 'path' | 'query' | 'header' | 'body'> = {};
      for (const parameter of operation.parameters) locations[parameter.name] = parameter.in;
      if (operation.requestBody !== undefined) locations.body = 'body';
      facts.set(operation.operationId, {
        method,
        template,
        locations,
        bearer: operation.security !== undefined,
      });
    }
  }
  return facts;
}

/**
 * How the request the service saw differs from what the arguments say, or `undefined`: the method,
 * each path segment (decoded), exactly the query names given (each value as text), each header,
 * the JSON body, and the bearer when the operation declares it. A `null` for an optional
 * property is not sent at all.
 */
function requestMismatch(
  seen: SeenRequest,
  facts: OperationFacts,
  generated: GeneratedArguments,
): string | undefined {
  const given = (name: string) =>
    generated.args[name] !== undefined && !generated.absent.includes(name);
  const problems: string[] = [];
  if (seen.method !== facts.method.toUpperCase()) problems.push(`method ${seen.method}`);
  const templateSegments = facts.template.split('/');
  const seenSegments = seen.path.split('/');
  if (templateSegments.length !== seenSegments.length) problems.push(`path ${seen.path}`);
  templateSegments.forEach((segment, index) => {
    const variable = /^\{(\w+)\}$/.exec(segment)?.[1];
    const want = variable === undefined ? segment : String(generated.args[variable]);
    const got = decodeURIComponent(seenSegments[index] ?? '');
    if (got !== want) problems.push(`path segment ${index}: ${got} for ${want}`);
  });
  const query = new URLSearchParams(seen.search);
  const queryNames = Object.keys(facts.locations).filter(
    (name) => facts.locations[name] === 'query' && given(name),
  );
  if (!isDeepStrictEqual([...new Set(query.keys())].sort(), queryNames.sort())) {
    problems.push(`query names ${[...query.keys()]} for ${queryNames}`);
  }
  for (const name of queryNames) {
    if (query.get(name) !== String(generated.args[name])) problems.push(`query ${name}`);
  }
  for (const [name, where] of Object.entries(facts.locations)) {
    if (where !== 'header') continue;
    const want = given(name) ? String(generated.args[name]) : undefined;
    if (seen.headers[name] !== want) problems.push(`header ${name}: ${seen.headers[name]}`);
  }
  if (given('body')) {
    if (!isDeepStrictEqual(seen.json, generated.args.body)) problems.push(`body ${seen.bodyText}`);
  } else if (seen.bodyText !== '') problems.push(`a body nobody gave: ${seen.bodyText}`);
  if (facts.bearer && seen.headers.authorization !== 'Bearer tok') problems.push('no bearer');
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** The outcome's class: `ok`, or the failure code. */
const outcomeOf = (result: CallResult): string => (result.ok ? 'ok' : result.code);

/** The least of each outcome class, and of calls and calls with parameters, in 120 documents. */
const CALL_FLOORS: Readonly<Record<string, number>> = {
  calls: 200,
  'calls with parameters': 50,
  'null not sent': 20,
  ok: 60,
  VALIDATION_ERROR: 40,
  CONNECTION_REQUEST_FAILED: 20,
  UNAUTHORIZED: 4,
  FORBIDDEN: 4,
  CONNECTION_RESPONSE_TOO_LARGE: 6,
  CONNECTION_PROTOCOL_ERROR: 6,
  CONNECTION_NETWORK_ERROR: 4,
};

describe('a tool of a generated OpenAPI document, called with arguments from its own schema', () => {
  it('ends as its oracle expects for the arguments and the answer, and sends what the arguments say', async () => {
    let answer: FaultReply = reply.status(500);
    const service = await start(() => answer);
    const tally = new Map<string, number>();
    const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
    const byKind = new Map<string, Map<string, number>>();
    const deviations: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        CALLABLE_DOCUMENT,
        fc.infiniteStream(SERVICE_ANSWER),
        fc.context(),
        async (document, answers, ctx) => {
          const tools = await mountConnections(
            [
              defineOpenApiConnection({
                name: 'fuzz',
                spec: document,
                baseUrl: service.origin,
                token: () => 'tok',
                timeoutMs: 5_000,
                maxResponseBytes: MAX_BYTES,
              }),
            ],
            { onSkippedTool: (report) => deviations.push(`skipped: ${JSON.stringify(report)}`) },
          );
          const facts = operationFacts(document);
          const answerOf = answers[Symbol.iterator]();
          for (const tool of tools) {
            const operation = facts.get(tool.name.replace(/^fuzz__/, '')) as OperationFacts;
            const schema = tool.inputJsonSchema as Record<string, unknown>;
            const calls = fc.sample(argumentsFor(schema, operation.locations), {
              numRuns: 3,
              seed: ctx.size() + tally.size,
            });
            for (const generated of calls) {
              const served = answerOf.next().value as GeneratedServiceAnswer;
              answer = served.reply;
              const before = service.requests.length;
              const result = await runTool(tool, generated.args, { source: 'agent' });
              const reached = service.requests.slice(before);
              const outcome = outcomeOf(result);
              count('calls');
              // A call with parameters: valid, and it sent at least one of them.
              const sent = Object.keys(generated.args).filter(
                (name) => generated.args[name] !== undefined && !generated.absent.includes(name),
              );
              if (generated.valid && sent.length > 0) count('calls with parameters');
              if (generated.how === 'null for an optional property') count('null not sent');
              count(outcome);
              const kind = generated.valid ? served.kind : `invalid: ${generated.how}`;
              const row = byKind.get(kind) ?? new Map<string, number>();
              row.set(outcome, (row.get(outcome) ?? 0) + 1);
              byKind.set(kind, row);
              const deviation = callDeviation(generated, served, result, reached, operation);
              if (deviation !== undefined) {
                deviations.push(`${tool.name} ${generated.how} / ${served.kind}: ${deviation}`);
              }
            }
          }
        },
      ),
      fuzzParameters(120),
    );
    const outcomes = Object.fromEntries([...tally].sort(([a], [b]) => a.localeCompare(b)));
    const rows = [...byKind]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, row]) => `  ${kind}: ${JSON.stringify(Object.fromEntries(row))}`);
    console.info(`openapi calls fuzz: ${JSON.stringify(outcomes)}\n${rows.join('\n')}`);
    expect(deviations).toEqual([]);
    const below = Object.entries(CALL_FLOORS)
      .filter(([key, floor]) => (outcomes[key] ?? 0) < floor)
      .map(([key, floor]) => `${key}: ${outcomes[key] ?? 0} < ${floor}`);
    expect(below).toEqual([]);
  }, 60_000);
});

/**
 * The oracle of one call: invalid arguments end `VALIDATION_ERROR` and reach nobody; valid ones
 * reach the service once, exactly as the arguments say, and end as the answer's kind expects
 * (a success with exactly the answer's data, a failure with the answer's retryable flag and a
 * 429's `Retry-After` wait).
 */
function callDeviation(
  generated: GeneratedArguments,
  served: GeneratedServiceAnswer,
  result: CallResult,
  reached: readonly SeenRequest[],
  operation: OperationFacts,
): string | undefined {
  const untyped = untypedOutcome(result, {
    success: (data) => isDeepStrictEqual(data, served.data),
  });
  if (untyped !== undefined) return `untyped: ${untyped}`;
  const outcome = outcomeOf(result);
  if (!generated.valid) {
    if (outcome !== 'VALIDATION_ERROR') return `invalid arguments ended ${outcome}`;
    return reached.length === 0 ? undefined : `invalid arguments reached the service`;
  }
  if (reached.length !== 1) return `${reached.length} requests for one call`;
  const mismatch = requestMismatch(reached[0] as SeenRequest, operation, generated);
  if (mismatch !== undefined) return `request differs: ${mismatch}`;
  if (!served.expected.includes(outcome)) return `ended ${outcome}, expected ${served.expected}`;
  if (!result.ok && served.retryable !== undefined && result.retryable !== served.retryable) {
    return `retryable ${result.retryable}, expected ${served.retryable}`;
  }
  const retryAfterMs = (result as { details?: { retryAfterMs?: unknown } }).details?.retryAfterMs;
  if (!result.ok && retryAfterMs !== served.retryAfterMs) {
    return `retryAfterMs ${String(retryAfterMs)}, expected ${served.retryAfterMs}`;
  }
  return undefined;
}
