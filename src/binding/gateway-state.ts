/**
 * The `requestState` a gateway hands its MCP 2026-07-28 client with an `input_required` answer:
 * the upstream's own state wrapped in the gateway's, bound to the tool and its arguments and
 * sealed with HMAC-SHA256, so that a tampered state, one minted for another tool or other
 * arguments, or one past its lifetime is refused. Signed, not encrypted: the upstream's state is
 * opaque to the client but readable by it, as it was before the gateway.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isRecord } from './type-guards.js';

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
 * A gateway's request-state codec. Hand it to `mountMcp` (`requestState`) and to the v2 SDK
 * `McpServer` that serves the tools (`new McpServer(info, { requestState })`): the server then
 * refuses a bad state with JSON-RPC `-32602` before the tool runs.
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
}

/** The seal and open pair behind a {@link GatewayRequestState}. */
export interface GatewayStateCodec {
  /** Seals the upstream's state for a retry of `tool` with `args`. */
  mint(tool: string, args: unknown, upstream: string | undefined): string;
  /** The upstream's state a valid `state` holds for `tool` and `args`, or `false` when it is not. */
  open(
    state: string,
    tool: string,
    args: unknown,
  ): { readonly upstream: string | undefined } | false;
}

const VERSION = 'g1';
const DEFAULT_TTL_SECONDS = 600;
const codecs = new WeakMap<GatewayRequestState, GatewayStateCodec>();

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
  const mac = (body: string) => createHmac('sha256', key).update(`${VERSION}.${body}`).digest();

  const unseal = (state: string): (SealedState & { readonly exp: number }) | undefined => {
    const [version, body, tag] = state.split('.');
    if (version !== VERSION || body === undefined || tag === undefined) return undefined;
    const expected = mac(body);
    const given = Buffer.from(tag, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!isRecord(payload) || typeof payload.t !== 'string' || typeof payload.a !== 'string') {
      return undefined;
    }
    if (typeof payload.e !== 'number' || payload.e * 1000 < Date.now()) return undefined;
    const upstream = typeof payload.u === 'string' ? payload.u : undefined;
    return { tool: payload.t, args: payload.a, upstream, exp: payload.e };
  };

  const codec: GatewayStateCodec = {
    mint(tool, args, upstream) {
      const payload: Record<string, unknown> = {
        t: tool,
        a: digestOf(args),
        e: Math.floor(Date.now() / 1000) + ttlSeconds,
      };
      if (upstream !== undefined) payload.u = upstream;
      const body = base64url(JSON.stringify(payload));
      return `${VERSION}.${body}.${base64url(mac(body))}`;
    },
    open(state, tool, args) {
      const sealed = unseal(state);
      if (sealed === undefined || sealed.tool !== tool || sealed.args !== digestOf(args)) {
        return false;
      }
      return { upstream: sealed.upstream };
    },
  };
  const requestState: GatewayRequestState = {
    async verify(state) {
      if (unseal(state) === undefined) throw new Error('invalid request state');
      return undefined;
    },
  };
  codecs.set(requestState, codec);
  return requestState;
}

let processDefault: GatewayRequestState | undefined;

/** The codec of `requestState`, or of this process's default one when none is given. */
export function gatewayStateCodecOf(
  requestState: GatewayRequestState | undefined,
): GatewayStateCodec {
  processDefault ??= createGatewayRequestState();
  const codec = codecs.get(requestState ?? processDefault);
  if (codec === undefined) {
    throw new TypeError('mountMcp: requestState must come from createGatewayRequestState');
  }
  return codec;
}
