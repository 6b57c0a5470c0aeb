/**
 * The `requestState` a gateway hands its MCP 2026-07-28 client with an `input_required` answer:
 * the upstream's own state wrapped in the gateway's, bound to the tool and its arguments and
 * sealed with HMAC-SHA256, so that a tampered state, one minted for another tool or other
 * arguments, or one past its lifetime is refused. Signed, not encrypted: the upstream's state is
 * opaque to the client but readable by it, as it was before the gateway. A mount seals with the
 * codec the server's own seam verifies with, and refuses a server whose seam is not one
 * (decision 0038).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isRecord } from '../kernel/type-guards.js';
import { GatewayStateError } from './gateway-state-error.js';

/** Options of {@link createGatewayRequestState}. */
export interface GatewayRequestStateOptions {
  /**
   * The HMAC key; every gateway instance that may receive a retry must share it. Default: 32
   * random bytes for this codec (a retry must then reach the same process).
   */
  readonly key?: string | Uint8Array;
  /** How long a state stays valid, in seconds; default 600. */
  readonly ttlSeconds?: number;
}

/**
 * A gateway's request-state codec. Hand it to the v2 SDK `McpServer` that serves the tools
 * (`new McpServer(info, { requestState })`), and the same one to `mountMcp` (`requestState`) or
 * none: the server then refuses a bad state with JSON-RPC `-32602` before the tool runs, and
 * `mountMcp` refuses a v2 server created without it.
 */
export interface GatewayRequestState {
  /** Throws when `state` fails verification; resolves `undefined` (the tool reads it raw). */
  verify(state: string): Promise<undefined>;
}

/** What a sealed state holds. */
interface SealedState {
  /** The tool the state was minted for. */
  readonly tool: string;
  /** SHA-256 of the arguments' JSON. */
  readonly args: string;
  /** The upstream's own state, when it sent one. */
  readonly upstream: string | undefined;
  /** The upstream task that asked, when the questions came from inside one (decision 0051). */
  readonly taskId: string | undefined;
  /** The client it was minted for (`authInfo.clientId`), when the host authenticates. */
  readonly owner: string | undefined;
}

/** What a state carries beside the upstream's own: the task that asked, and whose it is. */
export interface StateExtras {
  /** The upstream task that asked, when the questions came from inside one. */
  readonly taskId?: string | undefined;
  /** The client the state is minted for (`authInfo.clientId`), when the host authenticates. */
  readonly owner?: string | undefined;
}

/** What a gateway's task id seals: whose task it is, and the upstream's own id (decision 0050). */
export interface SealedTaskId {
  /** The mounted tool whose call created the task (and so its connection). */
  readonly tool: string;
  /** The upstream's id of the task. */
  readonly upstream: string;
  /** The downstream client it was minted for (`authInfo.clientId`), when the host authenticates. */
  readonly owner: string | undefined;
  /** When the id stops being honoured, in ms since the epoch. */
  readonly expiresAt: number;
}

/** The seal and open pair behind a {@link GatewayRequestState}. */
export interface GatewayStateCodec {
  /** Seals a relayed task's id (`gt1.<body>.<tag>`), with the same key as the states. */
  sealTask(task: SealedTaskId): string;
  /** What a valid, unexpired task id seals, or `undefined` for any other string. */
  openTask(id: string): SealedTaskId | undefined;
  /** Seals the upstream's state (and the task that asked) for a retry of `tool` with `args`. */
  mint(tool: string, args: unknown, upstream: string | undefined, extras?: StateExtras): string;
  /**
   * The upstream's state and task a valid `state` holds for `tool`, `args` and `owner` (the one
   * it was minted for, or none), or `false` when it is not.
   */
  open(
    state: string,
    tool: string,
    args: unknown,
    owner?: string,
  ): { readonly upstream: string | undefined; readonly taskId: string | undefined } | false;
}

const VERSION = 'g1';
/** The prefix of a gateway's task ids, distinct from its states' so neither opens as the other. */
const TASK_VERSION = 'gt1';
const DEFAULT_TTL_SECONDS = 600;
const codecs = new WeakMap<GatewayRequestState, GatewayStateCodec>();
/** The same codecs by their `verify` function: what a v2 server keeps of its option. */
const verifiers = new WeakMap<object, GatewayStateCodec>();

const base64url = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');
const digestOf = (args: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(args ?? {}))
    .digest('base64url');

/** Creates a gateway request-state codec (see {@link GatewayRequestState}). */
export function createGatewayRequestState(
  options: GatewayRequestStateOptions = {},
): GatewayRequestState {
  const key = options.key === undefined ? randomBytes(32) : Buffer.from(options.key);
  if (key.length < 16)
    throw new TypeError('createGatewayRequestState: the key needs 16 bytes or more');
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const mac = (version: string, body: string) =>
    createHmac('sha256', key).update(`${version}.${body}`).digest();
  const seal = (version: string, payload: Readonly<Record<string, unknown>>) => {
    const body = base64url(JSON.stringify(payload));
    return `${version}.${body}.${base64url(mac(version, body))}`;
  };
  /** The payload `sealed` carries under `version` when its tag is this key's, else `undefined`. */
  const opened = (sealed: string, version: string): Record<string, unknown> | undefined => {
    const [given, body, tag, extra] = sealed.split('.');
    if (given !== version || body === undefined || tag === undefined || extra !== undefined) {
      return undefined;
    }
    const expected = mac(version, body);
    const tagBytes = Buffer.from(tag, 'base64url');
    if (tagBytes.length !== expected.length || !timingSafeEqual(tagBytes, expected)) {
      return undefined;
    }
    try {
      const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return isRecord(payload) ? payload : undefined;
    } catch {
      return undefined;
    }
  };

  const unseal = (state: string): (SealedState & { readonly exp: number }) | undefined => {
    const payload = opened(state, VERSION);
    if (payload === undefined || typeof payload.t !== 'string' || typeof payload.a !== 'string') {
      return undefined;
    }
    if (typeof payload.e !== 'number' || payload.e * 1000 < Date.now()) return undefined;
    const upstream = typeof payload.u === 'string' ? payload.u : undefined;
    const taskId = typeof payload.k === 'string' ? payload.k : undefined;
    const owner = typeof payload.o === 'string' ? payload.o : undefined;
    return { tool: payload.t, args: payload.a, upstream, taskId, owner, exp: payload.e };
  };

  const codec: GatewayStateCodec = {
    mint(tool, args, upstream, extras = {}) {
      const payload: Record<string, unknown> = {
        t: tool,
        a: digestOf(args),
        e: Math.floor(Date.now() / 1000) + ttlSeconds,
      };
      if (upstream !== undefined) payload.u = upstream;
      if (extras.taskId !== undefined) payload.k = extras.taskId;
      if (extras.owner !== undefined) payload.o = extras.owner;
      return seal(VERSION, payload);
    },
    open(state, tool, args, owner) {
      const sealed = unseal(state);
      if (
        sealed === undefined ||
        sealed.tool !== tool ||
        sealed.args !== digestOf(args) ||
        sealed.owner !== owner
      ) {
        return false;
      }
      return { upstream: sealed.upstream, taskId: sealed.taskId };
    },
    sealTask(task) {
      const payload: Record<string, unknown> = {
        t: task.tool,
        u: task.upstream,
        x: task.expiresAt,
      };
      if (task.owner !== undefined) payload.o = task.owner;
      return seal(TASK_VERSION, payload);
    },
    openTask(id) {
      const payload = opened(id, TASK_VERSION);
      if (payload === undefined) return undefined;
      const { t: tool, u: upstream, x: expiresAt, o: owner } = payload;
      if (typeof tool !== 'string' || typeof upstream !== 'string') return undefined;
      if (typeof expiresAt !== 'number' || expiresAt < Date.now()) return undefined;
      if (owner !== undefined && typeof owner !== 'string') return undefined;
      return { tool, upstream, owner, expiresAt };
    },
  };
  const requestState: GatewayRequestState = {
    async verify(state) {
      if (unseal(state) === undefined) throw new Error('invalid request state');
      return undefined;
    },
  };
  codecs.set(requestState, codec);
  verifiers.set(requestState.verify, codec);
  return requestState;
}

/**
 * Where the v2 SDK's low-level server (2.x) keeps the `requestState.verify` hook it was created
 * with. It takes the hook only at construction and has no setter, so a mount can read the seam
 * but not install one.
 */
const SEAM_FIELD = '_requestStateVerify';

/**
 * The codec a mount on `server` seals with: the one the server's own seam verifies with (v2
 * SDK). `undefined` for a server with no such seam (the v1 SDK, which speaks only 2025-11-25 and
 * so never carries a state): the mount then mints no state and accepts none. Throws
 * {@link GatewayStateError} for a v2 server created without the gateway's codec, with another
 * verifier, or with another codec than `requestState`.
 */
export function gatewayStateCodecOf(
  server: { readonly server: unknown },
  requestState: GatewayRequestState | undefined,
): GatewayStateCodec | undefined {
  const given = requestState === undefined ? undefined : codecs.get(requestState);
  if (requestState !== undefined && given === undefined) {
    throw new GatewayStateError('foreign-codec');
  }
  const low = server.server;
  if (!isRecord(low) || !Object.hasOwn(low, SEAM_FIELD)) return undefined;
  const hook = low[SEAM_FIELD];
  if (hook === undefined) throw new GatewayStateError('unverified');
  const seam = typeof hook === 'function' ? verifiers.get(hook) : undefined;
  if (seam === undefined) throw new GatewayStateError('foreign-verifier');
  if (given !== undefined && given !== seam) throw new GatewayStateError('two-codecs');
  return seam;
}
