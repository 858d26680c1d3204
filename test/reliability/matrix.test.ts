import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { pathMatches } from '../../src/emulator/http/path-pattern.js';
import { startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { COLUMNS, type Column } from './faults.js';
import { failedFile, ROWS, unconfirmedFile, type Aim, type Cell, type Records, type Row } from './rows.js';

// The fault matrix (test/reliability/README.md): every command that talks to the service (ROWS)
// run as a user would, in process, against an emulator told to place one fault (COLUMNS) on the
// request that matters. Each cell asserts what holds whatever the command: a fault the service
// says it did not process is retried to success; a refused key stops the run with exit 3; no stack
// trace; every record delivered once or kept in the failed or unconfirmed file; nothing created
// twice. What each cell ended in is written to docs/reliability.md, and this test fails when the
// file says otherwise (CSAFE_WRITE_RELIABILITY=1 writes it).

const DOC = fileURLToPath(new URL('../../../docs/reliability.md', import.meta.url));
const BEGIN = '<!-- fault matrix: made by test/reliability/matrix.test.ts -->';
const END = '<!-- end of the fault matrix -->';

/** Emulators the cells share, one cell at a time each: a reset between cells makes each a fresh service. */
const POOL_SIZE = 6;
/** The client's settings in every cell: a request timeout a loaded machine's answers stay well inside, and the held answer of a timeout (6 s) outlasts. */
const CLIENT_FLAGS = ['--request-timeout', '3s', '--max-retries', '2'];
/** The documented exit codes a cell may end in: success, failure, refused credentials, partial. */
const EXIT_CODES = new Set([0, 1, 3, 5]);
/** Faults after which the service has done the work although the client got no good answer. */
const PROCESSED_FAULTS = new Set(['500', 'reset', 'timeout', 'garbage']);

interface LogEntry {
  method: string;
  path: string;
  status: number;
  fault: string | null;
  time: string;
}

interface Observed {
  code: number;
  stdout: string;
  stderr: string;
  /** The requests matching the faulted one, in order. */
  tries: LogEntry[];
  failed: string[];
  unconfirmed: string[];
  delivered: string[];
}

interface CellResult {
  row: Row;
  column: Column;
  observed?: Observed;
  problems: string[];
}

describe('the fault matrix: every command × every fault', () => {
  const pool: EmulatorProcess[] = [];
  const results: CellResult[] = [];

  before(async () => {
    pool.push(...(await Promise.all(Array.from({ length: POOL_SIZE }, () => startEmulatorProcess(['--processing-delay', '0'])))));
    const cells = ROWS.flatMap((row) => COLUMNS.filter((column) => column.applies(row)).map((column) => ({ row, column })));
    let next = 0;
    await Promise.all(
      pool.map(async (emulator) => {
        while (next < cells.length) {
          const { row, column } = cells[next++]!;
          results.push(await runCell(row, column, emulator).catch((error: unknown) => ({ row, column, problems: [`the cell could not run: ${String(error)}`] })));
        }
      }),
    );
  });
  after(() => Promise.all(pool.map((emulator) => emulator.stop())));

  for (const row of ROWS) {
    it(row.name, () => {
      const problems = results.filter((result) => result.row === row).flatMap((result) => result.problems.map((problem) => `${result.column.name}: ${problem}`));
      assert.deepEqual(problems, []);
    });
  }

  it('docs/reliability.md holds the matrix as this run made it', () => {
    const table = matrixTable(results);
    const text = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '';
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    assert.ok(start >= 0 && end > start, `${DOC} has no fault matrix between its markers`);
    const written = text.slice(start + BEGIN.length, end).trim();
    if (process.env.CSAFE_WRITE_RELIABILITY === '1') {
      writeFileSync(DOC, `${text.slice(0, start + BEGIN.length)}\n${table}\n${text.slice(end)}`);
      return;
    }
    assert.equal(written, table, 'docs/reliability.md is stale: run `npm run docs:reliability` and commit it');
  });
});

async function runCell(row: Row, column: Column, emulator: EmulatorProcess): Promise<CellResult> {
  await emulator.control('/_emulator/reset', { method: 'POST' });
  const cell: Cell = { emulator, dir: tempDir('csafe-matrix-'), ids: {} };
  await row.setup?.(cell);
  await place(emulator, column.place(row));
  await emulator.control('/_emulator/requests', { method: 'DELETE' });
  const stop = new AbortController();
  const run = runInProcess([...CLIENT_FLAGS, ...row.args(cell)], { env: emulator.env, signal: stop.signal, ...(row.input !== undefined && { input: row.input }) });
  if (row.serveUntil !== undefined) await row.serveUntil(cell, run).finally(() => stop.abort('SIGINT'));
  const result = await run;
  const log = (await emulator.requests()) as unknown as LogEntry[];
  const observed: Observed = {
    code: result.code ?? -1,
    stdout: result.stdout,
    stderr: result.stderr,
    tries: log.filter((entry) => matches(column.aimOf(row), entry)),
    failed: keysIn(row, failedFile(cell)),
    unconfirmed: keysIn(row, unconfirmedFile(cell)),
    delivered: row.records === undefined ? [] : await row.records.delivered(cell, result.stdout),
  };
  return { row, column, observed, problems: problemsOf(row, column, observed, cell) };
}

async function place(emulator: EmulatorProcess, placed: ReturnType<Column['place']>): Promise<void> {
  if (placed.faults !== undefined) {
    const answer = (await emulator.control('/_emulator/faults', { method: 'POST', body: { faults: placed.faults } })) as { faults?: unknown };
    assert.ok(Array.isArray(answer.faults), `the emulator took the fault script: ${JSON.stringify(answer)}`);
  }
  if (placed.quirks !== undefined) await emulator.control('/_emulator/quirks', { method: 'POST', body: placed.quirks });
}

const matches = (aim: Aim, entry: LogEntry) => entry.method === aim.method && pathMatches(aim.path, entry.path);

function keysIn(row: Row, path: string): string[] {
  if (row.records === undefined || !existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  return lines.map((line) => row.records!.keyOf(JSON.parse(line) as Record<string, unknown>));
}

/**
 * What a cell ended in, as the matrix shows it: the exit code, then the retries (the faulted
 * request's tries beyond those of the same command with no fault) and the records not delivered.
 */
function outcomeOf(observed: Observed | undefined, baseline: Observed | undefined): string {
  if (observed === undefined || baseline === undefined) return 'could not run';
  const notes: string[] = [];
  const retries = observed.tries.length - baseline.tries.length;
  if (retries > 0) notes.push(`${retries} ${retries === 1 ? 'retry' : 'retries'}`);
  if (observed.failed.length > 0) notes.push(`${observed.failed.length} failed`);
  if (observed.unconfirmed.length > 0) notes.push(`${observed.unconfirmed.length} unconfirmed`);
  return notes.length === 0 ? String(observed.code) : `${observed.code} (${notes.join(', ')})`;
}

function problemsOf(row: Row, column: Column, observed: Observed, cell: Cell): string[] {
  const problems: string[] = [];
  const expect = (holds: boolean, problem: string) => void (holds || problems.push(problem));
  const said = `exit ${observed.code}; stderr: ${JSON.stringify(observed.stderr.slice(0, 600))}`;
  expect(EXIT_CODES.has(observed.code), `an exit code outside the documented ones: ${said}`);
  expect(!/^\s+at |\b(TypeError|ReferenceError|SyntaxError|RangeError)\b/m.test(observed.stderr), `a stack trace or a crash: ${said}`);
  if (column.promise === 'retried') {
    expect(observed.code === 0, `a fault the service did not process ends in success after a retry: ${said}`);
    if (!row.unlogged) expect(observed.tries.length >= 2, `the faulted request was retried (tried ${observed.tries.length} times)`);
    if (column.name.startsWith('429') && observed.tries.length >= 2) {
      // The faulted request's retry is among those after it; other records' requests may come between.
      const waited = Date.parse(observed.tries.at(-1)!.time) - Date.parse(observed.tries.find((entry) => entry.fault !== null)!.time);
      expect(waited >= 900, `Retry-After was honoured (the last try came ${waited} ms after the 429)`);
    }
  }
  if (row.servedOnce !== undefined && observed.code === 0) expect(row.servedOnce(observed.stdout), `a server stopped after its work shows it done once: ${JSON.stringify(observed.stdout.slice(0, 400))}`);
  if (column.promise === 'none') expect(observed.code === 0 && observed.failed.length + observed.unconfirmed.length === 0, `with no fault, everything succeeds: ${said}`);
  if (column.promise === 'refused') expect(observed.code === 3, `a refused key is exit 3: ${said}`);
  if (observed.code !== 0 && row.records === undefined) {
    const errors = observed.stderr.split('\n').filter((line) => line.startsWith('error:')).length;
    expect(errors === 1, `a failure is one line starting "error:" (${errors} such lines): ${said}`);
  }
  for (const [kind, keys, path] of [['failed', observed.failed, failedFile(cell)], ['unconfirmed', observed.unconfirmed, unconfirmedFile(cell)]] as const) {
    if (keys.length > 0) expect(observed.stderr.includes(path), `the ${kind} file is named on stderr: ${said}`);
  }
  if (row.creates) {
    const applied = observed.tries.filter((entry) => (entry.status >= 200 && entry.status < 300 && entry.fault === null) || PROCESSED_FAULTS.has(entry.fault ?? ''));
    expect(applied.length <= 1, `created once at most (the service applied ${applied.length} of the requests)`);
  }
  if (row.records !== undefined) problems.push(...accountingProblems(row.records, observed));
  return problems;
}

/** Every record delivered at most once, and delivered, failed or unconfirmed; a failed one (safe to resend) never delivered, unless a resend is no harm. */
function accountingProblems(records: Records, { delivered, failed, unconfirmed }: Observed): string[] {
  const problems: string[] = [];
  for (const key of records.keys) {
    const times = delivered.filter((held) => held === key).length;
    if (times > 1) problems.push(`record ${key} delivered ${times} times`);
    if (times === 0 && !failed.includes(key) && !unconfirmed.includes(key)) problems.push(`record ${key} lost: not delivered, not in the failed or unconfirmed file`);
    if (times > 0 && failed.includes(key) && !records.appliedOnce) problems.push(`record ${key} delivered and also in the failed file (a resend would send it twice)`);
  }
  return problems;
}

function matrixTable(results: readonly CellResult[]): string {
  const header = `| command | ${COLUMNS.map((column) => column.name).join(' | ')} |`;
  const rule = `|---|${COLUMNS.map(() => '---').join('|')}|`;
  const lines = ROWS.map((row) => {
    const resultOf = (column: Column) => results.find((result) => result.row === row && result.column === column);
    const baseline = resultOf(COLUMNS[0]!)?.observed;
    const cells = COLUMNS.map((column) => (column.applies(row) ? outcomeOf(resultOf(column)?.observed, baseline) : '·'));
    return `| \`${row.name}\` | ${cells.join(' | ')} |`;
  });
  const count = results.length;
  return [header, rule, ...lines, '', `${ROWS.length} commands × ${COLUMNS.length - 1} faults and the baseline: ${count} cells.`].join('\n');
}
