/**
 * A value that must never be serialised: bearer tokens, static header values, session ids.
 * Machines keep secrets in context only wrapped in this class, so snapshots handed to inspectors,
 * observers or loggers show `[redacted]` instead of the value.
 */

const REDACTED = '[redacted]';
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/** An opaque holder for a secret string; every serialisation path prints `[redacted]`. */
export class SecretValue {
  #value: string | undefined;

  constructor(value: string) {
    this.#value = value;
    Object.freeze(this);
  }

  /** The secret itself; call only where it is put on the wire. Throws once wiped. */
  reveal(): string {
    if (this.#value === undefined) throw new TypeError('This secret was wiped at teardown');
    return this.#value;
  }

  /** Forgets the secret, so nothing that still holds this object can use it. */
  wipe(): void {
    this.#value = undefined;
  }

  /** True once {@link SecretValue.wipe} ran. */
  get wiped(): boolean {
    return this.#value === undefined;
  }

  /** Serialisation hook: JSON never sees the secret. */
  toJSON(): string {
    return REDACTED;
  }

  /** String conversion never sees the secret. */
  toString(): string {
    return REDACTED;
  }

  /** Node's `util.inspect` (and so `console.log`) never sees the secret. */
  [inspectCustom](): string {
    return REDACTED;
  }
}

/** Wraps every value of a header record so it can sit in machine context. */
export function secretHeaders(
  headers: Readonly<Record<string, string>> | undefined,
): Readonly<Record<string, SecretValue>> {
  const wrapped: Record<string, SecretValue> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    wrapped[name.toLowerCase()] = new SecretValue(value);
  }
  return Object.freeze(wrapped);
}
