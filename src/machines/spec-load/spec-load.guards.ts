/**
 * The named guards of `specLoad`: total predicates over the exchange the chart maps from the
 * `fetchSpec` actor's output. Pure.
 */
import type { SpecExchange } from './spec-load.types.js';

type ExchangeParams = { readonly exchange: SpecExchange };

/** Every guard of the chart, by the name the chart and the diagrams use. */
export const specLoadGuards = {
  /** The spec URL answered with a non-2xx status. */
  isHttpError: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error',

  /** The body is not a JSON object (YAML included). */
  isMalformed: (_: unknown, { exchange }: ExchangeParams): boolean => exchange.kind === 'malformed',
};
