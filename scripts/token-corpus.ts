/**
 * Writes the token-estimator corpus (`test/fixtures/token-corpus/*.txt`): the kinds of text a
 * tool answers with (JSON compact and pretty, records with hashes and URLs, Markdown, code,
 * declarations, logs, CJK prose), taken from files installed in node_modules (their licences are
 * listed in the folder's README) or generated here from a fixed seed. No network; the same
 * node_modules give the same files. Run: `npx tsx scripts/token-corpus.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mulberry32 } from '../test/support/seeded-random.js';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'test/fixtures/token-corpus');
/** Each sample is cut to about this many characters, at a line end. */
const SAMPLE_CHARS = 24_000;

function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** The longest run of whole lines of `text` not longer than `limit` characters. */
function linesUpTo(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = text.lastIndexOf('\n', limit);
  return text.slice(0, end > 0 ? end + 1 : limit);
}

/** As many leading records as keep the serialized array within `limit` characters. */
function recordsUpTo<T>(records: readonly T[], limit: number, indent?: number): T[] {
  const kept: T[] = [];
  for (const record of records) {
    if (JSON.stringify([...kept, record], null, indent).length > limit) break;
    kept.push(record);
  }
  return kept;
}

function lockRecords(): object[] {
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { version?: string; integrity?: string; license?: string }>;
  };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.integrity)
    .map(([path, entry]) => {
      const name = path.replace(/^.*node_modules\//, '');
      const file = `${name.replace(/^@[^/]+\//, '')}-${entry.version}.tgz`;
      // A placeholder host: the tarball URL's shape without naming a real registry.
      return {
        name,
        version: entry.version,
        resolved: `https://registry.example.org/${name}/-/${file}`,
        integrity: entry.integrity,
        license: entry.license,
      };
    });
}

const MANIFEST_PACKAGES = [
  'undici',
  'xstate',
  'zod',
  'fast-check',
  'vitest',
  'ai',
  'eventsource-parser',
  'mermaid',
  'jsdom',
  'tsx',
  'typescript',
  'vite',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/core',
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@statelyai/inspect',
  '@biomejs/biome',
  '@viz-js/viz',
  'gpt-tokenizer',
];

function manifests(): object[] {
  return MANIFEST_PACKAGES.map((name) => {
    const manifest = JSON.parse(read(`node_modules/${name}/package.json`)) as Record<
      string,
      unknown
    >;
    // Hashes removed: this sample is the plain-metadata kind (the lock records carry hashes).
    const { gitHead: _gitHead, _integrity, _resolved, ...rest } = manifest;
    return rest;
  });
}

const WORDS =
  'the request fails when the server closes the stream before the endpoint event arrives and the client retries with a fresh session while the cache keeps stale entries for an hour after deploy'.split(
    ' ',
  );

function issues(): object[] {
  const random = mulberry32(46);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const hex = (length: number) =>
    Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 12) }, () => pick(WORDS));
    const first = words[0] ?? 'the';
    return `${first[0]?.toUpperCase()}${first.slice(1)} ${words.slice(1).join(' ')}.`;
  };
  const logins = ['octocat', 'hubot', 'monalisa', 'defunkt', 'mojombo', 'pjhyett'];
  const labels = ['bug', 'enhancement', 'transport', 'needs-repro', 'good first issue'];
  return Array.from({ length: 60 }, (_, index) => {
    const number = 1200 + index;
    const login = pick(logins);
    return {
      url: `https://api.github.com/repos/octo/site/issues/${number}`,
      html_url: `https://github.com/octo/site/issues/${number}`,
      id: 2_000_000_000 + Math.floor(random() * 99_999_999),
      node_id: `I_kwDO${hex(12)}`,
      number,
      title: sentence().slice(0, 60),
      user: {
        login,
        id: Math.floor(random() * 9_999_999),
        avatar_url: `https://avatars.githubusercontent.com/u/${Math.floor(random() * 999_999)}?v=4`,
      },
      labels: [pick(labels), pick(labels)].map((name) => ({ name, color: hex(6) })),
      state: random() < 0.7 ? 'open' : 'closed',
      comments: Math.floor(random() * 40),
      created_at: `2026-${String(1 + Math.floor(random() * 11)).padStart(2, '0')}-1${Math.floor(random() * 9)}T0${Math.floor(random() * 9)}:1${Math.floor(random() * 9)}:00Z`,
      head_sha: hex(40),
      body: Array.from({ length: 2 + Math.floor(random() * 4) }, sentence).join(' '),
    };
  });
}

function logLines(): string {
  const random = mulberry32(7);
  const paths = ['/v1/repos', '/v1/repos/octo/site/pulls', '/v1/search/code', '/healthz'];
  const lines: string[] = [];
  for (let index = 0; lines.join('\n').length < SAMPLE_CHARS; index += 1) {
    const ms = Math.floor(random() * 900);
    const status = random() < 0.9 ? 200 : 503;
    const path = paths[Math.floor(random() * paths.length)];
    lines.push(
      `2026-12-04T10:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}.${String(ms).padStart(3, '0')}Z ${status === 200 ? 'INFO ' : 'WARN '} [http] GET ${path}?page=${index % 7} ${status} ${ms}ms req_id=${Math.floor(random() * 2 ** 32).toString(16)}`,
    );
  }
  return `${lines.slice(0, -1).join('\n')}\n`;
}

const SAMPLES: Record<string, () => string> = {
  'lock-records.compact': () => JSON.stringify(recordsUpTo(lockRecords(), SAMPLE_CHARS)),
  'lock-records.pretty': () => JSON.stringify(recordsUpTo(lockRecords(), SAMPLE_CHARS, 2), null, 2),
  'manifests.compact': () => JSON.stringify(recordsUpTo(manifests(), SAMPLE_CHARS)),
  'manifests.pretty': () => JSON.stringify(recordsUpTo(manifests(), SAMPLE_CHARS, 2), null, 2),
  'issues.compact': () => JSON.stringify(recordsUpTo(issues(), SAMPLE_CHARS)),
  'issues.pretty': () => JSON.stringify(recordsUpTo(issues(), SAMPLE_CHARS, 2), null, 2),
  'undici-dispatcher.md': () =>
    linesUpTo(read('node_modules/undici/docs/docs/api/Dispatcher.md'), SAMPLE_CHARS),
  'undici-client-h1.js': () =>
    linesUpTo(read('node_modules/undici/lib/dispatcher/client-h1.js'), SAMPLE_CHARS),
  'xstate-types.d.ts': () =>
    linesUpTo(read('node_modules/xstate/dist/declarations/src/types.d.ts'), SAMPLE_CHARS),
  'mermaid-readme.zh-cn.md': () =>
    linesUpTo(read('node_modules/mermaid/README.zh-CN.md'), SAMPLE_CHARS),
  'http-log': logLines,
};

mkdirSync(OUT, { recursive: true });
for (const [name, make] of Object.entries(SAMPLES)) {
  const text = make();
  writeFileSync(join(OUT, `${name}.txt`), text);
  console.log(`${name}.txt ${text.length} chars`);
}
