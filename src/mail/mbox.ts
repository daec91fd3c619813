/**
 * Streaming mbox splitter (Google Takeout's `.mbox`, Thunderbird, mutt...). It reads a byte stream
 * chunk by chunk and yields one message at a time, so a 1 GB file never sits in memory: at most one
 * message (capped) plus one chunk.
 *
 * Format rules it follows:
 * - A message starts after a "From " separator line (the postmark, e.g. "From 1789@xxx Mon Jan 01
 *   10:00:00 +0000 2024") at the very start of the file or right after a blank line. A "From " line
 *   inside a paragraph is content, as some writers leave it unquoted.
 * - mboxrd quoting: a line that is one or more ">" followed by "From " loses one ">" (">From " →
 *   "From ", ">>From " → ">From "). Writers of the older mboxo format quote only "From " itself,
 *   which this reads the same way.
 * - Line endings are kept as they are (LF or CRLF); the blank line that precedes each separator
 *   belongs to the format and is removed from the message.
 * - A message larger than `maxMessageBytes` is not kept: it is yielded with `truncated: true` and
 *   only its first bytes (so the caller can count it without holding it).
 */

export type MboxMessage = {
  /** The message as it was stored (unquoted), or its first bytes when truncated. */
  bytes: Uint8Array;
  truncated: boolean;
  /** 0-based position in the file. */
  index: number;
};

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** An unfinished line shorter than this waits for the next chunk; a longer one is read as it is. */
const CARRY_MAX = 1024;

const LF = 0x0a;
const CR = 0x0d;
const GT = 0x3e;
const FROM_ = [0x46, 0x72, 0x6f, 0x6d, 0x20]; // "From "

function startsWithFrom(buf: Uint8Array, i: number, end: number): boolean {
  if (end - i < 5) return false;
  for (let k = 0; k < 5; k++) if (buf[i + k] !== FROM_[k]) return false;
  return true;
}

/**
 * A separator line: "From " + sender + a date with a time ("From 1789@xxx Mon Jan 01 10:00:00 +0000
 * 2024", "From - Thu Nov 21 06:19:00 2024"), so that an unquoted "From here on..." paragraph that
 * a careless writer left in a body does not split the message.
 */
function isPostmark(buf: Uint8Array, i: number, end: number): boolean {
  if (!startsWithFrom(buf, i, end)) return false;
  const line = latin1.decode(buf.subarray(i, Math.min(end, i + CARRY_MAX)));
  return POSTMARK.test(line);
}
const latin1 = new TextDecoder("latin1");
const POSTMARK = /^From \S+\s.*\d{1,2}:\d{2}/;

/** ">From ", ">>From ", ... at i. */
function isQuotedFrom(buf: Uint8Array, i: number, end: number): boolean {
  let j = i;
  while (j < end && buf[j] === GT) j++;
  return j > i && startsWithFrom(buf, j, end);
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!.slice();
  const out = new Uint8Array(size);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Drops the one blank line that the format puts before the next separator. */
function trimSeparatorBlank(b: Uint8Array): Uint8Array {
  const n = b.length;
  if (n >= 4 && b[n - 4] === CR && b[n - 3] === LF && b[n - 2] === CR && b[n - 1] === LF) {
    return b.subarray(0, n - 2);
  }
  if (n >= 2 && b[n - 2] === LF && b[n - 1] === LF) return b.subarray(0, n - 1);
  if (n >= 3 && b[n - 3] === LF && b[n - 2] === CR && b[n - 1] === LF) {
    return b.subarray(0, n - 2);
  }
  return b;
}

async function* chunksOf(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (source instanceof ReadableStream) {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value && value.length > 0) yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    for await (const c of source) if (c.length > 0) yield c;
  }
}

/** Splits an mbox stream into messages (see the file comment). */
export async function* splitMbox(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  opts: { maxMessageBytes?: number } = {},
): AsyncGenerator<MboxMessage> {
  const max = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  let parts: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  let started = false; // a separator was seen: bytes now belong to a message
  let prevBlank = true; // the start of the file counts as "after a blank line"
  let index = 0;
  /** The data begins in the middle of a line (a long line was cut at a chunk end). */
  let midLine = false;
  /** ...and that line is a separator, whose rest is dropped. */
  let midSeparator = false;
  // Assigned inside scanChunk: typed by a cast so that the loop below does not narrow it to null.
  let carry = null as Uint8Array | null;

  const append = (b: Uint8Array) => {
    if (!started || b.length === 0) return;
    if (truncated) return;
    if (size + b.length > max) {
      truncated = true;
      const room = max - size;
      if (room > 0) {
        parts.push(b.subarray(0, room));
        size += room;
      }
      return;
    }
    parts.push(b);
    size += b.length;
  };
  const finish = (): MboxMessage => {
    const bytes = truncated ? concat(parts, size) : trimSeparatorBlank(concat(parts, size));
    const msg = { bytes, truncated, index: index++ };
    parts = [];
    size = 0;
    truncated = false;
    return msg;
  };

  const scanChunk = function* (data: Uint8Array, final: boolean): Generator<MboxMessage> {
    let pos = 0;
    let seg = 0; // start of the run of bytes not yet appended
    if (midLine) {
      const nl = data.indexOf(LF);
      const end = nl < 0 ? data.length : nl + 1;
      if (midSeparator) seg = end;
      if (nl < 0) {
        if (!midSeparator) append(data);
        return;
      }
      pos = end;
      midLine = false;
      midSeparator = false;
      prevBlank = false;
    }
    while (pos < data.length) {
      const nl = data.indexOf(LF, pos);
      const complete = nl >= 0;
      if (!complete && !final && data.length - pos <= CARRY_MAX) {
        append(data.subarray(seg, pos));
        carry = data.slice(pos);
        return;
      }
      const end = complete ? nl + 1 : data.length;
      const len = end - pos;
      const blank = complete && (len === 1 || (len === 2 && data[pos] === CR));
      const first = data[pos];
      if (first === 0x46 && prevBlank && isPostmark(data, pos, end)) {
        append(data.subarray(seg, pos));
        if (started) yield finish();
        started = true;
        seg = end;
        if (!complete) {
          midLine = true;
          midSeparator = true;
        }
      } else if (first === GT && isQuotedFrom(data, pos, end)) {
        append(data.subarray(seg, pos));
        seg = pos + 1;
        if (!complete) midLine = true;
      } else if (!complete) {
        midLine = true;
      }
      prevBlank = blank;
      pos = end;
    }
    append(data.subarray(seg, data.length));
  };

  for await (const chunk of chunksOf(source)) {
    let data = chunk;
    if (carry) {
      data = new Uint8Array(carry.length + chunk.length);
      data.set(carry, 0);
      data.set(chunk, carry.length);
      carry = null;
    }
    yield* scanChunk(data, false);
  }
  if (carry) {
    const last: Uint8Array = carry;
    carry = null;
    yield* scanChunk(last, true);
  }
  if (started) yield finish();
}

/** What a file looks like from its first bytes: an mbox, one message (.eml), empty, or neither. */
export function sniffMailFile(head: Uint8Array): "mbox" | "eml" | "empty" | "unknown" {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3; // UTF-8 BOM
  while (
    i < head.length &&
    (head[i] === LF || head[i] === CR || head[i] === 0x20 || head[i] === 9)
  ) {
    i++;
  }
  if (i >= head.length) return "empty";
  if (startsWithFrom(head, i, head.length)) return "mbox";
  // A message starts with a header field: a name of printable characters but ":", then ":".
  let j = i;
  while (j < head.length && j - i < 200) {
    const c = head[j]!;
    if (c === 0x3a) return j > i ? "eml" : "unknown";
    if (c < 0x21 || c > 0x7e) return "unknown";
    j++;
  }
  return "unknown";
}
