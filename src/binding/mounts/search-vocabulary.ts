/**
 * The words people use for API things, mapped onto the words APIs use for them (decision 0045):
 * a user files a "ticket" where the API has an "issue", removes a "credential" where it deletes a
 * "key", and reruns a "build" where it reruns a "workflow". A query word adds the API words it
 * stands for, at a lower weight than the words actually written. General API and developer-tool
 * vocabulary only: no entry names an operation, and none was written for one query (the query
 * set's README says how that was kept). Pure: no I/O.
 */
import { stemWord } from './search-text.js';
import { EVERYDAY_PHRASES, EVERYDAY_VOCABULARY } from './search-vocabulary-everyday.js';
import { FAMILY_PHRASES, FAMILY_VOCABULARY } from './search-vocabulary-families.js';
import { GOAL_PHRASES, GOAL_VOCABULARY } from './search-vocabulary-goals.js';
import { IDIOM_PHRASES, IDIOM_VOCABULARY } from './search-vocabulary-idioms.js';
import { WORD_PHRASES, WORD_VOCABULARY } from './search-vocabulary-words.js';

/** The weight of a word the vocabulary adds, against 1 for a word of the query. */
export const ADDED_TERM_WEIGHT = 0.75;

/**
 * Each row: the words people say, then the API words they stand for. The rows of
 * {@link TABLES_WRITTEN_APART} follow these.
 */
const VOCABULARY: readonly (readonly [words: string, means: string])[] = [
  // Things.
  ['ticket bug defect incident', 'issue'],
  ['pr prs mr patch', 'pull request'],
  ['change changes', 'commit pull'],
  ['repo repos project codebase', 'repository'],
  ['org orgs company organisation business', 'organization'],
  ['ci build builds pipeline pipelines', 'workflow run action job check'],
  ['job jobs', 'workflow job run'],
  ['credential credentials password', 'key secret token'],
  ['snippet snippets paste pastes', 'gist'],
  ['person people somebody someone account colleague teammate human', 'user member'],
  ['profile me myself whoami', 'authenticated user'],
  ['version versions', 'release tag'],
  ['changelog', 'release notes'],
  ['zip tarball tar', 'archive download'],
  ['backup export', 'archive migration export'],
  ['output console', 'log'],
  ['traffic visit visits visitor visitors', 'view clone referrer'],
  ['favorite favourite bookmark', 'star'],
  ['vulnerability vulnerabilities cve exploit', 'advisory alert vulnerability dependabot security'],
  ['dependency dependencies library libraries npm', 'dependabot dependency package'],
  ['production rollout', 'deployment environment'],
  ['website site', 'pages site'],
  ['binary binaries file download', 'asset artifact'],
  ['env environment variable', 'variable secret environment'],
  ['callback callbacks', 'webhook hook'],
  ['signature signed verified', 'signing gpg key'],
  ['mail', 'email'],
  ['quota throttle throttled', 'rate limit'],
  ['docs documentation', 'readme pages'],
  ['author authors write wrote', 'contributor commit'],
  ['popular popularity', 'stargazer star view'],
  ['inbox', 'notification'],
  ['bot integration', 'app installation'],
  ['scanner scanning leak leaked', 'secret scanning alert'],
  ['history', 'commit event'],
  ['emoji', 'reaction'],
  ['deadline', 'milestone'],
  ['tag tags', 'label'],
  ['contractor employee staff', 'member collaborator'],
  ['upgrade upgrades outdated', 'dependabot dependency'],
  ['warning warnings', 'alert'],
  ['main master trunk', 'branch'],
  ['hidden confidential sensitive', 'secret'],
  ['cost costs spend minutes billing', 'usage billing'],
  ['archive archived retire retired readonly', 'archive update'],
  ['install installed', 'installation'],
  // Acts.
  ['delete remove wipe revoke drop destroy erase purge rid', 'delete remove'],
  ['create add new make open file register post start', 'create add'],
  ['update edit modify rename set configure change replace', 'update set'],
  ['list show browse see', 'list'],
  ['find search look lookup locate', 'search'],
  ['subscribe watch pinged ping notify', 'watch watcher subscription notification'],
  ['cancel stop abort halt kill', 'cancel stop'],
  ['retry rerun again restart', 're run rerun'],
  ['trigger dispatch manually', 'dispatch workflow'],
  ['land merge', 'merge'],
  ['diff compare between', 'compare'],
  ['read fetch open', 'content get'],
  ['copy clone duplicate', 'fork'],
  ['invite join onboard hire', 'invitation member membership'],
  ['kick ban expel', 'block remove member'],
  ['mute silence unsubscribe ignore', 'subscription ignore'],
  ['dismiss', 'dismiss alert'],
  ['approve approval approved', 'review approve'],
  ['reply answer respond', 'reply comment'],
  ['transfer move migrate', 'transfer migration'],
  ['protect require enforce', 'protection rule ruleset'],
  ['access permission permissions allow', 'permission collaborator access'],
  ['sign', 'signing gpg'],
  ['react', 'reaction'],
  ['pin pinned', 'pin'],
  ['assign', 'assignee'],
  ['publish ship release', 'release deployment'],
  ['deploy', 'deployment'],
  ['track', 'milestone project'],
  ['login logged signed', 'authenticated'],
  ['contribute contributed', 'contributor'],
  ['close closed reopen reopened', 'state update'],
  ['harass harasser abuse abusive spam spammer troll', 'block interaction restriction'],
  ['stuck hang hung', 'cancel'],
  ['abandon abandoned unused obsolete', 'delete archive'],
  ['whenever', 'webhook event'],
  ['leave left', 'remove'],
  ['finish finished success successful succeeded fail failed failure', 'status state'],
  ['give grant', 'add permission'],
  ['thumb thumbs upvote celebrate', 'reaction'],
  ['rebuild redeploy', 'build re run'],
  ['toxic heated hostile', 'block interaction restriction lock'],
  ['feed', 'event notification'],
  ['path paths', 'file'],
  ['function functions method symbol definition defined', 'code'],
  ['favorite favourite bookmark bookmarked', 'stargazer'],
];

/**
 * Words that ask for a list ("which", "who", "what … exist"): function words, dropped from the
 * terms, yet a question over a kind of thing is most often answered by listing it. A query that
 * holds one gains the concept "list" at {@link ADDED_TERM_WEIGHT}.
 */
const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'which',
  'what',
  'who',
  'all',
  'every',
  'exist',
]);

/** Whether `words` (a query's words, as `splitWords` gives them) ask for a list. */
export function asksForList(words: readonly string[]): boolean {
  return words.some((word) => QUESTION_WORDS.has(word));
}

/**
 * Phrases whose words mean something else apart ("look over" is a review, not a search; "back
 * up" is one act), each read as one word before the query is split.
 */
const PHRASES: readonly (readonly [phrase: string, word: string])[] = [
  ['look over', 'review'],
  ['look at', 'review'],
  ['back up', 'backup'],
  ['logged in', 'login'],
  ['log in', 'login'],
  ['signed in', 'login'],
  ['sign in', 'login'],
  ['get rid of', 'delete'],
  ['clean up', 'delete'],
  ['kick off', 'trigger'],
  ['set up', 'create'],
  ['false positive', 'dismiss'],
  ['made it into', 'merged'],
  ['make it into', 'merged'],
  ['up to date', 'update'],
  ['sign off', 'approve'],
  ['shut down', 'stop'],
  ['turn on', 'enable'],
  ['switch on', 'enable'],
  ['turn off', 'disable'],
  ['switch off', 'disable'],
  ['read-only', 'archived'],
  ['read only', 'archived'],
  ['development environment', 'codespace'],
  ['lines of development', 'branch'],
  ["what's new", 'feed'],
];

/** A table written apart from the first (decision 0045): its rows and its phrases. */
export interface VocabularyTable {
  /** What it holds, as the decision names it. */
  readonly name: string;
  /** Each row: the words people say, then the API words they stand for. */
  readonly rows: readonly (readonly [words: string, means: string])[];
  /** Each phrase, and the one word it is also read as. */
  readonly phrases: readonly (readonly [phrase: string, word: string])[];
}

/** The tables written apart, read after the first in this order. */
export const TABLES_WRITTEN_APART: readonly VocabularyTable[] = [
  { name: 'families', rows: FAMILY_VOCABULARY, phrases: FAMILY_PHRASES },
  { name: 'goals', rows: GOAL_VOCABULARY, phrases: GOAL_PHRASES },
  { name: 'everyday', rows: EVERYDAY_VOCABULARY, phrases: EVERYDAY_PHRASES },
  { name: 'idioms', rows: IDIOM_VOCABULARY, phrases: IDIOM_PHRASES },
  { name: 'words', rows: WORD_VOCABULARY, phrases: WORD_PHRASES },
];

/** The vocabulary as a query reads it. */
interface ReadVocabulary {
  /**
   * Each phrase's pattern and what it becomes (`$&` is the phrase as written). The first table's
   * phrases replace their words, which mislead apart ("look over" is no search). The phrases of
   * the tables written apart add their word and keep the phrase's own words: a catalog whose API
   * says "current user" (Spotify's) must still be found by those words, where GitHub's says
   * "authenticated user" (decision 0045, "The phrases keep their words").
   */
  readonly phrases: readonly PhrasePattern[];
  /** Each stemmed query word to the stemmed API words it adds. */
  readonly added: ReadonlyMap<string, readonly string[]>;
}

/** A phrase as a query reads it. */
interface PhrasePattern {
  /** Its first word: a query without it (in any case) cannot hold the phrase. */
  readonly first: string;
  readonly pattern: RegExp;
  readonly replacement: string;
}

function phrasePattern(phrase: string, replacement: string): PhrasePattern {
  const words = phrase.split(' ');
  return {
    first: words[0] ?? phrase,
    pattern: new RegExp(`\\b${words.join('\\s+')}\\b`, 'gi'),
    replacement,
  };
}

function stemsOf(words: string): string[] {
  return words.split(' ').map((word) => stemWord(word));
}

function readVocabulary(): ReadVocabulary {
  const phrases = [
    ...PHRASES.map(([phrase, word]) => phrasePattern(phrase, ` ${word} `)),
    ...TABLES_WRITTEN_APART.flatMap((table) =>
      table.phrases.map(([phrase, word]) => phrasePattern(phrase, ` ${word} $& `)),
    ),
  ];
  const added = new Map<string, string[]>();
  for (const [words, means] of [...VOCABULARY, ...TABLES_WRITTEN_APART.flatMap((t) => t.rows)]) {
    const targets = stemsOf(means);
    for (const word of stemsOf(words)) {
      const list = added.get(word) ?? [];
      for (const target of targets) {
        if (target !== word && !list.includes(target)) list.push(target);
      }
      added.set(word, list);
    }
  }
  return { phrases, added };
}

let read: ReadVocabulary | undefined;

/** Read on the first query, not at import: a host that never searches never pays for it. */
function vocabulary(): ReadVocabulary {
  read ??= readVocabulary();
  return read;
}

/**
 * `query` with each phrase of the first table replaced by the one word it means, and each phrase
 * of the tables written apart followed by its word.
 */
export function rewritePhrases(query: string): string {
  let rewritten = query;
  // Most of the ~640 phrases share no word with a query: a substring test skips their patterns.
  let lower = query.toLowerCase();
  for (const { first, pattern, replacement } of vocabulary().phrases) {
    if (!lower.includes(first)) continue;
    const next = rewritten.replace(pattern, replacement);
    if (next !== rewritten) {
      rewritten = next;
      lower = next.toLowerCase();
    }
  }
  return rewritten;
}

/** The API words `term` (a stem) stands for, if the vocabulary knows it. */
export function vocabularyOf(term: string): readonly string[] {
  return vocabulary().added.get(term) ?? [];
}
