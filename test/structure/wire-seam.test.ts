/**
 * A closed world of errors (decision 0035), pinned in the source: errors from the network can
 * only reach a caller through the wire's one seam (`src/wire/errors/wire-failure.ts`). Only the files
 * listed here import undici or Node's client sockets, hold a dispatcher's `request`, or read a body
 * chunk by chunk, each with its reason; each exit of the wire (the request, the body readers, the
 * SSE reader, the download's request and body) sends what it catches through the seam; and no
 * file of the wire or the machines rethrows a caught error as it came. A planted stray of
 * each kind is named.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Files that may import undici itself, each with its reason. */
const UNDICI_IMPORTERS: Readonly<Record<string, string>> = {
  'src/wire/http/undici-lazy.ts':
    'the one load, on the first request, between the snapshot and the restore (decisions 0029, 0048)',
};

/** Files that may import `src/wire/http/undici-lazy.ts` (undici's loader), each with its reason. */
const AGENT_HOLDERS: Readonly<Record<string, string>> = {
  'src/wire/http/http-client.ts': 'the shared pool and requestOn, behind fetchWithoutRedirects',
  'src/wire/http/dispatchers.ts': "a connection's own dispatcher, used only through sendOn",
  'src/wire/download/download-fetch.ts': "the download's agents, behind downloadFailure",
  'src/wire/index.ts': 'the Dispatcher type, re-exported (no value)',
};

/** Files that may import Node's sockets or HTTP modules, each with its reason. */
const NODE_NET_IMPORTERS: Readonly<Record<string, string>> = {
  'src/wire/download/address-policy.ts': 'isIPv4 and isIPv6, pure',
  'src/cli/web-relay.ts': 'the demo servers relay (server side, types only)',
  'src/cli/demo-servers.ts': "the demo's embedded servers (server side)",
  'src/cli/demo-search-step.ts': "the catalog-search demo's embedded GitHub stand-in (server side)",
};

/** The raw I/O helpers and the files that may name them, each with its reason. */
const RAW_IO: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  requestOn: {
    'src/wire/http/http-client.ts': 'defines it; sendOnDispatcher, behind fetchWithoutRedirects',
    'src/wire/download/download-fetch.ts': 'each hop, behind downloadFailure',
  },
  sendWithUndici: {
    'src/wire/http/http-client.ts': 'defines it',
    'src/wire/http/fetch-guarded.ts': 'the default sender of fetchWithoutRedirects',
  },
  sendOn: {
    'src/wire/http/http-client.ts': 'defines it',
    'src/wire/http/dispatchers.ts':
      'connectionSend: a sender that only fetchWithoutRedirects calls',
  },
  loadUndici: {
    'src/wire/http/undici-lazy.ts': 'defines it',
    'src/wire/http/http-client.ts': 'makes the shared pool on the first request',
    'src/wire/http/dispatchers.ts': "makes a connection's own dispatcher on its first request",
    'src/wire/download/download-fetch.ts': "makes a download's agents, behind downloadFailure",
  },
  forEachChunk: {
    'src/wire/read/abortable-read.ts': 'defines it',
    'src/wire/read/bounded-body.ts': 'consumeBounded, through the seam',
  },
  openChunks: {
    'src/wire/read/abortable-read.ts': 'defines it',
    'src/wire/read/sse-reader.ts': 'readSseBatches, through the seam',
    'src/operations/file-boundary.ts': "writes a download's body, already typed by the wire",
  },
  readChunk: {
    'src/wire/read/abortable-read.ts': 'defines it',
    'src/wire/read/sse-reader.ts': 'readSseBatches, through the seam',
    'src/operations/file-boundary.ts': "writes a download's body, already typed by the wire",
  },
};

/** Each exit of the wire and the seam it must send what it catches through. */
const EXITS: readonly (readonly [file: string, name: string, seam: string])[] = [
  ['src/wire/http/fetch-guarded.ts', 'fetchWithoutRedirects', 'wireFailure'],
  ['src/wire/read/bounded-body.ts', 'consumeBounded', 'wireFailure'],
  ['src/wire/read/sse-reader.ts', 'readSseBatches', 'wireFailure'],
  ['src/wire/download/download-fetch.ts', 'fetchForDownload', 'downloadFailure'],
  ['src/wire/download/download-fetch.ts', 'TypedDownloadBody', 'downloadFailure'],
];

/** Where a caught error must not be rethrown as it came: the wire and the machines (their actors). */
function isRethrowChecked(file: string): boolean {
  return file.startsWith('src/wire/') || file.startsWith('src/machines/');
}

type Sources = Readonly<Record<string, string>>;

function readSources(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(ROOT, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from|import|require)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] ?? '');
}

/** The text of the top-level function or class `name`: from its head to the first `}` at column 0. */
function declarationOf(text: string, name: string): string | undefined {
  const head = new RegExp(`^(?:export )?(?:async )?(?:function\\*? |class )${name}\\b`, 'm');
  const match = head.exec(text);
  if (match === null) return undefined;
  const rest = text.slice(match.index);
  const end = rest.search(/^}/m);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

/** Every `catch (x) { … }` block: the binding and the block's text up to its closing brace. */
function catchBlocks(text: string): { binding: string; body: string }[] {
  const blocks: { binding: string; body: string }[] = [];
  for (const match of text.matchAll(/catch \((\w+)\) \{/g)) {
    let depth = 1;
    let index = (match.index ?? 0) + match[0].length;
    const start = index;
    while (depth > 0 && index < text.length) {
      if (text[index] === '{') depth++;
      else if (text[index] === '}') depth--;
      index++;
    }
    blocks.push({ binding: match[1] ?? '', body: text.slice(start, index - 1) });
  }
  return blocks;
}

/** Every way `sources` lets an error reach a caller around the seam, named; empty when none. */
function seamViolations(sources: Sources): string[] {
  const violations: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    for (const specifier of importsOf(text)) {
      if (/^undici(\/|$)/.test(specifier) && !(file in UNDICI_IMPORTERS)) {
        violations.push(`${file}: imports ${specifier}`);
      }
      if (/(^|\/)undici-lazy\.js$/.test(specifier) && !(file in AGENT_HOLDERS)) {
        violations.push(`${file}: imports the wire's undici module`);
      }
      if (/^node:(http|https|net|tls|http2)$/.test(specifier) && !(file in NODE_NET_IMPORTERS)) {
        violations.push(`${file}: imports ${specifier}`);
      }
    }
    for (const [name, allowed] of Object.entries(RAW_IO)) {
      if (new RegExp(`\\b${name}\\b`).test(text) && !(file in allowed)) {
        violations.push(`${file}: names ${name}`);
      }
    }
    if (/\b(?:dispatcher|agent|pool)\.(?:request|dispatch|stream|pipeline)\(/i.test(text)) {
      if (file !== 'src/wire/http/http-client.ts') violations.push(`${file}: calls a dispatcher`);
    }
    if (/(?:globalThis\.|(?:await|return|=)\s+)fetch\(/.test(text)) {
      violations.push(`${file}: calls the global fetch`);
    }
    if (isRethrowChecked(file)) {
      for (const { binding, body } of catchBlocks(text)) {
        for (const line of body.split('\n')) {
          const raw = new RegExp(`(?:throw|\\?\\?|reject\\()\\s*${binding}\\b(?!\\.)`).test(line);
          // An error of ours, recognised as such, may be rethrown as it is.
          const ours = new RegExp(`\\.isInstance\\(${binding}\\)`).test(line);
          if (raw && !ours) violations.push(`${file}: rethrows a caught ${binding} as it came`);
        }
      }
    }
  }
  for (const [file, name, seam] of EXITS) {
    const declaration = declarationOf(sources[file] ?? '', name);
    if (declaration === undefined) violations.push(`${file}: ${name} is missing`);
    else if (!new RegExp(`catch \\(\\w+\\) \\{[^]*\\b${seam}\\(`).test(declaration)) {
      violations.push(`${file}: ${name} does not send what it catches through ${seam}`);
    }
  }
  return violations;
}

describe('the wire seam', () => {
  const sources = readSources(join(ROOT, 'src'));

  it('sees the files it names', () => {
    const named = [
      ...Object.keys(UNDICI_IMPORTERS),
      ...Object.keys(AGENT_HOLDERS),
      ...Object.keys(NODE_NET_IMPORTERS),
      ...Object.values(RAW_IO).flatMap((files) => Object.keys(files)),
      ...EXITS.map(([file]) => file),
    ];
    expect(named.filter((file) => !(file in sources))).toEqual([]);
  });

  it('is the only way an error from the network reaches a caller', () => {
    expect(seamViolations(sources)).toEqual([]);
  });

  it('names a planted stray of every kind', () => {
    const planted: Record<string, string> = {
      ...sources,
      'src/machines/stray/stray.actors.ts': [
        "import { request } from 'undici';",
        "import { requestOn } from '../../wire/http-client.js';",
        "import { loadUndici } from '../../wire/http/undici-lazy.js';",
        "import { connect } from 'node:net';",
        'async function stray(agent) {',
        '  try {',
        '    return await agent.request({ path: "/" });',
        '  } catch (error) {',
        '    throw error;',
        '  }',
        '}',
        'const answer = await fetch(url);',
      ].join('\n'),
      'src/wire/read/sse-reader.ts': (sources['src/wire/read/sse-reader.ts'] ?? '').replace(
        'throw wireFailure(',
        'throw (',
      ),
    };
    expect(seamViolations(planted).sort()).toEqual(
      [
        'src/wire/read/sse-reader.ts: readSseBatches does not send what it catches through wireFailure',
        'src/machines/stray/stray.actors.ts: imports undici',
        "src/machines/stray/stray.actors.ts: imports the wire's undici module",
        'src/machines/stray/stray.actors.ts: imports node:net',
        'src/machines/stray/stray.actors.ts: names requestOn',
        'src/machines/stray/stray.actors.ts: names loadUndici',
        'src/machines/stray/stray.actors.ts: calls a dispatcher',
        'src/machines/stray/stray.actors.ts: calls the global fetch',
        'src/machines/stray/stray.actors.ts: rethrows a caught error as it came',
      ].sort(),
    );
  });
});
