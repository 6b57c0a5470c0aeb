/**
 * A value that must never be serialised: bearer tokens, static header values, session ids, and the
 * opaque principal a run's credential is resolved for. Machines keep such values in context only
 * wrapped in this class, so snapshots handed to inspectors, observers or loggers show `[redacted]`.
 */

const REDACTED = '[redacted]';
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/** An opaque holder for a secret (a string unless said); every serialisation prints `[redacted]`. */
export class SecretValue<T = string> {
  #value: T | undefined;
  #wiped = false;

  constructor(value: T) {
    this.#value = value;
    Object.freeze(this);
  }

  /** The secret itself; call only where it is put on the wire. Throws once wiped. */
  reveal(): T {
    if (this.#wiped) throw new TypeError('This secret was wiped at teardown');
    return this.#value as T;
  }

  /** Forgets the secret, so nothing that still holds this object can use it. */
  wipe(): void {
    this.#value = undefined;
    this.#wiped = true;
  }

  /** True once {@link SecretValue.wipe} ran. */
  get wiped(): boolean {
    return this.#wiped;
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
