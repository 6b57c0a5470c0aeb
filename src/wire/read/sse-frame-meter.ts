/**
 * Measures SSE frames on raw bytes, before any decoding, so a frame that grows past its ceiling
 * is refused while it is still partial. Pure: no I/O.
 *
 * A frame ends at a blank line; lines end with LF, CR or CRLF, in any mix (WHATWG HTML
 * §9.2.6 "Interpreting an event stream"). A frame's size counts every byte from the end of the
 * previous frame through its closing blank line, comments and terminators included.
 */

const CR = 0x0d;
const LF = 0x0a;
const LF_LF = Buffer.from([LF, LF]);
const LF_CR_LF = Buffer.from([LF, CR, LF]);

/** The blank-line terminators a frame can end with, each with its length. */
const TERMINATORS = [
  { bytes: LF_LF, length: 2 },
  { bytes: LF_CR_LF, length: 3 },
] as const;

/**
 * The index just after a blank-line terminator in the chunk that leaves no ambiguity behind
 * (`\n\n`, or the `\n\r\n` of `\r\n\r\n`): there a frame has just ended and the meter's state is
 * known, so the byte walk may start there. -1 when the chunk has none. It is the last such end of
 * the kind `first` (the terminator the stream used last), else of the other: any unambiguous end
 * is a correct start, and looking for the stream's own kind first spares a stream of one framing a
 * whole-chunk scan for the framing it never uses.
 */
function lastFrameEnd(chunk: Uint8Array, first: 0 | 1): { end: number; found: 0 | 1 } {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  for (const kind of first === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
    const terminator = TERMINATORS[kind];
    const at = bytes.lastIndexOf(terminator.bytes);
    if (at !== -1) return { end: at + terminator.length, found: kind };
  }
  return { end: -1, found: first };
}

/** Stateful meter over one stream; feed it every chunk in order. */
export interface SseFrameMeter {
  /**
   * Counts the chunk. Returns the index of the first byte that takes the current frame past the
   * ceiling, or -1 when every frame so far is within it.
   */
  measure(chunk: Uint8Array): number;
}

/** A meter that refuses any frame longer than `maxFrameBytes` raw bytes. */
export function createSseFrameMeter(maxFrameBytes: number): SseFrameMeter {
  let frameBytes = 0;
  let atLineStart = true;
  let lastWasCR = false;
  // A CR that ends a frame may be the first half of a CRLF: the LF still belongs to that frame.
  let frameEndsAfterPossibleLF = false;
  // The terminator the stream ended its last frame with; looked for first in the next chunk.
  let framing: 0 | 1 = 0;

  return {
    measure(chunk: Uint8Array): number {
      let start = 0;
      // Fast path: when the whole chunk fits in the current frame's allowance no frame in it can
      // overflow, so only the bytes after its last frame end need the byte-by-byte walk.
      if (frameBytes + chunk.length <= maxFrameBytes) {
        const { end, found } = lastFrameEnd(chunk, framing);
        framing = found;
        if (end !== -1) {
          start = end;
          frameBytes = 0;
          atLineStart = true;
          lastWasCR = false;
          frameEndsAfterPossibleLF = false;
        }
      }
      for (let index = start; index < chunk.length; index++) {
        const byte = chunk[index] as number;
        if (frameEndsAfterPossibleLF) {
          frameEndsAfterPossibleLF = false;
          if (byte === LF && lastWasCR) {
            lastWasCR = false;
            if (++frameBytes > maxFrameBytes) return index;
            frameBytes = 0;
            continue;
          }
          frameBytes = 0;
        }
        if (++frameBytes > maxFrameBytes) return index;
        if (byte === CR) {
          if (atLineStart) frameEndsAfterPossibleLF = true;
          atLineStart = true;
          lastWasCR = true;
        } else if (byte === LF) {
          if (lastWasCR) {
            lastWasCR = false;
          } else {
            if (atLineStart) frameBytes = 0;
            atLineStart = true;
          }
        } else {
          atLineStart = false;
          lastWasCR = false;
        }
      }
      return -1;
    },
  };
}
