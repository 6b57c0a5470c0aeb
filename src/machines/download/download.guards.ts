/**
 * The named guards of the `download` machine. Each one is a total predicate over typed params
 * that the chart maps from the event or context at the transition; the rules behind them are in
 * `download.policy.ts`. Pure: no I/O.
 */
import { isDeclaredTooLarge, isErrorStatus } from './download.policy.js';

/** Every guard of the chart, by the name the chart and the diagrams use. */
export const downloadGuards = {
  /** The application resolved a URL (a non-empty string); `null` means nothing to download. */
  hasUrl: (_: unknown, { url }: { readonly url: unknown }): boolean =>
    typeof url === 'string' && url !== '',

  /** The final response is not 2xx. */
  isErrorStatus: (_: unknown, { status }: { readonly status: number }): boolean =>
    isErrorStatus(status),

  /** The declared length is over the cap, so the body is not read at all. */
  isDeclaredTooLarge: (
    _: unknown,
    {
      declaredBytes,
      maxBytes,
    }: { readonly declaredBytes: number | null; readonly maxBytes: number },
  ): boolean => isDeclaredTooLarge(declaredBytes, maxBytes),
};
