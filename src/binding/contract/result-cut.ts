/**
 * How one text is cut to a number of characters, keeping its head and its tail (decision 0043).
 * Pure: no I/O. Every piece kept is a substring of the original, in order, so a cut invents
 * nothing: prose is cut at a line end, else at a space; JSON at record boundaries (array elements,
 * object members), so what remains still parses.
 */

/** Which ends of a text a cut keeps. */
export type CutEnds = 'both' | 'head' | 'tail';

/** A text cut to its allowance: the pieces kept, in order, and what they are, in words. */
export interface TextCut {
  /** The pieces kept: one for a JSON cut (it parses) or a one-ended cut, else the head and tail. */
  readonly pieces: readonly string[];
  /** What was kept, for the marker: "the first 120 and the last 40 of 50,000 lines". */
  readonly kept: string;
}

/** The share of an allowance the head gets when both ends are kept (3:1, as crush's PR does). */
export const HEAD_SHARE = 0.75;

/** The longest key the marker names in a path (a key is data: it may be any length). */
const MAX_KEY_LABEL_CHARS = 40;

/** `n` with thousands separators, as the marker prints every count. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** True when `text` is a JSON array or object (what a cut at record boundaries applies to). */
export function isJsonContainerText(text: string): boolean {
  const first = text.trimStart()[0];
  if (first !== '[' && first !== '{') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function countLines(text: string): number {
  let lines = text.length > 0 && !text.endsWith('\n') ? 1 : 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    lines += 1;
  }
  return lines;
}

function isSurrogateTail(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Where a head of at most `chars` characters ends: after a line end, else a space, else hard. */
function headEnd(text: string, chars: number): { end: number; atLine: boolean } {
  if (chars <= 0) return { end: 0, atLine: true };
  const line = text.lastIndexOf('\n', chars - 1);
  if (line >= 0 && line + 1 >= chars / 2) return { end: line + 1, atLine: true };
  const space = text.lastIndexOf(' ', chars - 1);
  if (space >= chars / 2) return { end: space + 1, atLine: false };
  return { end: isSurrogateTail(text, chars) ? chars - 1 : chars, atLine: false };
}

/** Where a tail of at most `chars` characters starts: after a line end, else a space, else hard. */
function tailStart(text: string, chars: number): { start: number; atLine: boolean } {
  const from = text.length - chars;
  if (chars <= 0) return { start: text.length, atLine: true };
  const line = text.indexOf('\n', from - 1);
  if (line >= 0 && line + 1 <= from + chars / 2) return { start: line + 1, atLine: true };
  const space = text.indexOf(' ', from);
  if (space >= 0 && space + 1 <= from + chars / 2) return { start: space + 1, atLine: false };
  return { start: isSurrogateTail(text, from) ? from + 1 : from, atLine: false };
}

function splitChars(chars: number, ends: CutEnds): [number, number] {
  if (ends === 'head') return [chars, 0];
  if (ends === 'tail') return [0, chars];
  const head = Math.floor(chars * HEAD_SHARE);
  return [head, chars - head];
}

/** Prose cut to at most `chars` characters, at line ends when it can. */
export function cutProse(text: string, chars: number, ends: CutEnds): TextCut {
  const [headChars, tailChars] = splitChars(chars, ends);
  const head = headEnd(text, headChars);
  const tail = tailStart(text, tailChars);
  const start = Math.max(tail.start, head.end);
  const pieces = [text.slice(0, head.end), text.slice(start)];
  const atLine = head.atLine && tail.atLine;
  const measure = atLine ? countLines : (piece: string) => piece.length;
  const unit = atLine ? 'lines' : 'characters';
  const [first, last] = pieces.map(measure) as [number, number];
  const of = `of ${formatCount(measure(text))} ${unit}`;
  const kept =
    ends === 'head'
      ? `the first ${formatCount(first)} ${of}`
      : ends === 'tail'
        ? `the last ${formatCount(last)} ${of}`
        : `the first ${formatCount(first)} and the last ${formatCount(last)} ${of}`;
  return { pieces: pieces.filter((piece) => piece.length > 0), kept };
}

/** One record of a JSON container: its span, and its value's span (a member's value). */
interface JsonRecord {
  readonly start: number;
  readonly end: number;
  readonly valueStart: number;
}

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\n' || char === '\r' || char === '\t';
}

/** The records of the container that opens at `open` in valid JSON, and where it closes. */
function scanRecords(text: string, open: number): { records: JsonRecord[]; close: number } {
  const records: JsonRecord[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  let valueStart = -1;
  let last = -1;
  for (let index = open + 1; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      last = index;
      continue;
    }
    if (isSpace(char)) continue;
    if (depth === 0 && (char === ',' || char === ']' || char === '}')) {
      if (start >= 0) records.push({ start, end: last + 1, valueStart });
      if (char !== ',') return { records, close: index };
      start = -1;
      continue;
    }
    if (start < 0) {
      start = index;
      valueStart = index;
    }
    if (depth === 0 && char === ':') valueStart = -1;
    else if (valueStart < 0) valueStart = index;
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') depth += 1;
    else if (char === ']' || char === '}') depth -= 1;
    last = index;
  }
  return { records, close: text.length - 1 };
}

function describeRecords(
  kind: 'elements' | 'members',
  head: number,
  tail: number,
  total: number,
  where: string,
): string {
  const range = (from: number, to: number) =>
    from === to ? formatCount(from) : `${formatCount(from)}–${formatCount(to)}`;
  const ranges = [
    head > 0 ? range(1, head) : '',
    tail > 0 ? range(total - tail + 1, total) : '',
  ].filter((text) => text !== '');
  const keptPart = ranges.length > 0 ? `${kind} ${ranges.join(' and ')}` : `no ${kind}`;
  return `${keptPart} of the ${formatCount(total)} ${where}`;
}

/** A member's key as the marker names it: a long key is shortened, so the marker stays small. */
function keyLabel(key: string): string {
  return key.length <= MAX_KEY_LABEL_CHARS ? key : `${key.slice(0, MAX_KEY_LABEL_CHARS - 1)}…`;
}

/**
 * The container opening at `open`, cut to about `chars` characters. A record holding most of the
 * text (the `items` of `{ "total": 9, "items": [...] }`) is cut inside, its siblings kept whole;
 * otherwise whole records are kept from the ends the cut keeps.
 */
function cutContainer(
  text: string,
  open: number,
  chars: number,
  ends: CutEnds,
  path: string,
): { text: string; kept: string; starved?: boolean } {
  const { records, close } = scanRecords(text, open);
  const kind = text[open] === '[' ? 'elements' : 'members';
  const where = path === '' ? `top-level ${kind}` : `${kind} of ${path}`;
  const sizes = records.map((record) => record.end - record.start);
  const largest = sizes.indexOf(Math.max(0, ...sizes));
  const dominant = records[largest];
  const outside = close + 1 - open - (dominant ? dominant.end - dominant.valueStart : 0);
  const valueOpen = dominant ? text[dominant.valueStart] : undefined;
  if (dominant && (valueOpen === '[' || valueOpen === '{') && outside <= chars / 2) {
    const label =
      kind === 'elements'
        ? `element ${largest + 1}`
        : keyLabel(text.slice(dominant.start, dominant.valueStart).replace(/\s*:\s*$/, ''));
    const inner = cutContainer(
      text,
      dominant.valueStart,
      chars - outside,
      ends,
      path === '' ? label : `${path} > ${label}`,
    );
    const innerClose = scanRecords(text, dominant.valueStart).close;
    return {
      text:
        text.slice(open, dominant.valueStart) + inner.text + text.slice(innerClose + 1, close + 1),
      kept: inner.kept,
      ...(inner.starved === true ? { starved: true } : {}),
    };
  }
  const [headChars, tailChars] = splitChars(chars, ends);
  let head = 0;
  let used = 0;
  while (head < records.length && used + (sizes[head] ?? 0) + 2 <= headChars) {
    used += (sizes[head] ?? 0) + 2;
    head += 1;
  }
  let tail = 0;
  let tailUsed = 0;
  const tailAllowance = tailChars + (ends === 'both' ? headChars - used : 0);
  while (
    head + tail < records.length &&
    tailUsed + (sizes[records.length - 1 - tail] ?? 0) + 2 <= tailAllowance
  ) {
    tailUsed += (sizes[records.length - 1 - tail] ?? 0) + 2;
    tail += 1;
  }
  const first = records[0];
  const lastRecord = records[records.length - 1];
  if (!first || !lastRecord) return { text: text.slice(open, close + 1), kept: `no ${kind}` };
  const headRecords = records.slice(0, head);
  const tailRecords = records.slice(records.length - tail);
  const headText = head > 0 ? text.slice(first.start, headRecords[head - 1]?.end) : '';
  const tailText = tail > 0 ? text.slice(tailRecords[0]?.start, lastRecord.end) : '';
  const separator =
    head > 0 && tail > 0 ? text.slice(headRecords[head - 1]?.end, records[head]?.start) : '';
  // One string holds most of the text and alone is over the allowance (`{ "text": "<a
  // megabyte>" }`): record boundaries would keep next to nothing of what matters.
  const starved = valueOpen === '"' && (sizes[largest] ?? 0) > chars && outside <= chars / 2;
  return {
    text:
      text.slice(open, first.start) +
      headText +
      separator +
      tailText +
      text.slice(lastRecord.end, close + 1),
    kept: describeRecords(kind, head, tail, records.length, where),
    ...(starved ? { starved: true } : {}),
  };
}

/**
 * JSON text (an array or object, as `isJsonContainerText` says) cut at record boundaries; when
 * that would keep no record because one string alone is over the allowance, cut as prose instead,
 * the fragment labelled as such.
 */
export function cutJson(text: string, chars: number, ends: CutEnds): TextCut {
  const open = text.length - text.trimStart().length;
  const cut = cutContainer(text, open, chars, ends, '');
  if (cut.starved === true && chars > 0) {
    // Record boundaries would keep nothing: the text is cut as prose, and the marker says so.
    const prose = cutProse(text, chars, ends);
    return {
      pieces: prose.pieces,
      kept: `${prose.kept} of the JSON text (one string in it is over the budget, so the kept text is a fragment that does not parse)`,
    };
  }
  return { pieces: [cut.text], kept: `${cut.kept} (the kept JSON parses)` };
}
