/**
 * The `WWW-Authenticate` challenge a refused request carries (RFC 9110 §11.6.1), parsed into the
 * fields an MCP host needs to reauthorize: `resource_metadata` (RFC 9728 §5.1), `scope` and
 * `error` (RFC 6750 §3). Pure: no I/O, never throws.
 */

/** Longest header value parsed; a longer one yields no challenge. */
export const MAX_WWW_AUTHENTICATE_CHARS = 8 * 1024;

/**
 * One authentication challenge of a 401 (or a 403 asking for step-up), host-facing only: it is
 * never projected to the model. Values are the server's, unescaped and otherwise unchecked
 * (`resourceMetadata` in particular is a URL the host must validate before fetching it).
 */
export interface AuthChallenge {
  /** The auth scheme, lowercased (`bearer`, `basic`, …): schemes are case-insensitive. */
  readonly scheme: string;
  /** The `realm` parameter. */
  readonly realm?: string;
  /** The `scope` parameter: space-separated scopes the resource asks for (RFC 6750 §3). */
  readonly scope?: string;
  /** The `error` parameter, e.g. `invalid_token` or `insufficient_scope`. */
  readonly error?: string;
  /** The `error_description` parameter. */
  readonly errorDescription?: string;
  /** The `resource_metadata` parameter: the protected resource metadata URL (RFC 9728). */
  readonly resourceMetadata?: string;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const FIELD_OF_PARAM: Readonly<Record<string, keyof Omit<AuthChallenge, 'scheme'>>> = {
  realm: 'realm',
  scope: 'scope',
  error: 'error',
  error_description: 'errorDescription',
  resource_metadata: 'resourceMetadata',
};

// Sticky patterns, matched at the cursor without copying the rest of the value.
/** RFC 9110 token: one or more tchar. */
const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
/** RFC 9110 token68: one or more of its characters, then any `=` padding. */
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;
/** The start of an auth-param, `token BWS "="`, but not a token68 such as `abc==`. */
const AUTH_PARAM_START = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=(?![ \t]*=)/y;
const EQUALS = /=/y;

class Malformed extends Error {}

/** A cursor over the header value; every read either advances or throws {@link Malformed}. */
class Cursor {
  private position = 0;

  constructor(private readonly text: string) {}

  get done(): boolean {
    return this.position >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.position];
  }

  /** OWS / BWS: optional spaces and tabs; returns how many were skipped. */
  skipWhitespace(): number {
    const start = this.position;
    while (this.peek() === ' ' || this.peek() === '\t') this.position += 1;
    return this.position - start;
  }

  /** Skips whitespace and empty list elements (`, ,`), which recipients must ignore. */
  skipSeparators(): boolean {
    let sawComma = false;
    for (;;) {
      this.skipWhitespace();
      if (this.peek() !== ',') return sawComma;
      sawComma = true;
      this.position += 1;
    }
  }

  /** Reads `pattern` (sticky) at the cursor. */
  match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.position;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.position += found.length;
    return found;
  }

  token(): string {
    const found = this.match(TOKEN);
    if (found === undefined) throw new Malformed();
    return found;
  }

  /** True when an auth-param (`token BWS "="`) starts here; reads nothing. */
  atAuthParam(): boolean {
    AUTH_PARAM_START.lastIndex = this.position;
    return AUTH_PARAM_START.test(this.text);
  }

  /** `"…"` with `\` escapes; control characters other than HTAB are refused. */
  quotedString(): string {
    this.position += 1; // the opening quote
    let value = '';
    for (;;) {
      const char = this.text[this.position];
      if (char === undefined) throw new Malformed();
      this.position += 1;
      if (char === '"') return value;
      if (char === '\\') {
        const escaped = this.text[this.position];
        if (escaped === undefined || isControl(escaped)) throw new Malformed();
        value += escaped;
        this.position += 1;
      } else if (isControl(char)) {
        throw new Malformed();
      } else {
        value += char;
      }
    }
  }
}

function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code < 0x20 && char !== '\t') || code === 0x7f;
}

interface ParsedChallenge {
  readonly scheme: string;
  readonly params: ReadonlyMap<string, string>;
}

function parseParam(cursor: Cursor, params: Map<string, string>): void {
  const name = cursor.token().toLowerCase();
  cursor.skipWhitespace();
  if (cursor.match(EQUALS) === undefined) throw new Malformed();
  cursor.skipWhitespace();
  const value = cursor.peek() === '"' ? cursor.quotedString() : cursor.token();
  // A parameter named twice in one challenge is ambiguous (RFC 9110: each name only once).
  if (params.has(name)) throw new Malformed();
  params.set(name, value);
}

/** One challenge: the scheme, then nothing, a token68, or a list of auth-params. */
function parseChallenge(cursor: Cursor): ParsedChallenge {
  const scheme = cursor.token().toLowerCase();
  const params = new Map<string, string>();
  const spaces = cursor.skipWhitespace();
  if (cursor.done || cursor.peek() === ',') return { scheme, params };
  if (spaces === 0) throw new Malformed();
  if (!cursor.atAuthParam()) {
    // A token68 (e.g. `Basic dXNlcg==`) carries none of the fields we read; it must end the challenge.
    if (cursor.match(TOKEN68) === undefined) throw new Malformed();
    cursor.skipWhitespace();
    if (!cursor.done && cursor.peek() !== ',') throw new Malformed();
    return { scheme, params };
  }
  for (;;) {
    parseParam(cursor, params);
    cursor.skipWhitespace();
    if (cursor.done) return { scheme, params };
    if (cursor.peek() !== ',') throw new Malformed();
    cursor.skipSeparators();
    // After a comma comes either the next parameter or the next challenge's scheme.
    if (cursor.done || !cursor.atAuthParam()) return { scheme, params };
  }
}

function parseChallenges(value: string): ParsedChallenge[] {
  const cursor = new Cursor(value);
  const challenges: ParsedChallenge[] = [];
  cursor.skipSeparators();
  while (!cursor.done) {
    challenges.push(parseChallenge(cursor));
    cursor.skipSeparators();
  }
  return challenges;
}

function toChallenge(parsed: ParsedChallenge): AuthChallenge {
  const challenge: Mutable<AuthChallenge> = { scheme: parsed.scheme };
  for (const [name, value] of parsed.params) {
    const field = FIELD_OF_PARAM[name];
    if (field !== undefined && Object.hasOwn(FIELD_OF_PARAM, name)) challenge[field] = value;
  }
  return challenge;
}

/**
 * The challenge of a `WWW-Authenticate` value: the Bearer one when several are offered, else the
 * first. `undefined` when the value is absent, empty, longer than
 * {@link MAX_WWW_AUTHENTICATE_CHARS}, or malformed anywhere. Never throws.
 *
 * @example
 * parseWwwAuthenticate('Bearer resource_metadata="https://a.test/.well-known/oauth-protected-resource", scope="files:read"')
 * // { scheme: 'bearer', resourceMetadata: 'https://a.test/…', scope: 'files:read' }
 */
export function parseWwwAuthenticate(value: string | null | undefined): AuthChallenge | undefined {
  if (typeof value !== 'string' || value.length > MAX_WWW_AUTHENTICATE_CHARS) return undefined;
  let challenges: ParsedChallenge[];
  try {
    challenges = parseChallenges(value);
  } catch {
    return undefined;
  }
  const chosen = challenges.find((challenge) => challenge.scheme === 'bearer') ?? challenges[0];
  return chosen === undefined ? undefined : toChallenge(chosen);
}

/**
 * The challenge of a refused response, read only where it means something to the host: a 401
 * (reauthorize) or a 403 (a step-up, e.g. `insufficient_scope`). Any other status: `undefined`.
 */
export function challengeOfResponse(response: {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
}): AuthChallenge | undefined {
  if (response.status !== 401 && response.status !== 403) return undefined;
  return parseWwwAuthenticate(response.headers.get('www-authenticate'));
}

/**
 * The optional `challenge` field of a refusal or a report, absent rather than `undefined` when
 * there is none: the one way every refusal and the probe's report spread it.
 */
export function challengeField(challenge: AuthChallenge | undefined): {
  challenge?: AuthChallenge;
} {
  return challenge === undefined ? {} : { challenge };
}
