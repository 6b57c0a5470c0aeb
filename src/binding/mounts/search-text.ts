/**
 * How catalog search reads text: words split at punctuation, `snake_case`, `kebab-case` and
 * camelCase humps, lowercased, function words dropped, and each word reduced to a light stem so
 * that "releases", "released" and "release" meet; and how many edits apart two names are, for
 * an unknown name's close matches (decision 0045). Pure: no I/O.
 */

/** Function words that carry no meaning for finding a tool. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of to for in on at by with from into onto over as and or nor but is are was were be ' +
    'been being am it its this that these those my our your his her their me us you him them i we ' +
    'he she they who whom whose which what when where why how do does did done can could should ' +
    'would will shall may might must not no any all every each some such so than then there here ' +
    'too very just about via per also only own same other else one ones via if while please want ' +
    'need needs let lets like thing things way get gets got getting'
  ).split(' '),
);

/** Words whose plural or past form the suffix rules below would mangle. */
const IRREGULAR: Readonly<Record<string, string>> = {
  people: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  data: 'data',
  metadata: 'metadata',
  status: 'status',
  statuses: 'status',
  alias: 'alias',
  aliases: 'alias',
  analysis: 'analysis',
  analyses: 'analysis',
  indices: 'index',
  ran: 'run',
  made: 'make',
  sent: 'send',
  left: 'leave',
  wrote: 'write',
  written: 'write',
  broke: 'break',
  broken: 'break',
  stolen: 'steal',
  stole: 'steal',
  gone: 'go',
  went: 'go',
  taken: 'take',
  took: 'take',
  given: 'give',
  gave: 'give',
  shown: 'show',
  saw: 'see',
  seen: 'see',
  found: 'find',
  kept: 'keep',
  lost: 'lose',
  built: 'build',
  news: 'news',
  logged: 'login',
  always: 'always',
};

const VOWEL = /[aeiouy]/;

function isConsonant(letter: string | undefined): boolean {
  return letter !== undefined && /[a-z]/.test(letter) && !VOWEL.test(letter);
}

/** `running` -> `run`, `pinned` -> `pin`: an `-ing`/`-ed` stem that doubled its last consonant. */
function undoubled(stem: string): string {
  const last = stem.at(-1);
  if (stem.length > 3 && last === stem.at(-2) && isConsonant(last) && !/[lsz]/.test(last ?? '')) {
    return stem.slice(0, -1);
  }
  return stem;
}

/**
 * A light English stem: plural and possessive `s`, `-ies`, `-es` after a sibilant, `-ing` and
 * `-ed`, then a final `e`, so that a word and its inflections share one form. Not Porter: it
 * never merges words of different meaning ("organization" and "organ" stay apart).
 */
export function stemWord(word: string): string {
  const irregular = IRREGULAR[word];
  if (irregular !== undefined) return irregular;
  let stem = word;
  if (stem.length > 4 && stem.endsWith('ies')) stem = `${stem.slice(0, -3)}y`;
  else if (stem.length > 4 && /(ss|x|ch|sh|zz)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith('s') && !/(ss|us|is)$/.test(stem)) {
    stem = stem.slice(0, -1);
  }
  if (stem.length > 5 && stem.endsWith('ing') && VOWEL.test(stem.slice(0, -3))) {
    stem = undoubled(stem.slice(0, -3));
  } else if (stem.length > 4 && stem.endsWith('ed') && VOWEL.test(stem.slice(0, -2))) {
    stem = undoubled(stem.slice(0, -2));
  }
  if (stem.length > 3 && stem.endsWith('e') && !stem.endsWith('ee')) stem = stem.slice(0, -1);
  return stem;
}

/** The words of `text`, split at anything not a letter or digit and at camelCase humps, lowercased. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Stems already worked out: a catalog's descriptions repeat the same few thousand words. */
const stems = new Map<string, string>();
/** Past this many, the memo starts over, so arbitrary queries cannot grow it without bound. */
const MAX_MEMOIZED_STEMS = 50_000;

function memoizedStem(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= MAX_MEMOIZED_STEMS) stems.clear();
    stem = stemWord(word);
    stems.set(word, stem);
  }
  return stem;
}

/** The search terms of `text`: its words without function words, each stemmed. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    if (STOP_WORDS.has(word)) continue;
    // A lone letter or digit says nothing; "v2" or "42" may (an issue number, a version).
    if (word.length < 2) continue;
    terms.push(memoizedStem(word));
  }
  return terms;
}

/** Levenshtein distance of `a` and `b`, giving up (returning `limit + 1`) past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return Math.min(previous[b.length] ?? limit + 1, limit + 1);
}
