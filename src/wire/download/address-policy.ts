/**
 * Which hosts a download may reach (ADR 0081's guarded fetch): the class of an IPv4 or IPv6
 * address, the special-use names, and the numeric spellings a URL parser rewrites. Pure: no I/O,
 * no DNS; the fetch resolves names and asks these rules about every answer.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The class of an address; everything but `public` is refused unless private hosts are allowed. */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'shared'
  | 'multicast'
  | 'documentation'
  | 'reserved';

/** Why a host is refused: an address class, a special-use name, or a non-canonical number. */
export type HostRefusal = Exclude<AddressClass, 'public'> | 'local-name' | 'non-canonical-number';

type V4Range = readonly [base: string, prefix: number, kind: AddressClass];

// IANA IPv4 special-purpose registry (RFC 6890 and successors), most specific first where nested.
const V4_RANGES: readonly V4Range[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function v4Number(address: string): number {
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

function classifyV4Number(value: number): AddressClass {
  for (const [base, prefix, kind] of V4_RANGES) {
    const size = 2 ** (32 - prefix);
    const start = v4Number(base);
    if (value >= start && value < start + size) return kind;
  }
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (embedded dotted quads and `::` expanded). */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const value = v4Number(tail);
    text = `${text.slice(0, lastColon + 1)}${Math.floor(value / 65536).toString(16)}:${(value % 65536).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const zeros = new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

function embeddedV4(high: number, low: number): number {
  return high * 65536 + low;
}

function classifyV6(groups: readonly number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0)
    return g7 === 0 ? 'unspecified' : g7 === 1 ? 'loopback' : 'reserved';
  // IPv4-mapped (::ffff:a.b.c.d) reaches the embedded IPv4 host: judge that host.
  if (upperZero && g5 === 0xffff) return classifyV4Number(embeddedV4(g6, g7));
  // IPv4-compatible (::a.b.c.d) is deprecated (RFC 4291): never a public destination.
  if (upperZero && g5 === 0) {
    const inner = classifyV4Number(embeddedV4(g6, g7));
    return inner === 'public' ? 'reserved' : inner;
  }
  // NAT64 well-known prefix 64:ff9b::/96 translates to the embedded IPv4 host.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return classifyV4Number(embeddedV4(g6, g7));
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'reserved';
  // 6to4 (2002::/16) carries an IPv4 host in groups 1 and 2.
  if (g0 === 0x2002) return classifyV4Number(embeddedV4(g1, g2));
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation';
  if (g0 === 0x2001 && g1 < 0x0200) return 'reserved';
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation';
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'reserved';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  // Only global unicast (2000::/3) is public; the rest of the space is unassigned or special.
  return (g0 & 0xe000) === 0x2000 ? 'public' : 'reserved';
}

/** The class of an IP address (IPv4, or IPv6 with or without brackets); `undefined` if not one. */
export function classifyAddress(address: string): AddressClass | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return classifyV4Number(v4Number(bare));
  if (isIPv6(bare)) return classifyV6(ipv6Groups(bare));
  return undefined;
}

/** True for a special-use name: `localhost`, `*.localhost`, `*.local`, `*.internal`. */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === 'local' ||
    name.endsWith('.local') ||
    name === 'internal' ||
    name.endsWith('.internal')
  );
}

/** The host exactly as written in an absolute URL's text (before the parser canonicalises it). */
export function writtenHost(urlText: string): string | undefined {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]{2}(?:[^@/?#\\]*@)?(\[[^\]]*\]|[^:/?#\\]*)/.exec(
    urlText.trim(),
  );
  return match?.[1];
}

/**
 * Why `url` may not be fetched, judging its host only (names are resolved elsewhere), or
 * `undefined`. `written` is the host as it appeared in the URL text: a parser turns `0x7f.1`,
 * `2130706433` or `0177.0.0.1` into `127.0.0.1`, and such a spelling is refused whatever it
 * denotes, because it exists to slip past string checks.
 */
export function hostRefusal(url: URL, written: string | undefined): HostRefusal | undefined {
  const hostname = url.hostname;
  const addressClass = classifyAddress(hostname);
  if (addressClass !== undefined && isIPv4(hostname) && written !== undefined) {
    const spelled = decodeURIComponentSafe(written).toLowerCase().replace(/\.$/, '');
    if (spelled !== hostname) return 'non-canonical-number';
  }
  if (addressClass !== undefined) return addressClass === 'public' ? undefined : addressClass;
  if (hostname === '' || isLocalName(hostname)) return 'local-name';
  return undefined;
}

/** Why a resolved address may not be connected to, or `undefined` for a public one. */
export function addressRefusal(address: string): HostRefusal | undefined {
  const addressClass = classifyAddress(address) ?? 'reserved';
  return addressClass === 'public' ? undefined : addressClass;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
