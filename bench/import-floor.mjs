// What `data import` of short lines could reach against `curl -T` on this machine: the import-40
// row's file uploaded by curl to an address asked for before the clock starts (the row's baseline),
// by a bare Node client (asks for the address, then PUTs the file through node:http, nothing
// checked), by `csafe data import --no-validate` and by `csafe data import` (every line checked on
// the way). The bare client is the floor of any Node client that must ask for its address, as
// csafe must; the gap from it to csafe is csafe's own cost. Each variant a process of its own,
// interleaved. Not part of `npm test`.
// Usage: node bench/import-floor.mjs [megabytes=250] [runs=11]
import { createReadStream, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { curlUpload } from './_rows.mjs';
import { BIN, interleave, printAgainstFirst, requireBuild, requireTool, startEmulator, tempDir, timed, tinyObject, writeLines } from './_support.mjs';

if (process.argv[2] === '--node-client') {
  await importWithNode(process.argv[3]);
  process.exit(0);
}

requireBuild();
requireTool('curl', 'apt-get install curl');
const [megabytes = 250, runs = 11] = process.argv.slice(2).map(Number);
const dir = tempDir();
const emulator = await startEmulator(['--processing-delay', '1h']);
try {
  const input = join(dir, 'objects.jsonl');
  writeLines(input, megabytes * 1e6, tinyObject);
  const self = fileURLToPath(import.meta.url);
  const fresh = (command, args) => async () => (await emulator.reset(), timed(command, args, { env: emulator.env }));
  const variants = [
    { name: 'curl -T (address asked first)', run: () => curlUpload(emulator, input) },
    { name: 'bare Node client', run: fresh(process.execPath, [self, '--node-client', input]) },
    { name: 'csafe data import --no-validate', run: fresh(process.execPath, [BIN, 'data', 'import', 'bench', input, '--no-validate']) },
    { name: 'csafe data import', run: fresh(process.execPath, [BIN, 'data', 'import', 'bench', input]) },
  ];
  const samples = await interleave(variants, runs, { warmup: 1 });
  console.log(`${(statSync(input).size / 1e6).toFixed(0)} MB of 40-byte lines, ${runs} runs interleaved; throughput ÷ curl's, per round:`);
  printAgainstFirst(variants, samples);
} finally {
  await emulator.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** The bare client: POST …/import for an address, then PUT the file to it, read a MiB at a time. */
async function importWithNode(path) {
  const base = process.env.CSAFE_BASE_URL;
  const answer = await exchange(`${base}/v1/data/bench/import`, { method: 'POST', headers: { authorization: `Bearer ${process.env.CSAFE_API_KEY}` } }, (req) => req.end());
  const { upload_url: url } = JSON.parse(answer);
  const headers = { 'content-type': 'application/json', 'content-length': statSync(path).size };
  await exchange(url, { method: 'PUT', headers }, (req) => createReadStream(path, { highWaterMark: 1 << 20 }).pipe(req));
}

/** One request; resolves with the answer's text, rejects on anything but a 2xx. */
function exchange(url, options, send) {
  return new Promise((resolve, reject) => {
    const req = request(url, options);
    req.on('error', reject);
    req.on('response', async (response) => {
      const chunks = [];
      for await (const chunk of response) chunks.push(chunk);
      const text = Buffer.concat(chunks).toString();
      if (response.statusCode >= 300) reject(new Error(`${options.method} ${url}: ${response.statusCode} ${text}`));
      else resolve(text);
    });
    send(req);
  });
}
