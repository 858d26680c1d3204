// Batch CSV throughput, in one run, on generated CSVs of 1,000,000 rows and a tenth of that (to
// show memory does not grow with the file). Interleaved rounds of:
//   `wc -l`                       the baseline for reading the file,
//   `csafe batch create` on the same file with one bad last row: every row checked, exit 2, nothing sent,
//   `curl -T` to a fresh batch's upload address: the baseline for the upload alone,
//   `csafe batch create`          checked and uploaded, and the same with a 32 MB heap cap.
// Each command runs under /usr/bin/time for its peak RSS. The emulator processes each upload
// slowly (--processing-delay 1h); the next command starts once it has counted the rows.
// Usage: npm run bench -- batch-create, or node bench/batch-create.mjs [rows=1000000] [runs=3]
import { appendFileSync, copyFileSync, createWriteStream, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { BIN, requireTool, startEmulator, tempDir, timed } from './_support.mjs';

const rows = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 3);
requireTool('curl', 'apt-get install curl');
requireTool('/usr/bin/time', 'apt-get install time');

const dir = tempDir();

/** A batch CSV of `count` rows, every third Content quoted with a comma and doubled quotes; two metadata columns. */
async function writeCsv(path, count) {
  const out = createWriteStream(path);
  const write = (text) => (out.write(text) ? undefined : once(out, 'drain'));
  await write('Content,source,listing_id\n');
  for (let n = 0; n < count; n++) {
    const content = n % 3 === 0 ? `"Great bike ${n}, said ""fast"" delivery"` : `Road bike number ${n} barely used`;
    await write(`${content},${n % 2 ? 'app' : 'web'},L${n}\n`);
  }
  out.end();
  await once(out, 'finish');
}

const emulator = await startEmulator(['--processing-delay', '1h']);
const env = { ...emulator.env, CSAFE_CONFIG_DIR: dir };
/** Waits until the emulator has read an uploaded batch through once (its count pass), so that work does not overlap the next measurement. */
async function counted(id) {
  while (!((await emulator.api('GET', `/v1/batches/${id}`)).batch_count > 0)) await new Promise((resolve) => setTimeout(resolve, 250));
}
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

async function measure(count) {
  const file = join(dir, `batch-${count}.csv`);
  const broken = join(dir, `broken-${count}.csv`);
  await writeCsv(file, count);
  copyFileSync(file, broken);
  appendFileSync(broken, 'a row,with too many,fields,here\n');
  const variants = [
    { name: 'wc -l (read baseline)', run: () => timed('wc', ['-l', file]) },
    { name: 'csafe batch create, checked only (last row bad: exit 2, nothing sent)', run: () => timed(process.execPath, [BIN, '-q', 'batch', 'create', '--type', 'text', broken], { env, expectedCode: 2 }) },
    { name: 'curl -T (upload baseline)', run: async () => {
      const { batch_id: id, upload_url: url } = await emulator.api('POST', '/v1/batches', { type: 'text' });
      return { ...(await timed('curl', ['-sSf', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: text/csv', url])), id };
    } },
    { name: 'csafe batch create (checked and uploaded)', run: async () => {
      const result = await timed(process.execPath, [BIN, '-q', 'batch', 'create', '--type', 'text', file, '--json'], { env, capture: true });
      return { ...result, id: JSON.parse(result.stdout).batch_id };
    } },
    { name: 'the same with a 32 MB heap cap (completes only if nothing is kept per row)', run: async () => {
      const result = await timed(process.execPath, ['--max-old-space-size=32', BIN, '-q', 'batch', 'create', '--type', 'text', file, '--json'], { env, capture: true });
      return { ...result, id: JSON.parse(result.stdout).batch_id };
    } },
  ];
  const results = variants.map((v) => ({ name: v.name, samples: [] }));
  // Interleaved rounds, so a slow moment of the machine hits every variant alike.
  for (let round = 0; round < runs; round++) {
    for (const [i, variant] of variants.entries()) {
      const sample = await variant.run();
      results[i].samples.push(sample);
      if (sample.id !== undefined) await counted(sample.id);
    }
  }
  const bytes = statSync(file).size;
  console.log(`\n${count.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB, ${runs} runs each (wall time from start to exit)\n`);
  console.log('| command | mean s | min s | rows/s | MB/s | peak RSS MiB |\n|---|---|---|---|---|---|');
  for (const { name, samples } of results) {
    const seconds = mean(samples.map((s) => s.seconds));
    console.log(`| ${name} | ${seconds.toFixed(2)} | ${Math.min(...samples.map((s) => s.seconds)).toFixed(2)} | ${Math.round(count / seconds).toLocaleString('en')} | ` +
      `${(bytes / 1e6 / seconds).toFixed(0)} | ${Math.max(...samples.map((s) => s.rssMiB)).toFixed(0)} |`);
  }
  rmSync(file);
  rmSync(broken);
}

try {
  await measure(rows);
  await measure(Math.round(rows / 10));
} finally {
  await emulator.stop();
  rmSync(dir, { recursive: true, force: true });
}
