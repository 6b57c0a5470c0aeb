/**
 * URL redaction for errors and logs. Pure: no I/O. Only origin and path survive: userinfo, query
 * and fragment can hold credentials, so they never reach a diagnostic.
 */

/** Origin plus path; anything unparseable becomes a placeholder rather than an echo. */
export function redactUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return '[unparseable URL]';
  }
  const origin = parsed.origin === 'null' ? parsed.protocol : parsed.origin;
  return `${origin}${parsed.pathname}`;
}
