/**
 * The bad-input corpus: inputs users get wrong, each with the one outcome csafe gives (its exit
 * code and a fragment of what it says). `{name}` in argv is the input: `files/…` is committed here,
 * `examples/…` is the repository's, `/dev/…` the device, and any other name is made by the test
 * (corpus.test.ts MADE). Each reading command reads JSON Lines its own way (data add the records,
 * data import the upload check, events send its spool), so the text cases run on all three.
 */
export interface CorpusCase {
  /** What the input is. */
  input: string;
  argv: string[];
  code: number;
  /** A fragment of stdout or stderr. */
  says: string;
}

const JSONL_READERS: ReadonlyArray<(file: string) => string[]> = [
  (file) => ['data', 'add', 'corpus', file],
  (file) => ['data', 'import', 'corpus', file],
  (file) => ['events', 'send', file],
];

/** The same input and outcome for each command that reads JSON Lines. */
const onEveryReader = (input: string, file: string, code: number, says: string): CorpusCase[] =>
  JSONL_READERS.map((argv) => ({ input, argv: argv(`{${file}}`), code, says }));

const CONVERT_LATIN1 = 'csafe reads UTF-8 text; convert the file, e.g. iconv -f latin1 -t utf-8';
const classify = (...argv: string[]) => ['classify', '--user-id', 'u1', ...argv];

export const CORPUS: readonly CorpusCase[] = [
  ...onEveryReader('invalid UTF-8 (Latin-1)', 'files/latin1.jsonl', 2, `latin1.jsonl:2: not UTF-8 at column 23: ${CONVERT_LATIN1}`),
  ...onEveryReader('UTF-16 with a byte order mark', 'files/utf16le-bom.jsonl', 2, 'utf16le-bom.jsonl:1: not UTF-8 but UTF-16 (it opens with its byte order mark): csafe reads UTF-8 text; convert the file, e.g. iconv -f utf-16 -t utf-8'),
  ...onEveryReader('UTF-16 without one', 'files/utf16le.jsonl', 2, 'utf16le.jsonl:1: a NUL byte at column 2: JSON text holds none, UTF-16 text and binary files do'),
  ...onEveryReader('a binary file (a PNG) as JSON Lines', 'files/binary.jsonl', 2, 'binary.jsonl:1: not UTF-8 at column 1'),
  { input: 'a byte order mark', argv: ['data', 'add', 'corpus', '{files/bom.jsonl}'], code: 0, says: 'added 2 objects to corpus' },
  { input: 'a byte order mark', argv: ['data', 'import', 'corpus', '{files/bom.jsonl}'], code: 0, says: '"status": "uploaded"' },
  { input: 'CRLF line ends', argv: ['data', 'add', 'corpus', '{files/crlf.jsonl}'], code: 0, says: 'added 2 objects to corpus' },
  { input: 'CRLF line ends', argv: ['data', 'import', 'corpus', '{files/crlf.jsonl}'], code: 0, says: '"status": "uploaded"' },
  ...onEveryReader('lone CR line ends', 'files/lone-cr.jsonl', 2, "lone-cr.jsonl:1: invalid JSON at column 29: Unexpected non-whitespace character after JSON; its lines seem to end in a lone CR (LF ends a line): convert them, e.g. tr '\\r' '\\n' < IN > OUT"),
  ...onEveryReader('a 20 MB line', 'a 20 MB line', 2, ':1: line is longer than 10 MiB'),
  // 1 GB of blank lines took a minute and more under a loaded run (data import and events send keep
  // a FIFO in a temporary file first: an upload needs its length, events are checked in a pass of
  // their own), so each reader gets a tenth here, through the same code; data add reads 1 GB, past
  // the longest string V8 holds, in the soak tier (test/soak/blank-lines.test.ts).
  { input: '100 MB of blank lines', argv: ['data', 'add', 'corpus', '{100 MB of blank lines}'], code: 2, says: 'holds only blank lines, expected at least one JSON record' },
  { input: '100 MB of blank lines', argv: ['data', 'import', 'corpus', '{100 MB of blank lines}'], code: 2, says: 'holds only blank lines, expected at least one JSON record' },
  { input: '100 MB of blank lines', argv: ['events', 'send', '{100 MB of blank lines}'], code: 2, says: 'holds only blank lines, expected at least one JSON record' },
  ...onEveryReader('JSON nested 100,000 deep', 'JSON nested 100,000 deep', 2, ':1: nested deeper than 64 levels of arrays and objects'),
  ...onEveryReader('a key named twice', 'files/duplicate-keys.jsonl', 2, 'duplicate-keys.jsonl:2: key "title" named twice in one object at column 29: only the last value would count; name each key once'),
  { input: 'a __proto__ field', argv: ['data', 'add', 'corpus', '{files/proto.jsonl}'], code: 0, says: 'added 1 object to corpus' },
  { input: 'a __proto__ field', argv: ['events', 'send', '{files/proto.jsonl}'], code: 2, says: 'proto.jsonl:1: type: is required' },
  { input: 'a number where a string is required', argv: ['data', 'add', 'corpus', '{files/number-id.jsonl}'], code: 2, says: 'number-id.jsonl:2: id: expected a string id' },
  { input: 'a number where a string is required', argv: ['data', 'import', 'corpus', '{files/number-id.jsonl}'], code: 2, says: 'number-id.jsonl:2: id: expected a string id' },
  ...onEveryReader('an empty file', 'files/empty.jsonl', 2, 'empty.jsonl: is empty, expected at least one JSON record'),
  ...onEveryReader('a directory', 'a directory', 2, 'is a directory, expected a file'),
  { input: 'a FIFO', argv: ['data', 'add', 'corpus', '{a FIFO of two records}'], code: 0, says: 'added 2 objects to corpus' },
  { input: '/dev/zero as JSON Lines', argv: ['data', 'add', 'corpus', '{/dev/zero}'], code: 2, says: '/dev/zero:1: line is longer than 10 MiB' },
  { input: '/dev/zero to classify', argv: classify('{/dev/zero}'), code: 2, says: '/dev/zero: larger than 6000000 bytes, the most one request can carry' },
  { input: 'a directory to classify', argv: classify('{a directory}'), code: 2, says: 'is a directory, expected a file' },
  { input: 'an image that is not one', argv: classify('{files/not-an-image.png}'), code: 2, says: 'not-an-image.png: named as an image but holds no PNG, JPEG, GIF or WebP image; nothing was sent' },
  { input: 'a truncated PNG', argv: classify('{files/truncated.png}'), code: 2, says: 'truncated.png: a PNG image cut short (its chunks end before IEND): the file is damaged or was not copied whole' },
  { input: '21 images', argv: classify(...Array.from({ length: 21 }, () => '{examples/photo.png}')), code: 2, says: 'at most 20 images per request, got 21' },
  { input: 'a 5 MB + 1 byte image', argv: classify('{a 5 MB + 1 byte image}'), code: 2, says: 'content[0].source.data: image is 6990508 bytes of base64, over the limit of 5000000' },
  { input: '8 KB + 1 byte of metadata', argv: classify('--text', 'hi', '--metadata', '@{8 KB + 1 byte of metadata}'), code: 2, says: '--metadata: is 8001 bytes serialized, over the limit of 8000' },
  { input: 'a CSV with a quoted newline', argv: ['batch', 'create', '--type', 'text', '{files/quoted-newline.csv}', '--wait', '--json'], code: 0, says: '"batch_count": 2' },
  { input: 'a CSV with a ragged row', argv: ['batch', 'create', '--type', 'text', '{files/ragged.csv}'], code: 2, says: 'ragged.csv:3: has 3 fields, the header has 2' },
  { input: 'a CSV with mixed line ends', argv: ['batch', 'create', '--type', 'text', '{files/mixed-line-ends.csv}', '--wait', '--json'], code: 0, says: '"batch_count": 3' },
  { input: 'a CSV that is not UTF-8', argv: ['batch', 'create', '--type', 'text', '{files/latin1.csv}'], code: 2, says: `latin1.csv:3: not UTF-8 at column 4: ${CONVERT_LATIN1}` },
  ...['a/b', 'a b', '..', 'Upper'].map((namespace) => ({ input: `namespace ${JSON.stringify(namespace)}`, argv: ['data', 'add', namespace, '{files/bom.jsonl}'], code: 2, says: `NAMESPACE ${JSON.stringify(namespace)}: ` })),
  { input: 'a namespace of 10,000 characters', argv: ['data', 'add', 'n'.repeat(10_000), '{files/bom.jsonl}'], code: 2, says: '(10000 characters): expected a namespace of at most 256 characters' },
  ...[
    ['data', 'status', 'corpus'],
    ['data', 'download', 'corpus'],
    ['batch', 'get'],
    ['decision', 'get'],
    ['import', 'get'],
  ].flatMap((command) => ['.', '..'].map((id) => ({ input: `the id ${JSON.stringify(id)}`, argv: [...command, id], code: 2, says: `"${id}": "." and ".." cannot name one` }))),
];
