/**
 * What may go into an HTTP header (RFC 9110): a name is a token, and a value never holds CR, LF or
 * NUL, which would split it on the wire. The one home of both rules, for static headers, OpenAPI
 * parameters and security schemes, `Mcp-Param-*` names and credentials. Pure.
 */

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_BREAK = /[\r\n\0]/;

/** `name` is an RFC 9110 token: a valid header (or cookie) name. */
export function isHttpToken(name: string): boolean {
  return TOKEN.test(name);
}

/** `value` holds CR, LF or NUL, so it cannot be sent in a header (or a cookie). */
export function hasHeaderBreak(value: string): boolean {
  return HEADER_BREAK.test(value);
}
