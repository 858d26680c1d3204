// What `data add` could reach against curl on this machine: the same batches posted to one
// emulator 4 at a time by curl (the data-add row's baseline), by a bare Node client (node:http,
// bodies built beforehand, nothing checked), by `csafe data add --skip-invalid` (objects checked
// as they are sent) and by `csafe data add` (every object checked before the first is sent, as
// csafe must). The bare client is the floor of any Node client; the gap from it to csafe is
// csafe's own cost. Each variant a process of its own, interleaved. Not part of `npm test`.
// Usage: node bench/data-add-floor.mjs [objects=100000] [runs=5]
import { readFileSync, rmSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADD_BATCH, curlAddConfigs, objectLine } from './_rows.mjs';
import { BIN, interleave, printAgainstFirst, requireBuild, startEmulator, tempDir, timed, writeCount } from './_support.mjs';

/** What the data-add row's baseline runs at once: 4 curls, each posting its share on one connection. */
const CONCURRENCY = 4;

if (process.argv[2] === '--node-client') {
  await postBodies(process.argv[3], Number(process.argv[4]));
  process.exit(0);
}

requireBuild();
const [total = 100_000, runs = 5] = process.argv.slice(2).map(Number);
const dir = tempDir();
const emulator = await startEmulator(['--processing-delay', '1h']);
try {
  const input = join(dir, 'objects.jsonl');
  writeCount(input, total, objectLine);
  // The bodies csafe sends (body-N.json), and the curl config files that post them.
  const curlConfigs = curlAddConfigs(dir, total, emulator);
  const requests = Math.ceil(total / ADD_BATCH);
  const curl = `${curlConfigs.map((config, index) => `curl -K '${config}' & p${index}=$!`).join('; ')}; ${curlConfigs.map((_, index) => `wait $p${index}`).join(' && ')}`;
  const self = fileURLToPath(import.meta.url);
  const fresh = (command, args) => async () => (await emulator.reset(), timed(command, args, { env: emulator.env }));
  const variants = [
    { name: 'curl, 4 in parallel', run: fresh('sh', ['-c', curl]) },
    { name: 'bare Node client', run: fresh(process.execPath, [self, '--node-client', dir, String(requests)]) },
    { name: 'csafe data add --skip-invalid', run: fresh(process.execPath, [BIN, 'data', 'add', 'bench', input, '--skip-invalid', join(dir, 'invalid.jsonl')]) },
    { name: 'csafe data add', run: fresh(process.execPath, [BIN, 'data', 'add', 'bench', input]) },
  ];
  const samples = await interleave(variants, runs, { warmup: 1 });
  console.log(`${total.toLocaleString('en')} objects in ${requests} requests of ${ADD_BATCH}, ${CONCURRENCY} at a time, ${runs} runs interleaved; throughput ÷ curl's, per round:`);
  printAgainstFirst(variants, samples);
} finally {
  await emulator.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** The bare client: reads the bodies, then posts them CONCURRENCY at a time on kept-alive connections. */
async function postBodies(dir, count) {
  const base = new URL(process.env.CSAFE_BASE_URL);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const bodies = Array.from({ length: count }, (_, index) => readFileSync(join(dir, `body-${index}.json`)));
  const post = (body) => new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path: '/v1/data/bench', method: 'POST', agent, headers: { authorization: `Bearer ${process.env.CSAFE_API_KEY}`, 'content-type': 'application/json', 'content-length': body.length } });
    req.on('error', reject);
    req.on('response', (response) => {
      if (response.statusCode !== 202) reject(new Error(`POST answered ${response.statusCode}`));
      response.resume();
      response.on('end', resolve);
    });
    req.end(body);
  });
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) await post(bodies[next++]);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
}
