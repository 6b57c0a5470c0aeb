/**
 * The `probe` command line: what it takes, checked before anything is sent. A token only ever
 * comes from the environment variable `--token-env` names; it is never an argument and never
 * printed.
 */
import { parseArgs } from 'node:util';
import { MAX_TIMER_MS } from '../connections/index.js';

/** The probe's usage, printed by `--help` and after a usage error. */
export const PROBE_USAGE = `Usage:
  stitchkit-transport probe <mcp-url> [options]
  stitchkit-transport probe --openapi <url-or-file> [--base-url URL] [options]
  stitchkit-transport probe <mcp-url> --watch [--watch-for MS] [options]

Connects the way a mounted connection does and reports what it found: for an MCP server the
protocol revision and wire negotiated and how, each tool with its annotations and schema size,
the tools skipped and why, and the machine's transitions with the time spent in each state;
for an OpenAPI document what mounts and every refused operation, grouped by reason.
With --watch it then follows the server's tool list: one line per change as it comes (the time
since the probe started, the connection, why it was listed again, +added -removed ~changed
tools, or the failure's code and message) and one each time its list-changed stream changes
state (connecting, listening, reconnecting, unoffered, failed), until SIGINT or SIGTERM, or
until --watch-for has passed; the exit code is then the report's (0 when all went well).

Options:
  --token-env NAME     send the token in environment variable NAME (never an argument)
  --header K:V         a header to send with every request (repeatable)
  --allow-host H       a host the connection may reach besides the URL's own (repeatable)
  --proxy env|URL      send through a proxy: the environment's, or this one
  --call TOOL          call this tool (or OpenAPI operation) after mounting
  --args JSON          the call's arguments, a JSON object (default {})
  --answer JSON        accept what the server asks the caller (elicitation) with this content
  --timeout MS         the deadline of each operation, in ms
  --max-bytes N        the byte ceiling of each answer
  --watch              keep the catalog live and print its changes (MCP only: an OpenAPI
                       document sends no list changes)
  --watch-for MS       stop watching after MS ms, for scripts
  --json               print one JSON object instead of text (with --watch, one per line:
                       the report, then each change)
  --verbose            print every field of an error, and its cause
  --help               print this help

Exit codes: 0 ok, 1 anything else, 2 unauthorized (the challenge is printed), 3 forbidden,
4 refused by the host fence or a redirect (where it pointed is printed), 5 an answer too large,
6 a network failure, 7 a deadline.`;

/** What the command line asked for. */
export interface ProbeArgs {
  readonly target: { readonly kind: 'mcp'; readonly url: string } | OpenApiTarget;
  readonly tokenEnv: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly allowHosts: readonly string[];
  readonly proxy: string | undefined;
  readonly call:
    | {
        readonly tool: string;
        readonly args: Record<string, unknown>;
        /** What to accept an elicitation with; without it the probe declares no capability. */
        readonly answer?: Record<string, unknown>;
      }
    | undefined;
  readonly timeoutMs: number | undefined;
  readonly maxBytes: number | undefined;
  readonly json: boolean;
  readonly verbose: boolean;
  /** `--watch`: follow the catalog after the report, for `forMs` ms (absent: until a signal). */
  readonly watch: { readonly forMs: number | undefined } | undefined;
}

/** An OpenAPI document to probe: its URL or a file, and the base URL its operations use. */
export interface OpenApiTarget {
  readonly kind: 'openapi';
  readonly spec: string;
  readonly baseUrl: string | undefined;
}

/** A command line the probe cannot run; the message says what to change. */
export class ProbeUsageError extends Error {
  override readonly name = 'ProbeUsageError';
}

/** `--help`, or the probe's arguments; throws {@link ProbeUsageError} on a bad command line. */
export function parseProbeArgs(argv: readonly string[]): ProbeArgs | 'help' {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new ProbeUsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return 'help';
  const openapi = values.openapi;
  if (openapi === undefined && positionals.length !== 1) {
    throw new ProbeUsageError('give one MCP server URL, or --openapi <url-or-file>');
  }
  if (openapi !== undefined && positionals.length > 0) {
    throw new ProbeUsageError(`--openapi takes no MCP URL as well (got ${positionals.join(' ')})`);
  }
  if (values['base-url'] !== undefined && openapi === undefined) {
    throw new ProbeUsageError('--base-url is for --openapi');
  }
  const watch = watchOf(values.watch === true, values['watch-for'], openapi !== undefined);
  return {
    target:
      openapi === undefined
        ? { kind: 'mcp', url: positionals[0] ?? '' }
        : { kind: 'openapi', spec: openapi, baseUrl: values['base-url'] },
    tokenEnv: values['token-env'],
    headers: headersOf(values.header ?? []),
    allowHosts: values['allow-host'] ?? [],
    proxy: values.proxy,
    call: callOf(values.call, values.args, values.answer),
    timeoutMs: positiveInteger('--timeout', values.timeout),
    maxBytes: positiveInteger('--max-bytes', values['max-bytes']),
    json: values.json === true,
    verbose: values.verbose === true,
    watch,
  };
}

/** `--watch` and `--watch-for`: MCP only, the period a timer can hold. */
function watchOf(
  watch: boolean,
  forText: string | undefined,
  openapi: boolean,
): ProbeArgs['watch'] {
  if (!watch) {
    if (forText !== undefined) throw new ProbeUsageError('--watch-for goes with --watch');
    return undefined;
  }
  if (openapi) {
    throw new ProbeUsageError(
      '--watch is for MCP servers: an OpenAPI document sends no list changes to follow',
    );
  }
  const forMs = positiveInteger('--watch-for', forText);
  if (forMs !== undefined && forMs > MAX_TIMER_MS) {
    throw new ProbeUsageError(`--watch-for takes at most ${MAX_TIMER_MS} ms (got ${forMs})`);
  }
  return { forMs };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      openapi: { type: 'string' },
      'base-url': { type: 'string' },
      'token-env': { type: 'string' },
      header: { type: 'string', multiple: true },
      'allow-host': { type: 'string', multiple: true },
      proxy: { type: 'string' },
      call: { type: 'string' },
      args: { type: 'string' },
      answer: { type: 'string' },
      timeout: { type: 'string' },
      'max-bytes': { type: 'string' },
      watch: { type: 'boolean' },
      'watch-for': { type: 'string' },
      json: { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function headersOf(pairs: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const colon = pair.indexOf(':');
    if (colon <= 0) throw new ProbeUsageError(`--header takes NAME:VALUE (got "${pair}")`);
    headers[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
  }
  return headers;
}

function callOf(
  tool: string | undefined,
  args: string | undefined,
  answer: string | undefined,
): ProbeArgs['call'] | undefined {
  if (tool === undefined) {
    if (args !== undefined || answer !== undefined) {
      throw new ProbeUsageError(
        `--${args === undefined ? 'answer' : 'args'} goes with --call TOOL`,
      );
    }
    return undefined;
  }
  return {
    tool,
    args: args === undefined ? {} : jsonObject('--args', args),
    ...(answer === undefined ? {} : { answer: jsonObject('--answer', answer) }),
  };
}

function jsonObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProbeUsageError(`${flag} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProbeUsageError(`${flag} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

function positiveInteger(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ProbeUsageError(`${flag} takes a positive whole number (got "${text}")`);
  }
  return value;
}

/** The token in the variable `--token-env` names; refused when the variable is unset or empty. */
export function tokenFrom(env: NodeJS.ProcessEnv, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const token = env[name];
  if (token === undefined || token === '') {
    throw new ProbeUsageError(`--token-env ${name}: that environment variable is not set`);
  }
  return token;
}
