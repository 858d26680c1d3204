// The rows of `npm run bench`, one per figure of the README's Performance table: each runs csafe and its
// baseline interleaved and returns what its line of bench/results.md shows.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatBytes, formatMiB, formatSeconds, formatTarget, meets, roundRatios, summary } from './_report.mjs';
import {
  BIN,
  CommandFailed,
  eventLine,
  interleave,
  kilobyteObject,
  requireDisk,
  smallObject,
  startEmulator,
  tempDir,
  timed,
  tinyObject,
  writeCount,
  writeLines,
} from './_support.mjs';

const GiB = 2 ** 30;
const MB = 1e6;
/** How flat a peak RSS must stay from the small size to the large one to count as flat. */
const FLAT = { op: '<=', value: 1.1 };
const count = (n) => n.toLocaleString('en');
const rate = (perSecond, unit) => `${perSecond >= 100 ? count(Math.round(perSecond)) : perSecond.toFixed(1)} ${unit}`;
const maxRss = (...sampleLists) => Math.max(...sampleLists.flat().map((sample) => sample.rssMiB));
const seconds = (samples) => samples.map((sample) => sample.seconds);
const medianOf = (values) => summary(values).median;

/**
 * What the rows share in one invocation: a temporary directory (inputs, CSAFE_CONFIG_DIR, the cwd
 * of csafe), emulators by their flags, inputs by name, and samples a later row reuses (import-rss
 * those of import-1k and import-60mb; emu-events those of events-live). close() removes it all.
 */
export class Bench {
  constructor({ scale = 1, runs } = {}) {
    this.scale = scale;
    this.fixedRuns = runs;
    this.dir = tempDir();
    this.emulators = new Map();
    this.inputs = new Map();
    this.samples = new Map();
  }

  /**
   * ≥ 20 runs for a start-up (a few tens of ms each), ≥ 11 for a row whose rounds swing most (one
   * of about a second, where the emulator's disk moves a single round by a fifth either way; or
   * one whose client and emulator share the cores for seconds, as `data-add`'s do: 0.70× and
   * 0.91× minutes apart), ≥ 5 for the rest, unless --runs says otherwise.
   */
  runs(kind) {
    return this.fixedRuns ?? { startup: 20, swinging: 11 }[kind] ?? 5;
  }

  size(full) {
    return Math.max(1, Math.round(full * this.scale));
  }

  async emulator(...args) {
    const key = args.join(' ');
    if (!this.emulators.has(key)) this.emulators.set(key, await startEmulator(args));
    return this.emulators.get(key);
  }

  /** An input file made once per invocation by `write(path)`, which returns its size in bytes. */
  input(name, write) {
    if (!this.inputs.has(name)) {
      const path = join(this.dir, name);
      const started = performance.now();
      const bytes = write(path);
      console.log(`  (wrote ${name}: ${formatBytes(bytes)} in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
      this.inputs.set(name, { path, bytes });
    }
    return this.inputs.get(name);
  }

  /** A JSONL file of data objects of `lineBytes` (1000, 83 or 40), of `bytes` in all. */
  jsonl(bytes, lineBytes) {
    requireDisk(this.dir, bytes, `a ${formatBytes(bytes)} import file`);
    const line = { 1000: kilobyteObject, 83: smallObject, 40: tinyObject }[lineBytes];
    return this.input(`objects-${lineBytes}-${bytes}.jsonl`, (path) => writeLines(path, bytes, line).bytes);
  }

  events(total) {
    return this.input(`events-${total}.jsonl`, (path) => writeCount(path, total, eventLine));
  }

  /** Runs csafe (bin/csafe of this checkout, or `bin`: another's) under /usr/bin/time, its config directory empty. */
  csafe(args, { env = {}, bin = BIN, ...options } = {}) {
    return timed(process.execPath, [bin, ...args], { ...options, env: { CSAFE_CONFIG_DIR: this.dir, ...env } });
  }

  /** Samples kept for a later row of the same invocation. */
  keep(key, samples) {
    this.samples.set(key, samples);
    return samples;
  }

  async close() {
    await Promise.all([...this.emulators.values()].map((emulator) => emulator.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The usual line: csafe against a measured baseline, the ratio per round. */
function compared({ size, baseline, baselineSamples, csafeSamples, kind, target }) {
  const ratio = summary(roundRatios(seconds(baselineSamples), seconds(csafeSamples), kind));
  return {
    size,
    baseline,
    baselineMedian: formatSeconds(medianOf(seconds(baselineSamples))),
    csafeMedian: formatSeconds(medianOf(seconds(csafeSamples))),
    ratio,
    target: formatTarget(target),
    met: meets(target, ratio.median),
    rssMiB: maxRss(csafeSamples),
    runs: csafeSamples.length,
  };
}

const NODE_E0 = [process.execPath, ['-e', '0']];

function startupRow(name, figure, args, target) {
  return {
    name,
    figure,
    async measure(bench) {
      const [baselineSamples, csafeSamples] = await interleave(
        [{ run: () => timed(...NODE_E0) }, { run: () => bench.csafe(args) }],
        bench.runs('startup'),
        { warmup: 2 },
      );
      return compared({ size: '—', baseline: '`node -e 0`', baselineSamples, csafeSamples, kind: 'time', target });
    },
  };
}

const classifyOne = {
  name: 'classify-one',
  figure: 'one `csafe classify --text hi` to a running emulator',
  async measure(bench) {
    const emulator = await bench.emulator();
    const run = () => bench.csafe(['classify', '--text', 'hi', '--user-id', 'u1', '--json'], { env: emulator.env });
    const [baselineSamples, csafeSamples] = await interleave([{ run: () => timed(...NODE_E0) }, { run }], bench.runs('startup'), { warmup: 2 });
    return compared({ size: '1 request', baseline: '`node -e 0`', baselineSamples, csafeSamples, kind: 'time', target: { op: '<=', value: 2.5 } });
  },
};

/** `curl -T` of `file` to a fresh upload address; the emulator reset first, so one upload is on disk at a time. */
export async function curlUpload(emulator, file) {
  await emulator.reset();
  const { upload_url: url } = await emulator.api('POST', '/v1/data/bench/import');
  return timed('curl', ['-sSf', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: application/json', url]);
}

export async function csafeImport(bench, emulator, file, flags = [], bin = BIN) {
  await emulator.reset();
  return bench.csafe(['data', 'import', 'bench', file, '--json', ...flags], { env: emulator.env, bin });
}

/** The validated-import samples of a file, measured once per invocation (import-rss reuses them). */
function importRow(name, figure, { bytes, lineBytes, flags = [], target, runs = 'big' }) {
  return {
    name,
    figure,
    async measure(bench) {
      const size = bench.size(bytes);
      const { path } = bench.jsonl(size, lineBytes);
      const emulator = await bench.emulator('--processing-delay', '1h');
      const [baselineSamples, csafeSamples] = await interleave(
        [{ run: () => curlUpload(emulator, path) }, { run: () => csafeImport(bench, emulator, path, flags) }],
        bench.runs(runs),
      );
      if (flags.length === 0) bench.keep(`import-validated ${size} ${lineBytes}`, csafeSamples);
      await emulator.reset();
      const line = `${formatBytes(size)}, ${lineBytes === 1000 ? '1 kB' : `${lineBytes}-byte`} lines`;
      return compared({ size: line, baseline: '`curl -T` to a fresh upload URL', baselineSamples, csafeSamples, kind: 'rate', target });
    },
  };
}

/**
 * A memory row: csafe's peak RSS on the large input against the small one, round by round; flat
 * when the median ratio is within FLAT, and (with `ceilingMiB`) no run above that ceiling.
 */
function flatRss(small, large, { size, baseline, ceilingMiB }) {
  const rss = (samples) => samples.map((sample) => sample.rssMiB);
  const ratio = summary(rss(large).map((mib, round) => mib / rss(small)[round]));
  const peak = maxRss(small, large);
  const flat = `flat (${formatTarget(FLAT)})`;
  return {
    size,
    baseline,
    baselineMedian: formatMiB(medianOf(rss(small))),
    csafeMedian: formatMiB(medianOf(rss(large))),
    ratio,
    target: ceilingMiB === undefined ? flat : `≤ ${ceilingMiB} MiB, ${flat}`,
    met: meets(FLAT, ratio.median) && (ceilingMiB === undefined || peak <= ceilingMiB),
    rssMiB: peak,
    runs: large.length,
  };
}

const importRss = {
  name: 'import-rss',
  figure: 'validated `data import` peak RSS, small file → large file (flat?)',
  async measure(bench) {
    const sizes = [bench.size(60 * MB), bench.size(GiB)];
    const kept = sizes.map((size) => bench.samples.get(`import-validated ${size} 1000`));
    let [small, large] = kept;
    if (small === undefined || large === undefined) {
      const emulator = await bench.emulator('--processing-delay', '1h');
      const paths = sizes.map((size) => bench.jsonl(size, 1000).path);
      [small, large] = await interleave(paths.map((path) => ({ run: () => csafeImport(bench, emulator, path) })), bench.runs('big'));
      await emulator.reset();
    }
    return flatRss(small, large, {
      size: `${formatBytes(sizes[0])} → ${formatBytes(sizes[1])}, 1 kB lines`,
      baseline: `the same at ${formatBytes(sizes[0])}`,
      ceilingMiB: 120,
    });
  },
};

/** A live send of `path` at --concurrency 8 (as the README's figures were taken), with the emulator CPU it cost. */
async function liveSend(bench, emulator, path) {
  await emulator.reset();
  const before = await emulator.settledCpuSeconds();
  const sample = await bench.csafe(['events', 'send', path, '--concurrency', '8', '-q'], { env: emulator.env });
  return { ...sample, emulatorCpu: (await emulator.settledCpuSeconds()) - before };
}

const dryRun = (bench, path) => bench.csafe(['events', 'send', path, '--dry-run', '-q']);

/** An events row: `baseline` and `csafe` run on the same generated events, interleaved. */
function eventsRow(name, figure, { baseline, baselineRun, csafeRun, target }) {
  return {
    name,
    figure,
    async measure(bench) {
      const total = bench.size(1_000_000);
      const { path } = bench.events(total);
      const [baselineSamples, csafeSamples] = await interleave(
        [{ run: () => baselineRun(bench, path) }, { run: () => csafeRun(bench, path) }],
        bench.runs('big'),
      );
      bench.keep(`${name} ${total}`, csafeSamples);
      return compared({ size: `${count(total)} events`, baseline, baselineSamples, csafeSamples, kind: 'rate', target });
    },
  };
}

const eventsDry = eventsRow('events-dry', '`events send --dry-run`', {
  baseline: '`jq -c . > /dev/null`',
  baselineRun: (_, path) => timed('jq', ['-c', '.', path]),
  csafeRun: dryRun,
  target: { op: '>=', value: 2 },
});

const eventsLive = eventsRow('events-live', '`events send` live to the emulator (--concurrency 8)', {
  baseline: '`events send --dry-run`, same run',
  baselineRun: dryRun,
  csafeRun: async (bench, path) => liveSend(bench, await bench.emulator(), path),
  target: { op: '>=', value: 0.5 },
});

const emuEvents = {
  name: 'emu-events',
  figure: 'emulator events ingestion (events per CPU-second of the emulator)',
  async measure(bench) {
    const total = bench.size(1_000_000);
    let samples = bench.samples.get(`events-live ${total}`);
    if (samples === undefined) {
      const { path } = bench.events(total);
      const emulator = await bench.emulator();
      [samples] = await interleave([{ run: () => liveSend(bench, emulator, path) }], bench.runs('big'));
      await emulator.reset();
    }
    const clientRates = samples.map((sample) => total / sample.seconds);
    const emulatorRates = samples.map((sample) => total / sample.emulatorCpu);
    const ratio = summary(emulatorRates.map((emulatorRate, round) => emulatorRate / clientRates[round]));
    const target = { op: '>=', value: 2 };
    return {
      size: `${count(total)} events`,
      baseline: "the client's live rate (events-live runs)",
      baselineMedian: rate(medianOf(clientRates), 'events/s'),
      csafeMedian: rate(medianOf(emulatorRates), 'events/CPU-s'),
      ratio,
      target: formatTarget(target),
      met: meets(target, ratio.median),
      rssMiB: undefined,
      runs: samples.length,
    };
  },
};

const BATCH_LINES = 2000;
export const LATENCY_MS = 50;

/** The batch rows' input: BATCH_LINES lines to classify, not scaled (the rows' baseline is computed from their count). */
export const batchInput = (bench) =>
  bench.input(`classify-${BATCH_LINES}.jsonl`, (file) => writeCount(file, BATCH_LINES, (n) => `{"text":"listing ${n}: road bike, barely used","content_id":"c${n}"}\n`));

function batchRow(concurrency) {
  return {
    name: `batch-${concurrency}`,
    figure: `\`classify --batch\`, emulator --latency ${LATENCY_MS}, --concurrency ${concurrency}`,
    async measure(bench) {
      const { path } = batchInput(bench);
      const emulator = await bench.emulator('--latency', String(LATENCY_MS));
      const ideal = (BATCH_LINES * LATENCY_MS) / 1000 / concurrency;
      const target = { op: '<=', value: 1.15 };
      const line = { size: `${count(BATCH_LINES)} lines`, baseline: 'ideal N × latency ÷ concurrency', baselineMedian: formatSeconds(ideal), target: formatTarget(target) };
      const run = async () => (await emulator.reset(), bench.csafe(['classify', '--batch', path, '--user-id', 'u1', '--concurrency', String(concurrency)], { env: emulator.env }));
      let samples;
      try {
        [samples] = await interleave([{ run }], bench.runs('big'));
      } catch (error) {
        const most = error instanceof CommandFailed && error.code === 2 ? /--concurrency: expected at most (\d+)/.exec(error.stderr)?.[1] : undefined;
        if (most === undefined) throw error;
        return { ...line, csafeMedian: `refused: max ${most}`, ratio: undefined, met: false, rssMiB: undefined, runs: 0 };
      }
      const ratio = summary(seconds(samples).map((s) => s / ideal));
      return { ...line, csafeMedian: formatSeconds(medianOf(seconds(samples))), ratio, met: meets(target, ratio.median), rssMiB: maxRss(samples), runs: samples.length };
    },
  };
}

export const objectLine = (n) => `{"id":"obj_${n}","title":"listing ${n}","body":"road bike number ${n}, barely used, collection only"}\n`;
export const ADD_BATCH = 100;
export const addInput = (bench, total) => bench.input(`add-${total}.jsonl`, (file) => writeCount(file, total, objectLine));

/**
 * The bodies csafe sends for `data add` (100 objects each, its default), split over 4 curl
 * config files: 4 curls in parallel, each posting its share one after another on one connection.
 */
export function curlAddConfigs(dir, total, emulator) {
  const configs = [[], [], [], []];
  for (let first = 0, batch = 0; first < total; first += ADD_BATCH, batch++) {
    const objects = [];
    for (let n = first; n < Math.min(total, first + ADD_BATCH); n++) objects.push(objectLine(n).trimEnd());
    const body = join(dir, `body-${batch}.json`);
    writeFileSync(body, `{"data":[${objects.join(',')}]}`);
    configs[batch % 4].push(
      `url = "${emulator.base_url}/v1/data/bench"`,
      `header = "Authorization: Bearer ${emulator.api_key}"`,
      'header = "Content-Type: application/json"',
      `data-binary = "@${body}"`,
      'output = "/dev/null"',
      'fail',
      'silent',
      'show-error',
      'next',
    );
  }
  return configs.map((lines, index) => {
    const path = join(dir, `curl-${index}.conf`);
    writeFileSync(path, lines.slice(0, -1).join('\n') + '\n');
    return path;
  });
}

const dataAdd = {
  name: 'data-add',
  figure: '`data add`',
  async measure(bench) {
    const total = bench.size(100_000);
    const { path } = addInput(bench, total);
    const emulator = await bench.emulator('--processing-delay', '1h');
    const bodies = tempDir();
    try {
      const configs = curlAddConfigs(bodies, total, emulator);
      const script = `${configs.map((config, index) => `curl -K '${config}' & p${index}=$!`).join('; ')}; ${configs.map((_, index) => `wait $p${index}`).join(' && ')}`;
      const [baselineSamples, csafeSamples] = await interleave(
        [
          { run: async () => (await emulator.reset(), timed('sh', ['-c', script])) },
          { run: async () => (await emulator.reset(), bench.csafe(['data', 'add', 'bench', path], { env: emulator.env })) },
        ],
        bench.runs('swinging'),
      );
      await emulator.reset();
      return compared({
        size: `${count(total)} objects`,
        baseline: 'curl posting the same bodies, 4 in parallel',
        baselineSamples,
        csafeSamples,
        kind: 'rate',
        target: { op: '>=', value: 0.8 },
      });
    } finally {
      rmSync(bodies, { recursive: true, force: true });
    }
  },
};

const dataAddWaitRss = {
  name: 'data-add-wait-rss',
  figure: '`data add --wait` peak RSS at two sizes (flat?)',
  async measure(bench) {
    const sizes = [bench.size(10_000), bench.size(100_000)];
    const paths = sizes.map((total) => addInput(bench, total).path);
    const emulator = await bench.emulator('--processing-delay', '0');
    const run = (path) => async () => (await emulator.reset(), bench.csafe(['data', 'add', 'bench', path, '--wait'], { env: emulator.env }));
    const [small, large] = await interleave(paths.map((path) => ({ run: run(path) })), bench.runs('big'));
    await emulator.reset();
    return flatRss(small, large, { size: `${count(sizes[0])} → ${count(sizes[1])} objects`, baseline: `the same at ${count(sizes[0])} objects` });
  },
};

const TERMINAL = new Set(['succeeded', 'failed']);

/** Seconds from `since` until the import request is succeeded (polled every 20 ms); a failed import throws. */
async function processed(emulator, requestId, since) {
  for (;;) {
    const { status } = await emulator.api('GET', `/v1/data/bench/requests/${requestId}`);
    if (TERMINAL.has(status)) {
      if (status !== 'succeeded') throw new Error(`the emulator's import ${requestId} ended ${status}`);
      return (performance.now() - since) / 1000;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const emuImport = {
  name: 'emu-import',
  figure: 'emulator import processing, 83-byte lines (upload done → status terminal)',
  async measure(bench) {
    const size = bench.size(GiB);
    const { path, bytes } = bench.jsonl(size, 83);
    const emulator = await bench.emulator('--processing-delay', '0');
    const run = async () => {
      await emulator.reset();
      const { upload_url: url, requestId } = await emulator.api('POST', '/v1/data/bench/import');
      await timed('curl', ['-sSf', '-o', '/dev/null', '-T', path, '-H', 'Content-Type: application/json', url]);
      return { seconds: await processed(emulator, requestId, performance.now()) };
    };
    const [samples] = await interleave([{ run }], bench.runs('big'));
    await emulator.reset();
    const rates = seconds(samples).map((s) => bytes / MB / s);
    const TARGET_MBS = 150;
    const target = { op: '>=', value: 1 };
    const ratio = summary(rates.map((mbs) => mbs / TARGET_MBS));
    return {
      size: `${formatBytes(size)}, 83-byte lines`,
      baseline: `${TARGET_MBS} MB/s (the issue's floor)`,
      baselineMedian: `${TARGET_MBS} MB/s`,
      csafeMedian: `${medianOf(rates).toFixed(0)} MB/s`,
      ratio,
      target: `${formatTarget(target)} (≥ ${TARGET_MBS} MB/s)`,
      met: meets(target, ratio.median),
      rssMiB: undefined,
      runs: samples.length,
    };
  },
};

/**
 * What --checkpoint costs now that it is written as acknowledgements arrive (each slot or lane
 * waits for its acknowledgement to be on disk before its next request): the same live run with and
 * without it, interleaved, against one emulator; a fresh checkpoint every run.
 */
function checkpointRow(name, figure, { input, unit, args }) {
  return {
    name,
    figure,
    async measure(bench) {
      const { path, total } = input(bench);
      const emulator = await bench.emulator('--processing-delay', '1h');
      const checkpoint = join(bench.dir, `${name}.state.json`);
      const run = (extra) => async () => {
        await emulator.reset();
        rmSync(checkpoint, { force: true });
        return bench.csafe([...args(path), ...extra], { env: emulator.env });
      };
      const [baselineSamples, csafeSamples] = await interleave([{ run: run([]) }, { run: run(['--checkpoint', checkpoint]) }], bench.runs('big'));
      await emulator.reset();
      return compared({ size: `${count(total)} ${unit}`, baseline: 'the same command without --checkpoint, same run', baselineSamples, csafeSamples, kind: 'rate', target: { op: '>=', value: 0.8 } });
    },
  };
}

const eventsCheckpoint = checkpointRow('events-checkpoint', '`events send --checkpoint` (--concurrency 8)', {
  input: (bench) => {
    const total = bench.size(200_000);
    return { ...bench.events(total), total };
  },
  unit: 'events',
  args: (path) => ['events', 'send', path, '--concurrency', '8', '-q'],
});

const dataAddCheckpoint = checkpointRow('data-add-checkpoint', '`data add --checkpoint`', {
  input: (bench) => {
    const total = bench.size(100_000);
    return { ...addInput(bench, total), total };
  },
  unit: 'objects',
  args: (path) => ['data', 'add', 'bench', path],
});

/** Every row, in the order of the issue's table and of bench/results.md. */
export const ROWS = [
  startupRow('version', '`csafe --version`', ['--version'], { op: '<=', value: 1.25 }),
  startupRow('help', '`csafe --help`', ['--help'], { op: '<=', value: 1.5 }),
  startupRow('classify-help', '`csafe classify --help`', ['classify', '--help'], { op: '<=', value: 1.5 }),
  classifyOne,
  importRow('import-1k', '`data import`, validated', { bytes: GiB, lineBytes: 1000, target: { op: '>=', value: 0.85 } }),
  importRow('import-83', '`data import`, validated', { bytes: GiB, lineBytes: 83, target: { op: '>=', value: 0.85 } }),
  importRow('import-40', '`data import`, validated, short lines', { bytes: 250 * MB, lineBytes: 40, target: { op: '>=', value: 0.85 }, runs: 'swinging' }),
  importRow('import-novalidate', '`data import --no-validate`', { bytes: GiB, lineBytes: 1000, flags: ['--no-validate'], target: { op: '>=', value: 0.95 } }),
  importRow('import-60mb', '`data import`, validated, a small file', { bytes: 60 * MB, lineBytes: 1000, target: { op: '>=', value: 0.6 }, runs: 'swinging' }),
  importRss,
  eventsDry,
  eventsLive,
  eventsCheckpoint,
  batchRow(16),
  batchRow(64),
  batchRow(256),
  dataAdd,
  dataAddCheckpoint,
  dataAddWaitRss,
  emuImport,
  emuEvents,
];
