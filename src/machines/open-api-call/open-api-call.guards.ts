/**
 * The named guards of `openApiCall`: total predicates over the exchange the chart maps from the
 * `sendRequest` actor's output, and the credential guard and 401 rule every connection machine
 * shares. Pure.
 */
import { isUnauthorizedStatus } from '../../wire/index.js';
import { credentialGuards } from '../credentials.js';
import type { OpenApiExchange } from './open-api-call.types.js';

type ExchangeParams = { readonly exchange: OpenApiExchange };

/** Every guard of the chart, by the name the chart and the diagrams use. */
export const openApiCallGuards = {
  ...credentialGuards,

  /** The service answered 401: the host must reauthorize. */
  isUnauthorized: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error' && isUnauthorizedStatus(exchange.status),

  /**
   * The service refused the request with any non-2xx status (403 included; 401 too, which the
   * chart asks `isUnauthorized` about first).
   */
  isHttpError: (_: unknown, { exchange }: ExchangeParams): boolean =>
    exchange.kind === 'http-error',

  /** A 2xx answer announced JSON but its body is not JSON. */
  isMalformed: (_: unknown, { exchange }: ExchangeParams): boolean => exchange.kind === 'malformed',
};
