/**
 * Brand and record checks shared by every layer. Pure: no I/O.
 * Brands are registered symbols, so a value built by another copy of the package still matches.
 */

/** The registered symbol `stitchkit-transport.<key>`: the same symbol in every package copy. */
export function brandSymbol(key: string): symbol {
  return Symbol.for(`stitchkit-transport.${key}`);
}

/** True when `value` is a non-null object whose `brand` property (own or inherited) is `true`. */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}

/** True for a non-null object that is not an array, whatever its prototype. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for `{}`-style objects (prototype `Object.prototype` or `null`). */
// Stricter than `isRecord`: class instances, Dates and Maps are not plain data to present.
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
