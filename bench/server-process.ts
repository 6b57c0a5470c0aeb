/**
 * The runner's side of a server child: forks `node --import tsx bench/<script>`, waits for the
 * port it reports over IPC, asks it for its request counters, and stops it. Every child started
 * here is also killed when the runner exits, whatever the reason, so none is left behind.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerSpec } from './server-list.js';
import {
  type ChildMessage,
  isChildMessage,
  type ParentMessage,
  type ServerCounts,
} from './servers/protocol.js';
import { recordCommand } from './transcript.js';

/** A running server child. */
export interface ServerProcess {
  readonly spec: ServerSpec;
  /** The URL clients use: `http://127.0.0.1:PORT<path>`. */
  readonly url: string;
  readonly pid: number;
  /** Requests counted by the child since the last {@link ServerProcess.resetCounts}. */
  counts(): Promise<ServerCounts>;
  resetCounts(): Promise<void>;
  /** Stops the child (SIGKILL after a grace period); resolves when it has exited. */
  close(): Promise<void>;
}

const live = new Set<ChildProcess>();
// Synchronous on purpose: 'exit' handlers cannot wait, and kill() is enough to end a child.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Kills every server child still running (used by the runner's signal handlers). */
export function killAllServers(): void {
  for (const child of live) child.kill('SIGKILL');
}

const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 3_000;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts the server of `spec` in a child process and resolves once it listens. */
export async function startServerProcess(spec: ServerSpec): Promise<ServerProcess> {
  if (spec.script === undefined) throw new Error(`server ${spec.id} is planned, not runnable`);
  const script = fileURLToPath(new URL(spec.script, import.meta.url));
  const execArgv = ['--import', 'tsx'];
  recordCommand(process.execPath, [...execArgv, script]);
  const child = fork(script, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  live.add(child);
  child.once('exit', () => live.delete(child));

  let nextId = 1;
  const waiting = new Map<number, (message: ChildMessage) => void>();
  child.on('message', (message: unknown) => {
    if (!isChildMessage(message) || message.type === 'ready') return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const ask = (type: 'counts' | 'reset') =>
    new Promise<ChildMessage>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, resolve);
      const message: ParentMessage = { type, id };
      child.send(message, (error) => {
        if (error !== null) reject(error);
      });
    });

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`server ${spec.id} did not report a port`)),
        READY_TIMEOUT_MS,
      );
      child.on('message', (message: unknown) => {
        if (isChildMessage(message) && message.type === 'ready') {
          clearTimeout(timer);
          resolve(message.port);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`server ${spec.id} exited before listening (${code ?? signal})`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  return {
    spec,
    url: `http://127.0.0.1:${port}${spec.path}`,
    pid: child.pid ?? -1,
    counts: async () => {
      const reply = await ask('counts');
      if (reply.type !== 'counts') throw new Error('unexpected reply to counts');
      return reply.counts;
    },
    resetCounts: async () => {
      await ask('reset');
    },
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const stop: ParentMessage = { type: 'stop' };
      if (child.connected) child.send(stop);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited(child);
      clearTimeout(timer);
    },
  };
}

/** Starts several servers; if one fails, the ones already started are stopped before it throws. */
export async function startServers(specs: readonly ServerSpec[]): Promise<ServerProcess[]> {
  const started: ServerProcess[] = [];
  try {
    // One at a time: two tsx children compiling at once on a loaded 2-core machine only slow
    // each other, and the start is not measured anyway.
    for (const spec of specs) started.push(await startServerProcess(spec));
    return started;
  } catch (error) {
    await Promise.allSettled(started.map((server) => server.close()));
    throw error;
  }
}
