/**
 * Identical-line duplicates, read as text, as the `duplicates` tool reads a tree (its identical
 * rows; rows alike only in shape are not counted here). Two places sharing a window of six
 * consecutive normalized lines are a pair. Normalized: blank lines, comments, lone punctuation and
 * lines that start with `import` are passed over (the names of a multi-line import still count),
 * and white space is folded. A window standing in more than eight places is too common to be one
 * piece of code and is left out, as the tool leaves it out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** How many shared normalized lines make a pair. */
export const DUPLICATE_WINDOW_LINES = 6;
/** A window standing in more places than this is boilerplate, not a duplicate. */
export const MAX_PLACES_OF_A_WINDOW = 8;

/** One source file, by the name a report gives it. */
export interface SourceText {
  readonly path: string;
  readonly text: string;
}

/** One side of a pair: a file and the first and last original line of its longest shared run. */
export interface DuplicatePlace {
  readonly path: string;
  readonly from: number;
  readonly to: number;
}

/** Two places sharing at least one window; `runs` counts the separate shared runs of the two. */
export interface DuplicatePair {
  readonly a: DuplicatePlace;
  readonly b: DuplicatePlace;
  readonly runs: number;
}

interface CodeLine {
  readonly text: string;
  readonly line: number;
}

const LONE_PUNCTUATION = /^[\s{}()[\];,.:?!<>=|&*+-]*$/;

/** The lines that count, each folded, with its 1-based line number in the file. */
export function codeLines(text: string): CodeLine[] {
  const lines: CodeLine[] = [];
  let inBlockComment = false;
  text.split(/\r?\n/).forEach((raw, index) => {
    const folded = raw.trim().replace(/\s+/g, ' ');
    if (inBlockComment) {
      inBlockComment = !folded.includes('*/');
      return;
    }
    if (folded.startsWith('/*')) {
      inBlockComment = !folded.includes('*/');
      return;
    }
    if (folded.startsWith('//') || folded.startsWith('import ') || LONE_PUNCTUATION.test(folded)) {
      return;
    }
    lines.push({ text: folded, line: index + 1 });
  });
  return lines;
}

interface Place {
  readonly file: number;
  readonly start: number;
}

/** Every identical-line pair of places among `sources`, most shared lines first. */
export function findDuplicatePairs(
  sources: readonly SourceText[],
  window = DUPLICATE_WINDOW_LINES,
): DuplicatePair[] {
  const files = sources.map((source) => codeLines(source.text));
  const places = new Map<string, Place[]>();
  files.forEach((lines, file) => {
    for (let start = 0; start + window <= lines.length; start += 1) {
      const key = lines
        .slice(start, start + window)
        .map((line) => line.text)
        .join('\n');
      const list = places.get(key) ?? [];
      list.push({ file, start });
      places.set(key, list);
    }
  });
  // Matching window starts per pair of files (a file may pair with itself).
  const matches = new Map<string, Set<string>>();
  for (const list of places.values()) {
    if (list.length < 2 || list.length > MAX_PLACES_OF_A_WINDOW) continue;
    for (let i = 0; i < list.length; i += 1) {
      for (let j = i + 1; j < list.length; j += 1) {
        const [first, second] = orderPlaces(list[i] as Place, list[j] as Place);
        const pairKey = `${first.file}:${second.file}`;
        const set = matches.get(pairKey) ?? new Set<string>();
        set.add(`${first.start}:${second.start}`);
        matches.set(pairKey, set);
      }
    }
  }
  const pairs: { pair: DuplicatePair; shared: number }[] = [];
  for (const [pairKey, set] of matches) {
    const [fileA, fileB] = pairKey.split(':').map(Number) as [number, number];
    const runs = mergeRuns(set, window);
    const longest = runs.reduce((best, run) => (run.length > best.length ? run : best));
    const linesA = files[fileA] as CodeLine[];
    const linesB = files[fileB] as CodeLine[];
    const place = (path: string, lines: CodeLine[], start: number): DuplicatePlace => ({
      path,
      from: (lines[start] as CodeLine).line,
      to: (lines[start + longest.length - 1] as CodeLine).line,
    });
    pairs.push({
      pair: {
        a: place((sources[fileA] as SourceText).path, linesA, longest.a),
        b: place((sources[fileB] as SourceText).path, linesB, longest.b),
        runs: runs.length,
      },
      shared: longest.length,
    });
  }
  return pairs
    .sort((x, y) => y.shared - x.shared || describePair(x.pair).localeCompare(describePair(y.pair)))
    .map((entry) => entry.pair);
}

function orderPlaces(x: Place, y: Place): [Place, Place] {
  return x.file < y.file || (x.file === y.file && x.start < y.start) ? [x, y] : [y, x];
}

interface Run {
  readonly a: number;
  readonly b: number;
  readonly length: number;
}

/** Overlapping windows of one pair merged into runs: a run continues while both sides step by one. */
function mergeRuns(starts: ReadonlySet<string>, window: number): Run[] {
  const runs: Run[] = [];
  for (const key of starts) {
    const [a, b] = key.split(':').map(Number) as [number, number];
    if (starts.has(`${a - 1}:${b - 1}`)) continue;
    let length = window;
    while (starts.has(`${a + length - window + 1}:${b + length - window + 1}`)) length += 1;
    runs.push({ a, b, length });
  }
  return runs;
}

/** A pair as the `duplicates` tool prints it: `a.ts:10-24 ~ b.ts:40-54`. */
export function describePair(pair: DuplicatePair): string {
  const side = (place: DuplicatePlace) => `${place.path}:${place.from}-${place.to}`;
  return `${side(pair.a)} ~ ${side(pair.b)}${pair.runs > 1 ? ` (+${pair.runs - 1} more runs)` : ''}`;
}

/** The TypeScript files below `root`, named relative to it. */
export function readSources(root: string): SourceText[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => ({
      path: relative(root, join(root, file)),
      text: readFileSync(join(root, file), 'utf8'),
    }));
}
