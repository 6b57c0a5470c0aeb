/**
 * The runner's side of the client children: every per-call alternative runs in a client process
 * (`bench/client-child.ts`) of its client's own (`clientProcessOf`: ours, the SDK per call, …),
 * reused by every table, so that its CPU, its garbage collector and its compiler threads are that
 * client's, as in a host that uses it. In one shared
 * process, V8's helper threads did work caused by one alternative while another's round ran, and
 * the raw-fetch floor read no helper-thread CPU at all in any run. The runner asks a child to
 * build an alternative, then to run calls: untimed (warm-ups) or timed (a round, whose latencies
 * and CPU the child measures around its own calls). Every child is killed when the runner exits
(`child-run.ts` tracks them with the other client children).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type AlternativeSpec, clientProcessOf } from './alternative-specs.js';
import { trackClientChild } from './child-run.js';
import type { AlternativeId } from './clients.js';
import { recordCommand } from './transcript.js';

/** What one timed run measured in the client child. */
export interface RoundSample {
  /** Wall time of each call, in ms. */
  readonly latencies: readonly number[];
  /** Wall time of the whole run, in ms (the settle after it left out). */
  readonly elapsedMs: number;
  /** The child's user + system CPU over the run and the settle after it, in µs. */
  readonly cpuMicros: number;
  /** The same for its main thread alone (`NaN` off Linux, `null` over IPC). */
  readonly mainThreadCpuMicros: number | null;
}

/** Runner to client child. */
export type ClientRequest =
  | { readonly type: 'build'; readonly id: number; readonly spec: AlternativeSpec }
  | {
      readonly type: 'run';
      readonly id: number;
      readonly handle: number;
      readonly calls: number;
      readonly concurrency: number;
      /** Timed: measure each call, the CPU, and wait `settleAfterMs` before reading the CPU. */
      readonly timed: boolean;
      readonly settleAfterMs: number;
    }
  | { readonly type: 'close'; readonly id: number; readonly handle: number };

/** Client child to runner, answering the request with the same `id`. */
export type ClientReply =
  | { readonly type: 'built'; readonly id: number; readonly handle: number; readonly name: string }
  | { readonly type: 'ran'; readonly id: number; readonly sample: RoundSample | null }
  | { readonly type: 'closed'; readonly id: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

/** An alternative built in a client child. */
export interface RemoteAlternative {
  readonly id: AlternativeId;
  readonly name: string;
  /** Runs `calls` calls, `concurrency` at a time, unmeasured. */
  warm(calls: number, concurrency: number): Promise<void>;
  /** Runs `calls` calls, `concurrency` at a time, and returns what the child measured. */
  measure(calls: number, concurrency: number, settleAfterMs: number): Promise<RoundSample>;
  close(): Promise<void>;
}

/** A request before the process numbers it. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

function isReply(value: unknown): value is ClientReply {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'built' || type === 'ran' || type === 'closed' || type === 'failed';
}

/** One client child: requests answered in order, matched by id. */
class ClientProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: ClientReply) => void>();
  private readonly child: ChildProcess;

  constructor(readonly key: AlternativeId) {
    const script = fileURLToPath(new URL('client-child.ts', import.meta.url));
    const execArgv = ['--import', 'tsx'];
    // The id is only a label: it names the child in `ps` and in the recorded command lines.
    recordCommand(process.execPath, [...execArgv, script, key]);
    this.child = fork(script, [key], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    trackClientChild(this.child);
    this.child.on('message', (message: unknown) => {
      if (!isReply(message)) return;
      this.waiting.get(message.id)?.(message);
      this.waiting.delete(message.id);
    });
    this.child.once('exit', (code, signal) => {
      const message = `client child ${key} exited (${code ?? signal})`;
      for (const [id, answer] of this.waiting) answer({ type: 'failed', id, message });
      this.waiting.clear();
    });
  }

  async ask(request: Unnumbered<ClientRequest>): Promise<ClientReply> {
    const id = this.nextId++;
    const reply = await new Promise<ClientReply>((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.child.send({ ...request, id }, (error) => {
        if (error !== null) reject(error);
      });
    });
    if (reply.type === 'failed') throw new Error(`client ${this.key}: ${reply.message}`);
    return reply;
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.disconnect();
    });
  }
}

/** The client children of a run, one per client (`clientProcessOf`), started on first use. */
export class ClientProcesses {
  private readonly children = new Map<AlternativeId, ClientProcess>();

  /** Builds `spec`'s alternative in its client's child. */
  async build(spec: AlternativeSpec): Promise<RemoteAlternative> {
    const key = clientProcessOf(spec);
    let child = this.children.get(key);
    if (child === undefined) {
      child = new ClientProcess(key);
      this.children.set(key, child);
    }
    const client = child;
    const built = await client.ask({ type: 'build', spec });
    if (built.type !== 'built') throw new Error(`unexpected reply to build: ${built.type}`);
    const { handle, name } = built;
    const run = async (calls: number, concurrency: number, timed: boolean, settleAfterMs = 0) => {
      const reply = await client.ask({
        type: 'run',
        handle,
        calls,
        concurrency,
        timed,
        settleAfterMs,
      });
      if (reply.type !== 'ran') throw new Error(`unexpected reply to run: ${reply.type}`);
      return reply.sample;
    };
    return {
      id: spec.id,
      name,
      warm: async (calls, concurrency) => {
        await run(calls, concurrency, false);
      },
      measure: async (calls, concurrency, settleAfterMs) => {
        const sample = await run(calls, concurrency, true, settleAfterMs);
        if (sample === null) throw new Error('a timed run returned no sample');
        return sample;
      },
      close: async () => {
        await client.ask({ type: 'close', handle });
      },
    };
  }

  /** Ends every child (each exits once its IPC channel closes). */
  async stop(): Promise<void> {
    await Promise.all([...this.children.values()].map((child) => child.stop()));
    this.children.clear();
  }
}
