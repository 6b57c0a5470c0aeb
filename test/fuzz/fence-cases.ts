/**
 * Generated host fences and URLs for the host-fence fuzzer, each URL built from parts whose
 * identity the generator knows: a host of its own list (written in any of its surface forms:
 * letter case, percent-encoding, IPv4 and IPv6 notations), a port (omitted, empty, the scheme's
 * default written out, with leading zeros, or another), a scheme, userinfo, and a tail that
 * names a fenced host where a naive reader would look. {@link expectedAdmission} is the oracle:
 * it never parses the URL text and never reads the fence it judges.
 */
import fc from 'fast-check';

/** The hosts of the oracle's own list; a trailing-dot name is a host of its own. */
export const HOSTS = [
  'api.example.com',
  'api.example.com.',
  'example.com',
  'evil.com',
  '127.0.0.1',
  '10.0.0.1',
  '::1',
  '2001:db8::1',
] as const;
/** A host of the oracle's list. */
export type HostId = (typeof HOSTS)[number];

/** The other ways each IP address may be written (each means the same address). */
const IP_FORMS: Readonly<Record<string, readonly string[]>> = {
  '127.0.0.1': ['127.0.0.1', '0x7f.0.0.1', '0x7f.1', '2130706433', '0177.0.0.1', '127.1'],
  '10.0.0.1': ['10.0.0.1', '0xa.0.0.1', '167772161', '10.1', '012.0.0.1'],
  '::1': ['[::1]', '[0:0:0:0:0:0:0:1]', '[::0001]', '[0::1]'],
  '2001:db8::1': ['[2001:db8::1]', '[2001:DB8:0:0:0:0:0:1]', '[2001:0db8::0001]'],
};

/**
 * A fence entry's port as the oracle reads it: `default` (none written: the default port of the
 * URL's scheme, whichever it is) or the one port written.
 */
export type PortKey = 'default' | number;

/** One fence entry of the oracle: a host and a port. */
export interface FenceEntry {
  readonly host: HostId;
  readonly port: PortKey;
}

const DEFAULT_PORT: Readonly<Record<string, number>> = { http: 80, https: 443 };

/**
 * How a connection URL's written port reads under `scheme`: omitted or empty, or the scheme's
 * default, is default (the URL names its host as a browser would).
 */
export function portKeyOf(scheme: string, written: string): PortKey {
  if (written === '' || written === ':') return 'default';
  const port = Number(written.slice(1));
  return port === DEFAULT_PORT[scheme.toLowerCase()] ? 'default' : port;
}

/** How an `allowHosts` entry's port reads: none written is default, else the port written. */
function entryPortKeyOf(written: string): PortKey {
  return written === '' || written === ':' ? 'default' : Number(written.slice(1));
}

/** The port a URL reaches: the one written, else its scheme's default. */
function effectivePort(scheme: string, written: string): number {
  return written === '' || written === ':'
    ? (DEFAULT_PORT[scheme] ?? Number.NaN)
    : Number(written.slice(1));
}

/** One way of writing `host`: mixed case and percent-encoded characters for a name. */
function hostSurface(host: HostId): fc.Arbitrary<string> {
  const forms = IP_FORMS[host];
  if (forms !== undefined) return fc.constantFrom(...forms);
  return fc
    .array(fc.constantFrom('lower', 'lower', 'upper', 'percent'), {
      minLength: host.length,
      maxLength: host.length,
    })
    .map((styles) =>
      [...host]
        .map((char, index) => {
          if (styles[index] === 'upper') return char.toUpperCase();
          if (styles[index] === 'percent') return `%${char.charCodeAt(0).toString(16)}`;
          return char;
        })
        .join(''),
    );
}

const HOST = fc.constantFrom(...HOSTS);
/** Ports an entry may name: none, others, and each scheme's default written out. */
const ENTRY_PORT = fc.constantFrom('', '', ':8443', ':3000', ':8080', ':80', ':443');

/** A fence as configured (URL and allowHosts text) and as the oracle holds it. */
export interface GeneratedFence {
  readonly connectionUrl: string;
  readonly allowHosts: readonly string[];
  readonly entries: readonly FenceEntry[];
}

const CONNECTION = fc
  .tuple(fc.constantFrom('http', 'https'), HOST, fc.constantFrom('', ':8443', ':80', ':443'))
  .chain(([scheme, host, port]) =>
    hostSurface(host).map((surface) => ({
      text: `${scheme}://${surface}${port}/mcp`,
      entry: { host, port: portKeyOf(scheme, port) },
    })),
  );
const ALLOWED = fc.tuple(HOST, ENTRY_PORT).chain(([host, port]) =>
  hostSurface(host).map((surface) => ({
    text: `${surface}${port}`,
    entry: { host, port: entryPortKeyOf(port) },
  })),
);

/** A generated fence: a connection URL and up to three allowHosts entries. */
export const FENCE: fc.Arbitrary<GeneratedFence> = fc
  .tuple(CONNECTION, fc.array(ALLOWED, { maxLength: 3 }))
  .map(([connection, allowed]) => ({
    connectionUrl: connection.text,
    allowHosts: allowed.map((entry) => entry.text),
    entries: [connection.entry, ...allowed.map((entry) => entry.entry)],
  }));

/** A generated URL: its text and the parts it was built from. */
export interface GeneratedUrl {
  readonly text: string;
  /** The scheme as written. */
  readonly schemeText: string;
  /** The scheme, lowercased. */
  readonly scheme: string;
  readonly host: HostId;
  readonly surface: string;
  readonly port: string;
  /** `true` when the text carries a user name or a password. */
  readonly userinfo: boolean;
}

const USERINFO_PRESENT = fc.constantFrom(
  { text: 'user@', userinfo: true },
  { text: 'user:pw@', userinfo: true },
  { text: ':pw@', userinfo: true },
  { text: 'api.example.com@', userinfo: true },
);
const USERINFO = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ text: '', userinfo: false }) },
  { weight: 1, arbitrary: fc.constant({ text: '@', userinfo: false }) },
  { weight: 2, arbitrary: USERINFO_PRESENT },
);

const TAIL = fc.constantFrom(
  '',
  '/',
  '/mcp',
  '/@api.example.com',
  '?next=api.example.com',
  '#@api.example.com',
  '\\@api.example.com',
);
const URL_PORT = fc.constantFrom('', '', ':', ':80', ':443', ':0443', ':8443', ':08443', ':3000');
const SCHEME = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('http', 'https', 'HTTP', 'HtTpS') },
  { weight: 1, arbitrary: fc.constantFrom('ftp', 'ws', 'wss') },
);

/**
 * A URL near `fence`: two times in three its host is one of the fence's (its port often the
 * entry's own), otherwise any host of the list.
 */
export function urlNear(fence: GeneratedFence): fc.Arbitrary<GeneratedUrl> {
  const fenced = fc.constantFrom(...fence.entries);
  const host = fc.oneof(
    { weight: 2, arbitrary: fenced.map((entry) => entry.host) },
    { weight: 1, arbitrary: HOST },
  );
  return fc
    .tuple(SCHEME, host, URL_PORT, USERINFO, TAIL, fenced, fc.boolean())
    .chain(([scheme, id, port, userinfo, tail, entry, samePort]) =>
      hostSurface(id).map((surface) => {
        const written =
          samePort && entry.host === id && typeof entry.port === 'number' ? `:${entry.port}` : port;
        return {
          text: `${scheme}://${userinfo.text}${surface}${written}${tail}`,
          schemeText: scheme,
          scheme: scheme.toLowerCase(),
          host: id,
          surface,
          port: written,
          userinfo: userinfo.userinfo,
        };
      }),
    );
}

/** Why the oracle admits or refuses a URL. */
export type Verdict =
  | 'admitted'
  | 'refused: scheme'
  | 'refused: userinfo'
  | 'refused: host'
  | 'refused: port';

/**
 * The oracle: http(s) only, no userinfo, and a fence entry with the same host (whatever its
 * surface form) that admits the port the URL reaches: an entry without a port admits its
 * scheme's default, an entry with a port admits that port whatever the scheme.
 */
export function expectedAdmission(url: GeneratedUrl, entries: readonly FenceEntry[]): Verdict {
  if (DEFAULT_PORT[url.scheme] === undefined) return 'refused: scheme';
  if (url.userinfo) return 'refused: userinfo';
  const sameHost = entries.filter((entry) => entry.host === url.host);
  if (sameHost.length === 0) return 'refused: host';
  const port = effectivePort(url.scheme, url.port);
  const admits = (entry: FenceEntry) =>
    entry.port === 'default' ? port === DEFAULT_PORT[url.scheme] : entry.port === port;
  return sameHost.some(admits) ? 'admitted' : 'refused: port';
}

/** How a URL was written, for the tally of admitted cases: which surface forms were exercised. */
export function surfaceKinds(url: GeneratedUrl): string[] {
  const kinds: string[] = [];
  if (url.surface.includes('%')) kinds.push('percent-encoded');
  if (url.surface !== url.surface.toLowerCase()) kinds.push('upper case');
  if (IP_FORMS[url.host] !== undefined && url.surface.replace(/^\[|\]$/g, '') !== url.host) {
    kinds.push('other IP notation');
  }
  if (url.port !== '' && portKeyOf(url.scheme, url.port) === 'default') {
    kinds.push('default port written');
  }
  if (url.schemeText !== url.scheme) kinds.push('scheme case');
  return kinds;
}
