/**
 * `probe <mcp-url> --watch`: the probe's connection mounted in a live catalog that listens
 * (`watchConnections`), the usual report printed once, then one line per catalog change and one
 * per change of the connection's list-changed stream, until SIGINT or SIGTERM or `--watch-for`;
 * then the catalog is closed (no stream, timer or relisting survives it).
 */
import {
  type CatalogChange,
  type LiveCatalog,
  type TransitionRecord,
  watchConnections,
} from '../connections/index.js';
import type { ProbeArgs } from './probe-args.js';
import {
  changeEventOf,
  exitCodeOf,
  type ProbeReport,
  type WatchEvent,
  type WatchListenState,
} from './probe-report.js';
import { type ProbeMount, runProbe } from './probe-run.js';
import { probeText, wantsColor, watchText } from './probe-text.js';

/** Where the watch writes, and the environment the probe reads its token from. */
export interface WatchIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
}

/** The signals that end a watch (the catalog is closed, and the exit code is the report's). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Probes `args` (which ask for `--watch`), prints the report, then follows the catalog until a
 * stop signal or `args.watch.forMs`; resolves with the report's exit code once the catalog is
 * closed (0 unless discovery or `--call` failed; a failed discovery is not watched).
 */
export async function watchProbe(args: ProbeArgs, io: WatchIo): Promise<number> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const print = (event: WatchEvent) =>
    io.stdout.write(args.json ? `${JSON.stringify(event)}\n` : watchText(event));
  const follower = new CatalogFollower(since);
  let report: ProbeReport;
  try {
    report = await runProbe(args, io.env, follower.mount);
  } catch (error) {
    await follower.close();
    throw error;
  }
  io.stdout.write(
    args.json
      ? `${JSON.stringify(report)}\n`
      : probeText(report, { color: wantsColor(io.stdout, io.env), verbose: args.verbose }),
  );
  if (follower.catalog === undefined) return exitCodeOf(report);
  follower.follow(print);
  await untilStopped(args.watch?.forMs);
  await follower.close();
  return exitCodeOf(report);
}

/**
 * The probe's live catalog: mounts it, holds back its events until the report is out, then hands
 * each to the printer, and the stream's state each time it differs from the last one printed.
 */
class CatalogFollower {
  catalog: LiveCatalog | undefined;
  #print: ((event: WatchEvent) => void) | undefined;
  #held: WatchEvent[] = [];
  #listen: WatchListenState | undefined;
  #closed = false;

  constructor(readonly since: () => number) {}

  readonly mount: ProbeMount = async (definition, options) => {
    this.catalog = await watchConnections([definition], {
      ...options,
      listen: true,
      observe: (record) => this.#observed(record),
    });
    this.catalog.on('change', (change) => this.#changed(change));
    return this.catalog.tools();
  };

  /** From now on each event is printed, the held ones first, then the stream's state. */
  follow(print: (event: WatchEvent) => void): void {
    this.#print = print;
    for (const event of this.#held.splice(0)) print(event);
    this.#checkListen();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#checkListen();
    this.#closed = true;
    await this.catalog?.close();
  }

  #emit(event: WatchEvent): void {
    if (this.#closed) return;
    if (this.#print === undefined) this.#held.push(event);
    else this.#print(event);
  }

  #changed(change: CatalogChange): void {
    this.#emit(changeEventOf(change, this.since()));
    this.#checkListen();
  }

  /**
   * A transition of the stream's machine: its state in `describe()` is settled once the run's
   * promise has, a few microtasks after the last transition, so it is read on the next turn.
   */
  #observed(record: TransitionRecord): void {
    if (record.machine === 'listen' && !this.#closed) setImmediate(() => this.#checkListen());
  }

  #checkListen(): void {
    if (this.#closed || this.#print === undefined || this.catalog === undefined) return;
    const [entry] = this.catalog.describe().connections;
    if (entry === undefined) return;
    const listen = entry.listen ?? 'none';
    if (listen === this.#listen) return;
    this.#listen = listen;
    this.#emit({ event: 'listen', ms: this.since(), connection: entry.connection, listen });
  }
}

/** Resolves on the first stop signal, or after `forMs` when given; leaves no listener or timer. */
function untilStopped(forMs: number | undefined): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      for (const signal of STOP_SIGNALS) process.off(signal, stop);
      clearTimeout(timer);
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.once(signal, stop);
    if (forMs !== undefined) timer = setTimeout(stop, forMs);
  });
}
