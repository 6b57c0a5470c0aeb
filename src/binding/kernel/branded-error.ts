/**
 * The base of every error class of the package. Recognition goes through registered brands
 * (`Symbol.for`), never through the prototype chain, so an error built by a second copy of the
 * package still matches `instanceof` and `isInstance`. Each class names its brand once, as its
 * `static brand`. Pure: no I/O.
 */
import { brandSymbol, hasBrand } from './type-guards.js';

/** An `Error` recognised by brand: `instanceof` and `isInstance` work across package copies. */
export abstract class BrandedError extends Error {
  /** The registered brand of the class; every concrete class declares its own. */
  static readonly brand: symbol = brandSymbol('error');

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    // The instance carries the brand of its class and of every ancestor that declares one, so
    // `instanceof` a base class (say `ConnectionError`) holds for every subclass.
    let klass: unknown = new.target;
    while (typeof klass === 'function') {
      if (Object.hasOwn(klass, 'brand')) {
        const brand = (klass as unknown as { readonly brand: symbol }).brand;
        Object.defineProperty(this, brand, { value: true, enumerable: false });
      }
      if (klass === BrandedError) break;
      klass = Object.getPrototypeOf(klass);
    }
  }

  /** True for an instance of this class from any copy of the package. */
  static isInstance<T>(
    this: { readonly brand: symbol; readonly prototype: T },
    value: unknown,
  ): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the concrete subclass and its brand.
    return hasBrand(value, this.brand);
  }

  /** Makes `instanceof` brand-based, so it works across copies of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the concrete subclass and its brand.
    return hasBrand(value, (this as unknown as { readonly brand: symbol }).brand);
  }
}
