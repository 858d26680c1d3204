// What webhook delivery costs the emulator in a burst: `csafe data add` of many objects to three
// emulators, one with no endpoint (the baseline), one whose endpoint never answers, one whose
// endpoint answers 204 at once, run interleaved. Per emulator: the median wall time of the adds,
// its ratio to the baseline's, the events delivered and dropped once delivery has settled, and
// the emulator's peak RSS (VmHWM). Each add's objects are one workflow event each.
// Usage: npm run bench -- webhooks-burst, or node bench/webhooks-burst.mjs [objects=5000] [runs=5]
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { BIN, interleave, requireTool, smallObject, startEmulator, tempDir, timed, writeCount } from './_support.mjs';

const objects = Number(process.argv[2] ?? 5000);
const runs = Number(process.argv[3] ?? 5);
requireTool('/usr/bin/time', 'apt-get install time');

const dir = tempDir();
const file = join(dir, 'objects.jsonl');
writeCount(file, objects, smallObject);

/** A receiver on a loopback port: `answer` decides whether it answers 204 at once or never. */
async function receiver(answer) {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      if (answer) res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, received: () => received, close() {
      server.closeAllConnections();
      server.close();
    } };
}

const peakRssMiB = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const hanging = await receiver(false);
const healthy = await receiver(true);
const setups = [
  { name: 'no endpoint (baseline)', args: [] },
  { name: 'an endpoint that never answers', args: ['--webhook-url', hanging.url], receiver: hanging },
  { name: 'an endpoint that answers 204 at once', args: ['--webhook-url', healthy.url], receiver: healthy },
];
try {
  for (const setup of setups) setup.emulator = await startEmulator(['--data-dir', join(dir, `data-${setups.indexOf(setup)}`), ...setup.args]);
  const samples = await interleave(
    setups.map((setup) => ({ run: () => timed(process.execPath, [BIN, '-q', 'data', 'add', 'burst', file], { env: { ...setup.emulator.env, CSAFE_CONFIG_DIR: dir } }) })),
    runs,
  );
  // Delivery has settled when the receiver that answers has had every event not dropped.
  const sent = objects * runs;
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(250)) {
    const { dropped } = await setups[2].emulator.api('GET', '/_emulator/webhooks/endpoints');
    if (healthy.received() + dropped >= sent) break;
  }
  const baseline = median(samples[0].map((sample) => sample.seconds));
  console.log(`\n${runs} × \`csafe data add\` of ${objects.toLocaleString('en')} objects to each emulator, interleaved; ${sent.toLocaleString('en')} events each\n`);
  console.log('| emulator | data add median s (min–max) | ratio to no endpoint | received by the endpoint | dropped | emulator peak RSS MiB |\n|---|---|---|---|---|---|');
  for (const [index, setup] of setups.entries()) {
    const seconds = samples[index].map((sample) => sample.seconds);
    const { dropped } = await setup.emulator.api('GET', '/_emulator/webhooks/endpoints');
    const received = setup.receiver?.received() ?? '—';
    console.log(`| ${setup.name} | ${median(seconds).toFixed(2)} (${Math.min(...seconds).toFixed(2)}–${Math.max(...seconds).toFixed(2)}) | ${(median(seconds) / baseline).toFixed(2)}× | ${received} | ${dropped} | ${peakRssMiB(setup.emulator.pid).toFixed(0)} |`);
  }
} finally {
  await Promise.all(setups.map((setup) => setup.emulator?.stop()));
  hanging.close();
  healthy.close();
  rmSync(dir, { recursive: true, force: true });
}
