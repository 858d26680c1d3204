import { nonBlankLines, type SourceLine } from './json-records.js';
import { LineSplitter, MAX_LINE_BYTES, RecordReadError } from './lines.js';

/**
 * The cues of a WebVTT or SubRip caption file, told apart by content, streamed a cue at a time
 * so memory stays flat however long the file. A malformed cue is yielded with its line and what
 * was expected there, so a caller reports it like any other invalid record; what ends the read
 * (not a caption file, UTF-16, nothing in it, a line over the limit) is a RecordReadError.
 */

/** A cue: the line of its timing line, its times from the start of the media, its text without markup, the speaker its WebVTT voice tags name when they name one. */
export interface Cue {
  line: number;
  startMs: number;
  endMs: number;
  text: string;
  speaker?: string;
}

/**
 * A malformed cue: the line of the problem, what was expected, and the cue's lines as in the file
 * (its timing line, or the line read as one, and its text), joined with "\n", held to the 10 MB a
 * cue's text may have.
 */
interface MalformedCue {
  line: number;
  problem: string;
  raw: string;
}

/** A cue or a malformed one, told apart by `'problem' in record`. */
export type CaptionRecord = Cue | MalformedCue;

interface Format {
  timestamp: RegExp;
  example: string;
  /** What the line before a timing line is called in this format. */
  identifier: string;
  /** The first line of a block that holds no cue (comments, styles, regions). */
  skippedBlock?: RegExp;
  cleanText(lines: readonly string[]): { text: string; speaker?: string };
}

const WEBVTT: Format = {
  timestamp: /^(?:(\d+):)?([0-5]\d):([0-5]\d)\.(\d{3})$/,
  example: '00:00:01.000 --> 00:00:04.000',
  identifier: 'cue identifier',
  skippedBlock: /^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/,
  cleanText: webvttText,
};

const SUBRIP: Format = {
  // Real files drop the hours' leading zero, shorten the milliseconds and use WebVTT's `.`.
  timestamp: /^(\d+):([0-5]\d):([0-5]\d)[,.](\d{1,3})$/,
  example: '00:00:01,000 --> 00:00:04,000',
  identifier: 'cue number',
  cleanText: subripText,
};

const WEBVTT_HEADER = /^WEBVTT(?:[ \t].*)?$/;
const CUE_NUMBER = /^\d+$/;
/**
 * The longest cue time, in hours (over 11 years): anything longer is a typo, and --start plus it
 * could pass the last date a timestamp can hold.
 */
const MAX_HOURS = 99_999;
const NOT_UTF8 = "the cue's text is not UTF-8: convert the file, e.g. iconv -f latin1 -t utf-8";
const NO_TEXT = 'the cue has no text, expected a line of text after its timing line';
// A cue's text is held until its blank line: a file whose blank lines are lost must not fill memory.
const CUE_TOO_LONG = `the cue's text is longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB, expected a blank line after each cue`;

/** The cues of a caption file read from its bytes, in file order. */
export async function* readCaptions(chunks: AsyncIterable<Buffer>): AsyncGenerator<CaptionRecord> {
  let any = false;
  for await (const record of cueRecords(chunks)) {
    any = true;
    yield record;
  }
  if (!any) throw new RecordReadError(undefined, 'holds no cues, expected at least one cue after the WEBVTT header');
}

async function* cueRecords(chunks: AsyncIterable<Buffer>): AsyncGenerator<CaptionRecord> {
  const lines = new LineSplitter();
  const cues = new CueReader();
  let records: CaptionRecord[] = [];
  const take = nonBlankLines((line) => {
    for (const record of cues.take(line)) records.push(record);
  });
  try {
    for await (const chunk of notUtf16(chunks)) {
      lines.push(chunk, take);
      yield* records;
      records = [];
    }
    lines.end(take);
  } catch (error) {
    // The cues a chunk completed before a line over the limit still come out, ahead of the error.
    yield* records;
    throw error;
  }
  yield* records;
  yield* cues.end();
}

const UTF16_BOMS = [Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];

/** The chunks, once their first two bytes are known not to be a UTF-16 byte order mark. */
async function* notUtf16(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of chunks) {
    if (head === undefined) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < 2) continue;
    if (UTF16_BOMS.some((bom) => head!.subarray(0, 2).equals(bom))) {
      throw new RecordReadError(undefined, 'is UTF-16 text, expected UTF-8: convert it first, e.g. iconv -f utf-16 -t utf-8');
    }
    yield head;
    head = undefined;
  }
  if (head !== undefined && head.length > 0) yield head;
}

interface OpenCue {
  line: number;
  /** The timing line as in the file. */
  timing: string;
  startMs: number;
  endMs: number;
  lines: string[];
  chars: number;
  /** The first line of its text that is not UTF-8. */
  notUtf8Line?: number;
}

type State =
  | { kind: 'start' }
  /** The first line was a number: SubRip when a timing line follows at once. */
  | { kind: 'subrip-number'; number: SourceLine }
  | { kind: 'header' }
  /** Lines up to the next blank line are ignored: a comment, a style, the rest of a malformed cue. */
  | { kind: 'skip' }
  | { kind: 'block' }
  /** A line without `-->` opening a block; one that starts with a time is more likely a bad timing line. */
  | { kind: 'identifier'; line: number; text: string; startsWithTime: boolean }
  | { kind: 'text'; cue: OpenCue }
  /** A malformed cue: its lines are kept (up to the cap) until its blank line, then it is reported. */
  | { kind: 'malformed'; line: number; problem: string; lines: string[]; chars: number };

const SKIP: State = { kind: 'skip' };

/**
 * Cue records from numbered non-blank lines, a line at a time. nonBlankLines gives out no
 * blank line, so a gap in the line numbers is what ends a block.
 */
class CueReader {
  private format: Format | undefined;
  private state: State = { kind: 'start' };
  private lastLine = 0;

  *take(source: SourceLine): Generator<CaptionRecord> {
    const afterBlank = source.line > this.lastLine + 1;
    this.lastLine = source.line;
    if (this.format === undefined) {
      yield* this.detect(source, afterBlank);
      return;
    }
    if (afterBlank) yield* this.closeBlock(this.format);
    yield* this.next(source, this.format);
  }

  *end(): Generator<CaptionRecord> {
    const state = this.state;
    if (state.kind === 'subrip-number') throw notCaptions(state.number.line);
    if (this.format === undefined) throw new RecordReadError(undefined, 'is empty, expected a WebVTT or SubRip caption file');
    yield* this.closeBlock(this.format);
  }

  private *detect(source: SourceLine, afterBlank: boolean): Generator<CaptionRecord> {
    const state = this.state;
    if (state.kind === 'subrip-number') {
      if (afterBlank || timestampsOf(source.text, SUBRIP) === undefined) throw notCaptions(state.number.line);
      this.format = SUBRIP;
      yield* this.openCue(source, SUBRIP);
    } else if (timestampsOf(source.text, SUBRIP) !== undefined) {
      // SubRip without cue numbers: each block opens with its timing line.
      this.format = SUBRIP;
      yield* this.openCue(source, SUBRIP);
    } else if (WEBVTT_HEADER.test(source.text)) {
      this.format = WEBVTT;
      this.state = { kind: 'header' };
    } else if (CUE_NUMBER.test(source.text.trim())) {
      this.state = { kind: 'subrip-number', number: source };
    } else {
      throw notCaptions(source.line);
    }
  }

  private *next(source: SourceLine, format: Format): Generator<CaptionRecord> {
    const state = this.state;
    switch (state.kind) {
      case 'header':
        // A cue right after the header, without the blank line the spec asks for.
        if (source.text.includes('-->')) yield* this.openCue(source, format);
        return;
      case 'block':
        if (format.skippedBlock?.test(source.text)) this.state = SKIP;
        else if (source.text.includes('-->')) yield* this.openCue(source, format);
        else this.state = { kind: 'identifier', line: source.line, text: source.text, startsWithTime: STARTS_WITH_TIME.test(source.text) };
        return;
      case 'identifier':
        if (source.text.includes('-->') || !state.startsWithTime) {
          yield* this.openCue(source, format);
        } else {
          this.state = malformed(state.line, timingExpected(format), [state.text, source.text]);
        }
        return;
      case 'text':
        yield* this.addText(state.cue, source, format);
        return;
      case 'malformed':
        keepLine(state, source.text);
        return;
    }
  }

  private *openCue(source: SourceLine, format: Format): Generator<CaptionRecord> {
    const timing = parseTiming(source.text, format);
    if ('problem' in timing) {
      this.state = malformed(source.line, timing.problem, [source.text]);
    } else {
      this.state = { kind: 'text', cue: { line: source.line, timing: source.text, ...timing, lines: [], chars: 0 } };
    }
  }

  private *addText(cue: OpenCue, source: SourceLine, format: Format): Generator<CaptionRecord> {
    if (!source.text.includes('-->')) {
      if (source.notUtf8) cue.notUtf8Line ??= source.line;
      cue.lines.push(source.text);
      cue.chars += source.text.length;
      if (cue.chars > MAX_LINE_BYTES) this.state = malformed(cue.line, CUE_TOO_LONG, [cue.timing, ...cue.lines]);
      return;
    }
    // A timing line in cue text: the blank line before the next cue is missing, and a number just above is that cue's.
    const last = cue.lines.at(-1);
    if (last !== undefined && CUE_NUMBER.test(last.trim())) cue.lines.pop();
    yield* this.closeBlock(format);
    yield* this.openCue(source, format);
  }

  private *closeBlock(format: Format): Generator<CaptionRecord> {
    const state = this.state;
    this.state = { kind: 'block' };
    if (state.kind === 'identifier') {
      const problem = state.startsWithTime ? timingExpected(format) : `${timingExpected(format)} after the ${format.identifier}`;
      yield { line: state.line, problem, raw: state.text };
    } else if (state.kind === 'text') {
      yield finishCue(state.cue, format);
    } else if (state.kind === 'malformed') {
      yield { line: state.line, problem: state.problem, raw: state.lines.join('\n') };
    }
  }
}

type Malformed = Extract<State, { kind: 'malformed' }>;

/** A malformed cue's state, with its lines so far: as many as fit in the cap. */
function malformed(line: number, problem: string, lines: readonly string[]): Malformed {
  const state: Malformed = { kind: 'malformed', line, problem, lines: [], chars: 0 };
  for (const text of lines) keepLine(state, text);
  return state;
}

/** Keeps a line of a malformed cue while the lines kept fit in the cap; later ones are read and dropped. */
function keepLine(state: Malformed, text: string): void {
  if (state.chars + text.length > MAX_LINE_BYTES) {
    state.chars = Infinity;
    return;
  }
  state.lines.push(text);
  state.chars += text.length;
}

const notCaptions = (line: number) =>
  new RecordReadError(
    line,
    'is not a caption file: expected WEBVTT on the first line (WebVTT), or a timing line like 00:00:01,000 --> 00:00:04,000, alone or after a cue number (SubRip)',
  );

const timingExpected = (format: Format) => `expected a timing line like ${format.example}`;

const STARTS_WITH_TIME = /^\s*\d+:\d/;

function timestampsOf(text: string, format: Format): { start: string; end: string; startMs: number; endMs: number } | undefined {
  const arrow = text.indexOf('-->');
  if (arrow === -1) return undefined;
  const start = text.slice(0, arrow).trim();
  // Cue settings (WebVTT) and coordinates (SubRip) follow the end time.
  const end = text.slice(arrow + 3).trim().split(/[ \t]/)[0]!;
  const startMs = toMs(start, format.timestamp);
  const endMs = toMs(end, format.timestamp);
  return startMs === undefined || endMs === undefined ? undefined : { start, end, startMs, endMs };
}

function parseTiming(text: string, format: Format): { startMs: number; endMs: number } | { problem: string } {
  const timestamps = timestampsOf(text, format);
  if (timestamps === undefined) return { problem: timingExpected(format) };
  const { start, end, startMs, endMs } = timestamps;
  if (endMs < startMs) return { problem: `the end time ${end} is before the start time ${start}` };
  return { startMs, endMs };
}

function toMs(timestamp: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(timestamp);
  if (match === null) return undefined;
  const [, hours, minutes, seconds, fraction] = match as unknown as [string, string | undefined, string, string, string];
  if (Number(hours ?? 0) > MAX_HOURS) return undefined;
  return ((Number(hours ?? 0) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(fraction.padEnd(3, '0'));
}

function finishCue(cue: OpenCue, format: Format): CaptionRecord {
  const raw = () => [cue.timing, ...cue.lines].join('\n');
  if (cue.notUtf8Line !== undefined) return { line: cue.notUtf8Line, problem: NOT_UTF8, raw: raw() };
  const { text, speaker } = format.cleanText(cue.lines);
  if (text === '') return { line: cue.line, problem: NO_TEXT, raw: raw() };
  const { line, startMs, endMs } = cue;
  return speaker === undefined ? { line, startMs, endMs, text } : { line, startMs, endMs, text, speaker };
}

const textLines = (lines: readonly string[], strip: (line: string) => string) =>
  lines.map((line) => strip(line).trim()).filter((line) => line !== '');

const VOICES = /<v(?:\.[^\s>]*)?[ \t]([^>]*)>/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f' };

// Entities are decoded after the tags are gone, so an escaped `&lt;b&gt;` stays text.
const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|apos|nbsp|lrm|rlm);/g, (_, name: string) => ENTITIES[name]!);

function webvttText(lines: readonly string[]): { text: string; speaker?: string } {
  const text = decodeEntities(textLines(lines, (line) => line.replace(/<[^>]*>/g, '')).join('\n'));
  const speakers = new Set(lines.flatMap((line) => [...line.matchAll(VOICES)].map((voice) => decodeEntities(voice[1]!.trim())).filter((name) => name)));
  // A cue two voices speak is no one speaker's.
  const [speaker] = speakers;
  return speaker === undefined || speakers.size > 1 ? { text } : { text, speaker };
}

// Only SubRip's own tags: a `<` in its plain text is text ("I <3 you").
const SUBRIP_TAG = /<\/?(?:b|i|u|s|font)\b[^>]*>|\{\\[^}]*\}/gi;

function subripText(lines: readonly string[]): { text: string } {
  return { text: textLines(lines, (line) => line.replace(SUBRIP_TAG, '')).join('\n') };
}
