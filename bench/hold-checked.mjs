// How a bulk command holds its records between the check before anything is sent and the sending
// pass: re-reading the input (the check, then read, check and prepare again), or a spool (the
// check prepares each record as it will be sent and writes it to a temporary file, which the
// sending pass reads back). Both end with every record ready to send, so the difference is only
// the way they are held. Measured for events (a heavy preparation: idempotency keys) and for data
// objects (a light one), each variant a process of its own, interleaved. Not part of `npm test`.
// Usage: node bench/hold-checked.mjs [events=1000000] [objects=1000000] [runs=5]
import { createReadStream, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { eventLine, interleave, requireBuild, smallObject, tempDir, timed, writeCount } from './_support.mjs';

const DIST = new URL('../dist/src/', import.meta.url);
const load = (path) => import(new URL(path, DIST).href);

if (process.argv[2] === '--variant') {
  await runVariant(process.argv[3], process.argv[4]);
  process.exit(0);
}

requireBuild();
const [events = 1_000_000, objects = 1_000_000, runs = 5] = process.argv.slice(2).map(Number);
const dir = tempDir();
try {
  const eventsFile = join(dir, 'events.jsonl');
  const objectsFile = join(dir, 'objects.jsonl');
  writeCount(eventsFile, events, eventLine);
  writeCount(objectsFile, objects, smallObject);
  const self = fileURLToPath(import.meta.url);
  const variant = (name, file) => ({ name, run: () => timed(process.execPath, [self, '--variant', name, file], { capture: true }) });
  for (const [what, file, pair] of [
    [`${events.toLocaleString('en')} events`, eventsFile, ['events-reread', 'events-spool']],
    [`${objects.toLocaleString('en')} data objects (83 bytes)`, objectsFile, ['objects-reread', 'objects-spool']],
  ]) {
    const variants = pair.map((name) => variant(name, file));
    const samples = await interleave(variants, runs, { warmup: 1 });
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ratios = samples[0].map((reread, index) => samples[1][index].seconds / reread.seconds);
    console.log(`${what}, input ${(statSync(file).size / 1e6).toFixed(0)} MB, ${runs} runs interleaved:`);
    for (const [index, name] of pair.entries()) {
      const spoolBytes = samples[index][0].stdout.trim();
      console.log(`  ${name.padEnd(15)} median ${median(samples[index].map((s) => s.seconds)).toFixed(2)} s, peak RSS ${median(samples[index].map((s) => s.rssMiB)).toFixed(0)} MiB${spoolBytes === '' ? '' : `, spool ${(Number(spoolBytes) / 1e6).toFixed(0)} MB`}`);
    }
    console.log(`  spool ÷ re-read time: median ${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

async function runVariant(name, path) {
  const { inputSource, readRecords } = await load('core/input/sources.js');
  const source = inputSource(path, process.stdin);
  const signal = new AbortController().signal;
  const io = { warn: () => undefined };
  let ready = 0;
  if (name.startsWith('events')) {
    const { checkedEvents } = await load('commands/events/send/validate.js');
    const { EventPreparer, EVENT_SPOOL } = await load('commands/events/send/outgoing.js');
    const { spoolRecords } = await load('core/bulk/record-spool.js');
    const { emptyCounts } = await load('core/bulk/counts.js');
    const check = { allowUnknownTypes: false };
    const preparer = () => new EventPreparer({ autoIdempotency: true }, emptyCounts());
    if (name === 'events-reread') {
      // The check alone: nothing made ready.
      for await (const _ of checkedEvents(source, check, { io, tally: emptyCounts(), preparer: { prepare: () => undefined } }));
      for await (const events of checkedEvents(source, check, { io, tally: emptyCounts(), preparer: preparer() })) ready += events.length;
    } else {
      const spool = await spoolRecords(checkedEvents(source, check, { io, tally: emptyCounts(), preparer: preparer() }), EVENT_SPOOL, signal);
      for await (const events of spool.records()) ready += events.length;
      // Held in memory (a small input), the spool has no file.
      console.log(spool.path === undefined ? '' : statSync(spool.path).size);
      await spool.remove();
    }
  } else {
    const { objectCheck } = await load('commands/data/shared/objects.js');
    const { checkRecord, problemOfRecord } = await load('core/bulk/checked-records.js');
    const { spoolToTempFile } = await load('core/input/spool.js');
    const { LineSplitter, MAX_LINE_BYTES } = await load('core/input/lines.js');
    const check = objectCheck(5_000_000);
    if (name === 'objects-reread') {
      // The check as data add ran it before the spool: measured, serialising nothing.
      for await (const record of readRecords(source, { measured: true })) problemOfRecord(record, check);
      for await (const record of readRecords(source)) if ('json' in checkRecord(record, check)) ready++;
    } else {
      async function* spoolText() {
        let text = '';
        for await (const record of readRecords(source)) {
          const checked = checkRecord(record, check);
          if ('json' in checked) text += `${checked.line}\t${checked.bytes}\t${checked.json}\n`;
          if (text.length > 1 << 16) {
            yield text;
            text = '';
          }
        }
        if (text !== '') yield text;
      }
      const spool = await spoolToTempFile(Readable.from(spoolText()), signal);
      const lines = new LineSplitter(8 * MAX_LINE_BYTES);
      const take = (bytes, start, end) => {
        const text = bytes.toString('utf8', start, end);
        const lineEnd = text.indexOf('\t');
        const bytesEnd = text.indexOf('\t', lineEnd + 1);
        if ({ line: Number(text.slice(0, lineEnd)), bytes: Number(text.slice(lineEnd + 1, bytesEnd)), json: text.slice(bytesEnd + 1) }.json !== '') ready++;
      };
      for await (const chunk of createReadStream(spool.path, { highWaterMark: 1 << 18 })) lines.push(chunk, take);
      lines.end(take);
      console.log(statSync(spool.path).size);
      await spool.remove();
    }
  }
  if (ready === 0) throw new Error(`${name}: no record was made ready`);
}
