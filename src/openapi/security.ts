/**
 * Where an operation's security puts the host's token: the first supported alternative of the
 * operation's requirements (or the document's). `{}` is anonymous; one apiKey (header, query,
 * cookie), http basic or bearer, oauth2 or openIdConnect (the host's token as a bearer) per
 * alternative. Pure: no I/O.
 */
import { isRecord } from '../binding/type-guards.js';
import type { CredentialPlacement } from '../machines/open-api-call.types.js';
import type { RefExpander } from './expand.js';
import { refuse } from './refusal.js';

const API_KEY_PLACES: ReadonlySet<string> = new Set(['header', 'query', 'cookie']);

/** The placement of one scheme, or `undefined` when this library cannot apply it. */
function placementOf(scheme: Record<string, unknown>): CredentialPlacement | undefined {
  const type = scheme.type;
  if (type === 'apiKey') {
    const place = scheme.in;
    const name = scheme.name;
    if (typeof place !== 'string' || !API_KEY_PLACES.has(place)) return undefined;
    if (typeof name !== 'string' || name.trim() === '') return undefined;
    return { kind: place as 'header' | 'query' | 'cookie', name };
  }
  if (type === 'http') {
    const kind = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : '';
    if (kind === 'bearer') return { kind: 'authorization', scheme: 'Bearer' };
    if (kind === 'basic') return { kind: 'authorization', scheme: 'Basic' };
    return undefined;
  }
  if (type === 'oauth2' || type === 'openIdConnect') {
    return { kind: 'authorization', scheme: 'Bearer' };
  }
  return undefined;
}

/**
 * The placement for an operation. Refuses with `combined-security` when every alternative needs
 * several schemes at once, else `unknown-security` when none can be applied.
 */
export function selectCredentialPlacement(
  requirements: unknown,
  schemes: unknown,
  expander: RefExpander,
): CredentialPlacement {
  if (requirements === undefined) return { kind: 'none' };
  if (!Array.isArray(requirements))
    refuse('invalid-operation', 'declares security that is not a list');
  if (requirements.length === 0) return { kind: 'none' };
  let combined = false;
  for (const requirement of requirements) {
    if (!isRecord(requirement)) continue;
    const names = Object.keys(requirement);
    if (names.length === 0) return { kind: 'none' };
    if (names.length > 1) {
      combined = true;
      continue;
    }
    const declared = isRecord(schemes) ? schemes[names[0] as string] : undefined;
    const scheme = expander.resolveObject(declared);
    const placement = scheme === undefined ? undefined : placementOf(scheme);
    if (placement !== undefined) return placement;
  }
  return combined
    ? refuse('combined-security', 'requires several security schemes at once')
    : refuse('unknown-security', 'offers no security scheme this library can apply');
}
