/**
 * What `probe` found, as data (printed as it is with `--json`) and as text, and the exit code of
 * each failure class. Nothing here prints a token or a header value: a report is built from the
 * package's records and typed errors, which carry neither.
 */
import { AppError } from '../binding/index.js';
import { isRecord } from '../binding/kernel/type-guards.js';
import type { CatalogChange, CatalogChangeReason, LiveCatalogEntry } from '../connections/index.js';
import { challengeField } from '../wire/core/www-authenticate.js';
import { failureClassOf } from '../wire/index.js';

/** One transition, with the ms spent in the state it left. */
export interface TraceStep {
  readonly machine: string;
  readonly from: string;
  readonly to: string;
  readonly event: string;
  readonly ms: number;
  /** A call that became an MCP task: the task's id and the status last seen. */
  readonly task?: { readonly id: string; readonly status: string };
}

/** A mounted tool. */
export interface ProbedTool {
  readonly name: string;
  readonly description: string;
  /** The hints that are `true` (`readOnlyHint`, `idempotentHint`, …). */
  readonly annotations: readonly string[];
  readonly schemaBytes: number;
}

/** A failure as the probe reports it. */
export interface ProbeFailure {
  /** 0 is never a failure's: 1 anything else, 2 unauthorized … 7 a deadline. */
  readonly exitCode: number;
  /** The error class (`ConnectionTimeoutError`) or the code of a tool's own error. */
  readonly kind: string;
  readonly message: string;
  /** What a 401 or a 403 said to do (`resource_metadata`, `scope`). */
  readonly challenge?: object;
  /** The refused URL and, for a redirect that stays on its host, where it pointed. */
  readonly url?: string;
  readonly redirectTo?: string;
  readonly status?: number;
  readonly rpcCode?: number;
  /** Every field of the error and its cause, for `--verbose`. */
  readonly detail: Readonly<Record<string, unknown>>;
}

/** The result of a `--call`. */
export interface ProbedCall {
  readonly tool: string;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: ProbeFailure;
  readonly progress: readonly { progress: number; total?: number; message?: string }[];
  /** What the server asked the caller (`input_required` rounds, or requests on the stream). */
  readonly asked: readonly { method: string; message?: string }[];
  readonly trace: readonly TraceStep[];
  readonly ms: number;
}

/** Everything one probe found. */
export interface ProbeReport {
  readonly target:
    | { readonly kind: 'mcp'; readonly url: string }
    | { kind: 'openapi'; spec: string };
  readonly ok: boolean;
  /** The MCP revision and wire discovery settled on. */
  negotiated?: {
    readonly protocolVersion: string;
    readonly wire: 'stateless' | 'streamable-http' | 'sse';
    /** What the probe steps were answered, in a sentence. */
    readonly how: string;
  };
  discovery?: { readonly ms: number; readonly trace: readonly TraceStep[] };
  tools: readonly ProbedTool[];
  skipped: readonly { readonly tool: string; readonly reason: string; readonly message: string }[];
  catalog?: { tools: number; schemaBytes: number; skipped: number; cache?: object };
  call?: ProbedCall;
  error?: ProbeFailure;
}

/** Exit codes by failure class. */
export const EXIT = Object.freeze({
  ok: 0,
  other: 1,
  unauthorized: 2,
  forbidden: 3,
  refused: 4,
  tooLarge: 5,
  network: 6,
  timeout: 7,
} as const);

/** The exit code of a report: its failure's, else 0. */
export function exitCodeOf(report: ProbeReport): number {
  return report.error?.exitCode ?? report.call?.error?.exitCode ?? EXIT.ok;
}

/** The exit code of each failure class that reports nothing more than its class. */
const EXIT_BY_CLASS = {
  'too-large': EXIT.tooLarge,
  network: EXIT.network,
  timeout: EXIT.timeout,
  credential: EXIT.other,
  'input-required': EXIT.other,
  other: EXIT.other,
} as const;

/** A failure as the probe reports it, with its exit code. */
export function failureOf(error: unknown): ProbeFailure {
  const base = { ...describe(error), detail: detailOf(error) };
  const failure = failureClassOf(error);
  switch (failure.kind) {
    case 'unauthorized':
      return {
        ...base,
        exitCode: EXIT.unauthorized,
        status: 401,
        ...challengeField(failure.challenge),
      };
    case 'status': {
      const exitCode = failure.status === 403 ? EXIT.forbidden : EXIT.other;
      return { ...base, exitCode, status: failure.status, ...challengeField(failure.challenge) };
    }
    case 'url':
      return {
        ...base,
        exitCode: EXIT.refused,
        ...(failure.url === undefined ? {} : { url: failure.url }),
        ...(failure.redirectTo === undefined ? {} : { redirectTo: failure.redirectTo }),
      };
    case 'protocol':
      return {
        ...base,
        exitCode: EXIT.other,
        ...(failure.rpcCode === undefined ? {} : { rpcCode: failure.rpcCode }),
      };
    default:
      return { ...base, exitCode: EXIT_BY_CLASS[failure.kind] };
  }
}

/** The class (or a tool's own code) and the message of a failure. */
function describe(error: unknown): { kind: string; message: string } {
  if (error instanceof AppError) return { kind: error.code, message: error.message };
  if (error instanceof Error) return { kind: error.name, message: error.message };
  // A tool failure without a thrown cause: its code, and its details' message when it has one.
  if (isRecord(error) && typeof error.code === 'string') {
    const details = isRecord(error.details) ? error.details : {};
    return {
      kind: error.code,
      message: typeof details.message === 'string' ? details.message : error.code,
    };
  }
  return { kind: 'Error', message: String(error) };
}

/** The error's own fields and its cause's message, for `--verbose` (our errors hold no secret). */
function detailOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return isRecord(error) ? { ...error } : { value: String(error) };
  const fields: Record<string, unknown> = { name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (typeof value !== 'function') fields[key] = value;
  }
  if (error.cause instanceof Error) fields.cause = `${error.cause.name}: ${error.cause.message}`;
  return fields;
}

/** Where a connection's list-changed stream stands (`none`: its wire has none to follow). */
export type WatchListenState = NonNullable<LiveCatalogEntry['listen']> | 'none';

/**
 * One line `--watch` prints after the report, as data (one JSON object per line with `--json`):
 * a change of the catalog, or of the connection's list-changed stream. `ms` counts from the
 * start of the probe.
 */
export type WatchEvent =
  | {
      readonly event: 'change';
      readonly ms: number;
      readonly connection: string;
      readonly reason: CatalogChangeReason;
      readonly added: readonly string[];
      readonly removed: readonly string[];
      readonly changed: readonly string[];
      /** A relisting that failed: the failure's code (or class) and message; the tools stay. */
      readonly error?: { readonly code: string; readonly message: string };
    }
  | {
      readonly event: 'listen';
      readonly ms: number;
      readonly connection: string;
      readonly listen: WatchListenState;
    };

/** A catalog change as `--watch` reports it, `ms` after the probe started. */
export function changeEventOf(change: CatalogChange, ms: number): WatchEvent {
  const { connection, reason, added, removed, changed } = change;
  const base = { event: 'change', ms, connection, reason, added, removed, changed } as const;
  if (change.error === undefined) return base;
  // The package's typed errors carry a stable `code`; anything else is named by its class.
  const { code } = change.error as { code?: unknown };
  const { kind, message } = failureOf(change.error);
  return { ...base, error: { code: typeof code === 'string' ? code : kind, message } };
}
