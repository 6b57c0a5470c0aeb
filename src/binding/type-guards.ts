/** Placeholder until the one-home-per-rule branch lands (identical API). Pure: no I/O. */

/** The registered symbol `stitchkit-transport.<key>`. */
export function brandSymbol(key: string): symbol {
  return Symbol.for(`stitchkit-transport.${key}`);
}

/** True when `value` is an object carrying `brand`. */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}

/** True for a non-null object that is not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
