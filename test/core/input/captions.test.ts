import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { readCaptions, type CaptionRecord, type Cue } from '../../../src/core/input/captions.js';
import { RecordReadError } from '../../../src/core/input/lines.js';

async function* chunksOf(...pieces: Array<string | Buffer>) {
  for (const piece of pieces) yield Buffer.from(piece);
}
async function collect(records: AsyncIterable<CaptionRecord>) {
  const out: CaptionRecord[] = [];
  for await (const record of records) out.push(record);
  return out;
}
/** The records read, a malformed cue's raw text left out (the tests of `raw` read it with readRaw). */
const read = async (...pieces: Array<string | Buffer>) =>
  (await readRaw(...pieces)).map((record) => ('problem' in record ? { line: record.line, problem: record.problem } : record));
const readRaw = (...pieces: Array<string | Buffer>) => collect(readCaptions(chunksOf(...pieces)));
const crlf = (...lines: string[]) => lines.join('\r\n');
const lf = (...lines: string[]) => lines.join('\n');
const stoppedAt = (line: number | undefined, message: string) => (error: unknown) => {
  assert.ok(error instanceof RecordReadError, String(error));
  assert.equal(error.line, line);
  assert.equal(error.message, message);
  return true;
};

const VTT_TIMING = 'expected a timing line like 00:00:01.000 --> 00:00:04.000';
const SRT_TIMING = 'expected a timing line like 00:00:01,000 --> 00:00:04,000';
const NO_TEXT = 'the cue has no text, expected a line of text after its timing line';
const NOT_CAPTIONS =
  'is not a caption file: expected WEBVTT on the first line (WebVTT), or a timing line like 00:00:01,000 --> 00:00:04,000, alone or after a cue number (SubRip)';

const webvtt = crlf(
  '\uFEFFWEBVTT - Livestream 42',
  'Kind: captions',
  'Language: en',
  '',
  '1',
  '00:00:01.000 --> 00:00:04.500',
  'Welcome back to the show.',
  '',
  'intro-2',
  '00:04.500 --> 00:07.250 align:start position:10% line:0',
  'Today we talk about  ',
  'moderation at scale.',
  '',
  '   ',
  '',
  '01:02:03.456 --> 01:02:04.000',
  'No identifier here ',
);
const webvttCues: Cue[] = [
  { line: 6, startMs: 1000, endMs: 4500, text: 'Welcome back to the show.' },
  { line: 10, startMs: 4500, endMs: 7250, text: 'Today we talk about\nmoderation at scale.' },
  { line: 16, startMs: 3_723_456, endMs: 3_724_000, text: 'No identifier here' },
];

describe('readCaptions: WebVTT', () => {
  it('reads cues after the header: BOM, CRLF, identifiers numeric and text, hours omitted, cue settings, multi-line text, trailing white space, several blank lines, no final newline', async () => {
    assert.deepEqual(await read(webvtt), webvttCues);
  });

  it('strips every tag, takes the speaker from the voice tags when they name one speaker and decodes entities after the tags are gone', async () => {
    const file = lf(
      'WEBVTT',
      '',
      '00:00:01.000 --> 00:00:02.000',
      '<v Ann>Hello <b>everyone</b>,</v>',
      '<v Bob>welcome!',
      '',
      '00:00:02.000 --> 00:00:03.000',
      '<v.loud.fast Ann Lee><i>Loud</i> <u>and</u> <c.yellow.bg_blue>clear</c>',
      '',
      '00:00:03.000 --> 00:00:04.000',
      '<lang en-GB>Colour</lang> <ruby>漢<rt>kan</rt></ruby> <00:00:03.500>now',
      '',
      '00:00:04.000 --> 00:00:05.000',
      'Tom &amp; Jerry &lt;b&gt;not bold&lt;/b&gt; &amp;lt;&nbsp;x&lrm;y&rlm;z &quot;q&quot; &apos;a&apos; &copy;',
      '',
      '00:00:05.000 --> 00:00:06.000',
      '<v>nobody</v> said <v.x>so, <v\t Cy &amp; Di >hi',
      '',
      '00:00:06.000 --> 00:00:07.000',
      '<v >a voice without a name',
      '<i> </i>',
      '<v Dee>then a voice',
    );
    assert.deepEqual(await read(file), [
      { line: 3, startMs: 1000, endMs: 2000, text: 'Hello everyone,\nwelcome!' },
      { line: 7, startMs: 2000, endMs: 3000, text: 'Loud and clear', speaker: 'Ann Lee' },
      { line: 10, startMs: 3000, endMs: 4000, text: 'Colour 漢kan now' },
      { line: 13, startMs: 4000, endMs: 5000, text: 'Tom & Jerry <b>not bold</b> &lt;\u00a0x\u200ey\u200fz "q" \'a\' &copy;' },
      { line: 16, startMs: 5000, endMs: 6000, text: 'nobody said so, hi', speaker: 'Cy & Di' },
      { line: 19, startMs: 6000, endMs: 7000, text: 'a voice without a name\nthen a voice', speaker: 'Dee' },
    ]);
  });

  it('credits a cue to its voice only when all its voice tags name the same speaker', async () => {
    const file = lf(
      'WEBVTT',
      '',
      '00:00:01.000 --> 00:00:02.000',
      '<v Bob>Hi</v> <v Ann>both</v>',
      '',
      '00:00:02.000 --> 00:00:03.000',
      '<v Ann>Hi</v> <v.loud Ann >again</v>',
      '<v\tAnn>and again',
      '',
      '00:00:03.000 --> 00:00:04.000',
      '<v Tom &amp; Jo>one</v>',
      '<v Tom & Jo>voice',
      '',
      '00:00:04.000 --> 00:00:05.000',
      '<v Ann>one line',
      '<v Ann Lee>then another voice',
    );
    assert.deepEqual(await read(file), [
      { line: 3, startMs: 1000, endMs: 2000, text: 'Hi both' },
      { line: 6, startMs: 2000, endMs: 3000, text: 'Hi again\nand again', speaker: 'Ann' },
      { line: 10, startMs: 3000, endMs: 4000, text: 'one\nvoice', speaker: 'Tom & Jo' },
      { line: 14, startMs: 4000, endMs: 5000, text: 'one line\nthen another voice' },
    ]);
  });

  it('takes any line without --> above a timing line as a cue identifier, also one that starts with a time; without a timing line after it, such a line is the bad timing line', async () => {
    const file = lf(
      'WEBVTT',
      '',
      '10:30 segment',
      '00:00:01.000 --> 00:00:02.000',
      'a',
      '',
      '00:00:03.000',
      '00:00:03.000 --> 00:00:04.000',
      'b',
      '',
      '1:2',
      'not a timing line',
    );
    assert.deepEqual(await read(file), [
      { line: 4, startMs: 1000, endMs: 2000, text: 'a' },
      { line: 8, startMs: 3000, endMs: 4000, text: 'b' },
      { line: 11, problem: VTT_TIMING },
    ]);
  });

  it('reads a line as a bad timing line only when it starts with a time, spaces before it allowed', async () => {
    const file = lf('WEBVTT', '', 'chapter 10:30', 'not a timing line', '', ' 1:2', 'not one either');
    assert.deepEqual(await read(file), [
      { line: 4, problem: VTT_TIMING },
      { line: 6, problem: VTT_TIMING },
    ]);
  });

  it('skips NOTE, STYLE and REGION blocks, but not a cue identifier or cue text that starts with NOTE', async () => {
    const file = lf(
      'WEBVTT',
      '',
      'STYLE',
      '::cue { color: yellow }',
      '',
      'REGION',
      'id:fred width:40%',
      '',
      'NOTE a one-line comment',
      '',
      'NOTE',
      'a comment over',
      'two lines with --> in them',
      '',
      '00:00:01.000 --> 00:00:02.000',
      'NOTE is text inside a cue',
      '',
      'NOTE\tafter cues too',
      '',
      'NOTEBOOK',
      '00:00:03.000 --> 00:00:04.000',
      'an identifier that starts with NOTE',
      '',
      'x1:2 intro STYLE',
      '00:00:04.000 --> 00:00:05.000',
      'an identifier with a time and STYLE in it',
    );
    assert.deepEqual(await read(file), [
      { line: 15, startMs: 1000, endMs: 2000, text: 'NOTE is text inside a cue' },
      { line: 21, startMs: 3000, endMs: 4000, text: 'an identifier that starts with NOTE' },
      { line: 25, startMs: 4000, endMs: 5000, text: 'an identifier with a time and STYLE in it' },
    ]);
  });

  it('takes a header with a tab or trailing space, and a cue that follows the header without a blank line', async () => {
    assert.deepEqual(await read(lf('WEBVTT\tTitle', 'X-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:0', '', '00:01.000 --> 00:02.000', 'a')), [
      { line: 4, startMs: 1000, endMs: 2000, text: 'a' },
    ]);
    assert.deepEqual(await read(lf('WEBVTT ', '00:01.000 --> 00:02.000', 'b')), [{ line: 2, startMs: 1000, endMs: 2000, text: 'b' }]);
    assert.deepEqual(await read(lf('', '', 'WEBVTT', '', '00:01.000 --> 00:02.000', 'c')), [{ line: 5, startMs: 1000, endMs: 2000, text: 'c' }]);
  });

  it('reads timing lines as the spec writes them, and a little more leniently; anything else is a problem at its line', async () => {
    const timing = async (line: string) => read(lf('WEBVTT', '', line, 'text'));
    const cue = (startMs: number, endMs: number) => [{ line: 3, startMs, endMs, text: 'text' }];
    for (const [good, startMs, endMs] of [
      ['00:00:00.000 --> 00:00:00.001', 0, 1],
      ['1:00:00.000 --> 12:34:56.789', 3_600_000, 45_296_789],
      ['100:00:00.000 --> 100:00:00.000', 360_000_000, 360_000_000],
      ['99999:59:59.999 --> 099999:59:59.999', 359_999_999_999, 359_999_999_999],
      ['59:59.999 --> 01:00:00.000', 3_599_999, 3_600_000],
      ['00:00:01.000-->00:00:02.000', 1000, 2000],
      ['00:00:01.000\t-->\t00:00:02.000\tline:0 vertical:rl', 1000, 2000],
    ] as const) {
      assert.deepEqual(await timing(good), cue(startMs, endMs), good);
    }
    for (const bad of [
      '00:01.5 --> 00:02.000',
      '00:00:01.000 --> 00:00:02',
      '60:00.000 --> 61:00.000',
      '00:60:00.000 --> 00:61:00.000',
      '00:00:60.000 --> 00:00:61.000',
      '00:00:01,000 --> 00:00:02,000',
      '00:00:01.000 --> 00:00:02.000align:start',
      '00:00:01.000 --> ',
      ' --> 00:00:02.000',
      'x00:00:01.000 --> 00:00:02.000',
      '00:00:01.0000 --> 00:00:02.000',
      '00:00:01.000 -> 00:00:02.000',
      '100000:00:00.000 --> 100000:00:01.000',
      '99999999999999:00:00.000 --> 99999999999999:00:01.000',
      '00:00:00.000 --> 99999999999999:00:00.000',
      '0:00:00.000 ',
    ]) {
      assert.deepEqual(await timing(bad), [{ line: 3, problem: VTT_TIMING }], bad);
    }
  });

  it('reports a malformed cue at its line and goes on with the next', async () => {
    const file = lf(
      'WEBVTT',
      '',
      '00:00:01.000 -> 00:00:02.000',
      'an arrow typo: this text is skipped',
      '',
      '00:00:05.000 --> 00:00:04.999',
      'ends before it starts',
      '',
      '00:00:06.000 --> 00:00:07.000',
      '',
      'speaker-1',
      '',
      '00:00:07.000 --> 00:00:08.000',
      '<v Ann></v>  ',
      '',
      'chapter-2',
      '00:00:61.000 --> 00:01:02.000',
      'text',
      '',
      '00:00:08.000 --> 00:00:09.000',
      'a good cue after the bad ones',
      '',
      'a blank line inside cue text',
      'ends the cue there',
      '',
      '00:00:10.000 --> 00:00:11.000',
      'two',
      '2',
      'cues',
      '00:00:11.000 --> 00:00:12.000',
      'without a blank line between them',
      '',
      '00:00:12.000 --> 00:00:13.000',
      'text ending in 3',
      '4',
      '00:00:13.000 --> 00:00:14.000',
      '5',
    );
    assert.deepEqual(await read(file), [
      { line: 3, problem: VTT_TIMING },
      { line: 6, problem: 'the end time 00:00:04.999 is before the start time 00:00:05.000' },
      { line: 9, problem: NO_TEXT },
      { line: 11, problem: `${VTT_TIMING} after the cue identifier` },
      { line: 13, problem: NO_TEXT },
      { line: 17, problem: VTT_TIMING },
      { line: 20, startMs: 8000, endMs: 9000, text: 'a good cue after the bad ones' },
      { line: 24, problem: VTT_TIMING },
      { line: 26, startMs: 10_000, endMs: 11_000, text: 'two\n2\ncues' },
      { line: 30, startMs: 11_000, endMs: 12_000, text: 'without a blank line between them' },
      { line: 33, startMs: 12_000, endMs: 13_000, text: 'text ending in 3' },
      { line: 36, startMs: 13_000, endMs: 14_000, text: '5' },
    ]);
  });

  it('reports a block that ends after its identifier, also at the end of the file', async () => {
    assert.deepEqual(await read(lf('WEBVTT', '', '00:01.000 --> 00:02.000', 'a', '', 'only-an-id')), [
      { line: 3, startMs: 1000, endMs: 2000, text: 'a' },
      { line: 6, problem: `${VTT_TIMING} after the cue identifier` },
    ]);
    assert.deepEqual(await read(lf('WEBVTT', '', '00:01.000 --> 00:02.000')), [{ line: 3, problem: NO_TEXT }]);
    assert.deepEqual(await read(lf('WEBVTT', '', '00:01.000 --> 00:02.000', '00:02.000 --> 00:03.000', 'b')), [
      { line: 3, problem: NO_TEXT },
      { line: 4, startMs: 2000, endMs: 3000, text: 'b' },
    ]);
  });
});

describe('readCaptions: the raw text of a malformed cue', () => {
  it('is its lines as in the file, from its timing line (or the line read as one) to its blank line', async () => {
    const file = crlf(
      'WEBVTT',
      '',
      '00:05.000 --> 00:04.999',
      '<v Ann>backwards',
      'second line',
      '',
      'id-1',
      '00:06.000 --> 00:07.000',
      '',
      'only-an-id',
      '',
      '00:00:08.000 -> 00:00:09.000',
      'an arrow too short',
      '',
      '00:09.000 --> 00:10.000',
      'fine',
    );
    assert.deepEqual(await readRaw(file), [
      { line: 3, problem: 'the end time 00:04.999 is before the start time 00:05.000', raw: '00:05.000 --> 00:04.999\n<v Ann>backwards\nsecond line' },
      { line: 8, problem: NO_TEXT, raw: '00:06.000 --> 00:07.000' },
      { line: 10, problem: `${VTT_TIMING} after the cue identifier`, raw: 'only-an-id' },
      { line: 12, problem: VTT_TIMING, raw: '00:00:08.000 -> 00:00:09.000\nan arrow too short' },
      { line: 15, startMs: 9000, endMs: 10_000, text: 'fine' },
    ]);
  });

  it('is held to 10 MB when the cue is too long', async () => {
    const mib = 'x'.repeat(1024 * 1024);
    const [tooLong] = await readRaw(lf('WEBVTT', '', '00:01.000 --> 00:02.000', ...Array<string>(12).fill(mib)));
    assert.ok('problem' in tooLong! && tooLong.raw !== undefined);
    assert.ok(tooLong.raw.startsWith('00:01.000 --> 00:02.000\nxxx'));
    assert.ok(tooLong.raw.length <= 10 * mib.length + 64, `${tooLong.raw.length} characters`);
  });
});

describe('readCaptions: SubRip', () => {
  it('reads numbered cues: BOM, CRLF, "." separators, hours without leading zeros, coordinates after the end time, its tags stripped and other angle brackets kept', async () => {
    const file = crlf(
      '\uFEFF12 ',
      '00:00:01,000 --> 00:00:04,000',
      '<i>Hello</i> <B>there</B>, <u>friend</u> <s>x</s>',
      '<font color="#ff0000">I <3 captions</font>  ',
      '',
      '2',
      '0:00:04.500 --> 0:00:07.250',
      '{\\an8}Top of the screen{\\i1}',
      '',
      '',
      '3',
      '01:02:03,456 --> 01:02:04,000 X1:100 X2:600 Y1:50 Y2:80',
      '5 < 6 > 4 <v Ann> <bold>',
      '',
      '4',
      '1:02:03,4 --> 10:02:03,45',
      '- Short milliseconds',
      '- are fractions',
    );
    assert.deepEqual(await read(file), [
      { line: 2, startMs: 1000, endMs: 4000, text: 'Hello there, friend x\nI <3 captions' },
      { line: 7, startMs: 4500, endMs: 7250, text: 'Top of the screen' },
      { line: 12, startMs: 3_723_456, endMs: 3_724_000, text: '5 < 6 > 4 <v Ann> <bold>' },
      { line: 16, startMs: 3_723_400, endMs: 36_123_450, text: '- Short milliseconds\n- are fractions' },
    ]);
  });

  it('reports a block without a timing line, a bad timing line and a cue with no text, and goes on', async () => {
    const file = lf(
      '1',
      '00:00:02,000 --> 00:00:01,000',
      'ends before it starts',
      '',
      '2',
      '00:00:03,000 to 00:00:04,000',
      'skipped',
      '',
      '3',
      '',
      '4',
      '00:00:05,000 --> 00:00:06,000',
      '',
      '5',
      '00:60:00,000 --> 00:60:01,000',
      '',
      '6',
      '00:00:07,000 --> 00:00:08,000',
      'fine',
      '7 ',
      '00:00:08,000 --> 00:00:09,000',
      'no blank line before 7',
      '',
    );
    assert.deepEqual(await read(file), [
      { line: 2, problem: 'the end time 00:00:01,000 is before the start time 00:00:02,000' },
      { line: 6, problem: SRT_TIMING },
      { line: 9, problem: `${SRT_TIMING} after the cue number` },
      { line: 12, problem: NO_TEXT },
      { line: 15, problem: SRT_TIMING },
      { line: 18, startMs: 7000, endMs: 8000, text: 'fine' },
      { line: 21, startMs: 8000, endMs: 9000, text: 'no blank line before 7' },
    ]);
  });

  it('reads cues without numbers: a timing line opens a block, also mixed with numbered cues', async () => {
    const file = crlf(
      '\uFEFF00:00:01,000 --> 00:00:02,000',
      'first',
      '',
      '00:00:02,000 --> 00:00:03,000',
      'second',
      'two lines',
      '',
      '3',
      '00:00:03,000 --> 00:00:04,000',
      'numbered',
      '',
      '00:00:04,000 --> 00:00:05,000',
      '',
      '00:00:05,000 -> 00:00:06,000',
      'bad',
    );
    assert.deepEqual(await read(file), [
      { line: 1, startMs: 1000, endMs: 2000, text: 'first' },
      { line: 4, startMs: 2000, endMs: 3000, text: 'second\ntwo lines' },
      { line: 9, startMs: 3000, endMs: 4000, text: 'numbered' },
      { line: 12, problem: NO_TEXT },
      { line: 14, problem: SRT_TIMING },
    ]);
  });

  it('rejects timestamps SubRip does not have', async () => {
    for (const bad of [
      '00:00:01 --> 00:00:02',
      '00:01,000 --> 00:02,000',
      '00:00:01:000 --> 00:00:02:000',
      '00:00:01,0000 --> 00:00:02,000',
      'x00:00:01,000 --> 00:00:02,000',
      '00:0:01,000 --> 00:00:02,000',
      '00:00:1,000 --> 00:00:02,000',
      '100000:00:00,000 --> 100000:00:01,000',
      '99999999999999:00:00,000 --> 99999999999999:00:01,000',
    ]) {
      assert.deepEqual(await read(lf('1', '00:00:00,000 --> 00:00:01,000', 'a', '', '2', bad, 'b')), [
        { line: 2, startMs: 0, endMs: 1000, text: 'a' },
        { line: 6, problem: SRT_TIMING },
      ], bad);
    }
  });
});

describe('readCaptions: input', () => {
  it('gives the same cues however the bytes are cut into chunks: inside a multi-byte character, between CR and LF', async () => {
    const file = Buffer.from(crlf('\uFEFFWEBVTT', '', '00:01.000 --> 00:02.000', '<v Zoë>Café 漢字 🎤', '', '1', '00:02.000 --> 00:03.000', 'é', ''));
    const expected = [
      { line: 3, startMs: 1000, endMs: 2000, text: 'Café 漢字 🎤', speaker: 'Zoë' },
      { line: 7, startMs: 2000, endMs: 3000, text: 'é' },
    ];
    assert.deepEqual(await read(file), expected);
    for (let cut = 1; cut < file.length; cut++) {
      assert.deepEqual(await read(file.subarray(0, cut), file.subarray(cut)), expected, `cut at byte ${cut}`);
    }
    assert.deepEqual(await read(...[...file].map((byte) => Buffer.from([byte]))), expected, 'one byte a chunk');
  });

  it('reports a cue whose text is not UTF-8 (a Latin-1 file) at the line, and sends the others', async () => {
    const NOT_UTF8 = 'the cue\'s text is not UTF-8: convert the file, e.g. iconv -f latin1 -t utf-8';
    const latin1 = Buffer.from(lf('1', '00:00:01,000 --> 00:00:02,000', 'plain', '', '2', '00:00:02,000 --> 00:00:03,000', 'ok', 'Caf\u00e9 cr\u00e8me', 'na\u00efve', '', '3', '00:00:03,000 --> 00:00:04,000', 'd\u00e9j\u00e0 vu'), 'latin1');
    const expected = [
      { line: 2, startMs: 1000, endMs: 2000, text: 'plain' },
      { line: 8, problem: NOT_UTF8 },
      { line: 13, problem: NOT_UTF8 },
    ];
    assert.deepEqual(await read(latin1), expected);
    const utf8 = Buffer.from(lf('WEBVTT', '', '00:01.000 --> 00:02.000', 'real \uFFFD replacement', '', '00:02.000 --> 00:03.000', 'ok'));
    const invalid = Buffer.concat([utf8, Buffer.from([0x20, 0xc3])]);
    assert.deepEqual(await read(invalid), [
      { line: 3, startMs: 1000, endMs: 2000, text: 'real \uFFFD replacement' },
      { line: 7, problem: NOT_UTF8 },
    ]);
  });

  it('stops with one error naming UTF-16 when the file starts with a UTF-16 byte order mark, however it is cut', async () => {
    const UTF16 = 'is UTF-16 text, expected UTF-8: convert it first, e.g. iconv -f utf-16 -t utf-8';
    const le = Buffer.from('\uFEFFWEBVTT\n\n00:01.000 --> 00:02.000\nhi\n', 'utf16le');
    const be = Buffer.from(le).swap16();
    for (const file of [le, be]) {
      await assert.rejects(read(file), stoppedAt(undefined, UTF16));
      await assert.rejects(read(...[...file].map((byte) => Buffer.from([byte]))), stoppedAt(undefined, UTF16));
    }
    await assert.rejects(read(Buffer.from([0xff])), stoppedAt(1, NOT_CAPTIONS));
    await assert.rejects(read(Buffer.from([0xff, 0xfe])), stoppedAt(undefined, UTF16), 'a file of the byte order mark alone');
    assert.deepEqual(await read(Buffer.from('W'), Buffer.from('EBVTT\n\n00:01.000 --> 00:02.000\nok')), [{ line: 3, startMs: 1000, endMs: 2000, text: 'ok' }]);
  });

  it('reads a readable stream', async () => {
    const pieces = [Buffer.from(webvtt.slice(0, 50)), Buffer.from(webvtt.slice(50))];
    assert.deepEqual(await collect(readCaptions(Readable.from(pieces))), webvttCues);
  });

  it('stops at line 1 with what was expected when the file is neither WebVTT nor SubRip', async () => {
    for (const [file, line] of [
      ['{"type":"chat_message"}\n', 1],
      [lf('WEBVTTX', '', '00:00:01.000 --> 00:00:02.000', 'x'), 1],
      [lf('XWEBVTT', '', '00:00:01.000 --> 00:00:02.000', 'x'), 1],
      [lf('a1', '00:00:01,000 --> 00:00:02,000', 'x'), 1],
      [lf('1a', '00:00:01,000 --> 00:00:02,000', 'x'), 1],
      [lf('1', 'hello', ''), 1],
      [lf('1', '', '00:00:01,000 --> 00:00:02,000', 'x'), 1],
      [lf('one', '00:00:01,000 --> 00:00:02,000', 'x'), 1],
      [lf('00:01.000 --> 00:02.000', 'x'), 1],
      [lf('00:00:01,000 -> 00:00:02,000', 'x'), 1],
      ['1', 1],
      [lf('', '1', 'x'), 2],
    ] as const) {
      await assert.rejects(read(file), stoppedAt(line, NOT_CAPTIONS), file);
    }
  });

  it('stops when there is nothing to read: an empty file, or WebVTT without cues', async () => {
    await assert.rejects(read(''), stoppedAt(undefined, 'is empty, expected a WebVTT or SubRip caption file'));
    await assert.rejects(read('\uFEFF\r\n \n'), stoppedAt(undefined, 'is empty, expected a WebVTT or SubRip caption file'));
    await assert.rejects(read(lf('WEBVTT', '', 'NOTE only a comment', '')), stoppedAt(undefined, 'holds no cues, expected at least one cue after the WEBVTT header'));
  });

  it('reports a cue whose text passes 10 MB (blank lines lost) once, skips the rest of it and goes on', async () => {
    const mib = 'x'.repeat(1024 * 1024);
    const cueOf = (lines: number) => lf('WEBVTT', '', '00:01.000 --> 00:02.000', ...Array<string>(lines).fill(mib), '', '00:03.000 --> 00:04.000', 'next');
    const [atLimit, next] = await read(cueOf(10));
    assert.equal((atLimit as Cue).text.length, 10 * mib.length + 9);
    assert.deepEqual(next, { line: 15, startMs: 3000, endMs: 4000, text: 'next' });
    assert.deepEqual(await read(cueOf(12)), [
      { line: 3, problem: "the cue's text is longer than 10 MiB, expected a blank line after each cue" },
      { line: 17, startMs: 3000, endMs: 4000, text: 'next' },
    ]);
  });

  it('counts a malformed cue as a cue read, so a file of only bad cues reports them rather than stopping', async () => {
    assert.deepEqual(await read(lf('WEBVTT', '', '00:02.000 --> 00:01.000', 'x')), [
      { line: 3, problem: 'the end time 00:01.000 is before the start time 00:02.000' },
    ]);
  });
});
