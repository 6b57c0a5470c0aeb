/**
 * A line diff for the freshness messages of generated files (`visualizations/`, the model walks'
 * edge sets): what a reader reviews before regenerating. Pure: no I/O.
 */

/** How many unchanged lines a hunk shows around its changes. */
const CONTEXT_LINES = 1;

/** One line of the edit: kept, removed or added, with its line number in `before` (from 1). */
interface Op {
  readonly mark: ' ' | '-' | '+';
  readonly line: string;
  readonly at: number;
}

/**
 * The lines of `after` against `before`: `- ` for a line only before, `+ ` for one only after,
 * with one unchanged line of context on each side of a run of changes, and `@@ line N` (N counted
 * in `before`, from 1) where each run starts. Empty when they are equal. Equal prefixes and
 * suffixes are set aside first, so a small change to a large file costs little.
 */
export function lineDiff(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  if (start === endA && start === endB) return [];
  const ops: Op[] = [
    ...a.slice(0, start).map((line, index): Op => ({ mark: ' ', line, at: index + 1 })),
    ...middleOps(a.slice(start, endA), b.slice(start, endB), start),
    ...a.slice(endA).map((line, index): Op => ({ mark: ' ', line, at: endA + index + 1 })),
  ];
  const shown = new Set<number>();
  ops.forEach((op, index) => {
    if (op.mark === ' ') return;
    for (let k = index - CONTEXT_LINES; k <= index + CONTEXT_LINES; k += 1) shown.add(k);
  });
  const out: string[] = [];
  ops.forEach((op, index) => {
    if (!shown.has(index)) return;
    if (index === 0 || !shown.has(index - 1)) out.push(`@@ line ${op.at}`);
    out.push(`${op.mark} ${op.line}`);
  });
  return out;
}

/** The edit of the differing middle, by the longest common subsequence of its lines. */
function middleOps(a: readonly string[], b: readonly string[], offset: number): Op[] {
  const width = b.length + 1;
  // lcs[i * width + j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ mark: ' ', line: a[i] ?? '', at: offset + i + 1 });
      i += 1;
      j += 1;
    } else if (
      i < a.length &&
      (j === b.length || (lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0))
    ) {
      ops.push({ mark: '-', line: a[i] ?? '', at: offset + i + 1 });
      i += 1;
    } else {
      ops.push({ mark: '+', line: b[j] ?? '', at: offset + i + 1 });
      j += 1;
    }
  }
  return ops;
}
