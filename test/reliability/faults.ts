import type { Aim, Row } from './rows.js';

// The columns of the fault matrix: each fault as the emulator is told to place it on a row's
// request, and what the retry policy promises for it whatever the command.

/** How long a held answer waits: well past the --request-timeout the matrix runs with (3 s). */
const HELD_MS = 6_000;

/** What a fault does to the request it meets, as the client can know it. */
type Promised =
  /** No fault: the baseline each row's retries are counted against. */
  | 'none'
  /** Not processed, and the service says so (429, 503): retried, then the command succeeds. */
  | 'retried'
  /** Refused (401): the run stops at once, exit 3. */
  | 'refused'
  /** May have been processed, or cannot be told: the outcome depends on whether the request may be replayed. */
  | 'depends';

export interface Column {
  name: string;
  promise: Promised;
  /** Whether the column has a cell for this row. */
  applies(row: Row): boolean;
  /** The emulator's fault script for the row (POST /_emulator/faults), or quirks (POST /_emulator/quirks). */
  place(row: Row): { faults?: unknown[]; quirks?: Record<string, number> };
  /** The requests whose count says how many times the faulted one was tried. */
  aimOf(row: Row): Aim;
}

const atService = (name: string, kind: string, promise: Promised, extra: Record<string, unknown> = {}): Column => ({
  name,
  promise,
  applies: () => true,
  place: (row) => ({ faults: [{ kind, ...row.aim, ...extra }] }),
  aimOf: (row) => row.aim,
});

export const COLUMNS: readonly Column[] = [
  { name: 'no fault', promise: 'none', applies: () => true, place: () => ({}), aimOf: (row) => row.aim },
  atService('429, Retry-After: 1', '429', 'retried', { retry_after: 'seconds' }),
  atService('429, Retry-After: HTTP date', '429', 'retried', { retry_after: 'date' }),
  atService('503', '503', 'retried'),
  atService('502 (an HTML page)', '502', 'depends'),
  atService('500', '500', 'depends'),
  atService('408', '408', 'depends'),
  atService('reset before processing', 'drop', 'depends'),
  atService('reset after processing', 'reset', 'depends'),
  atService('slower than --request-timeout', 'timeout', 'depends', { delay_ms: HELD_MS }),
  atService('unreadable 2xx', 'garbage', 'depends'),
  {
    name: 'upload cut mid-body',
    promise: 'depends',
    applies: (row) => row.upload !== undefined,
    place: (row) => ({ faults: [{ kind: 'cut', ...row.upload }] }),
    aimOf: (row) => row.upload!,
  },
  {
    name: 'expired upload address',
    promise: 'depends',
    applies: (row) => row.upload !== undefined,
    place: () => ({ quirks: { expired_upload_urls: 1 } }),
    aimOf: (row) => row.upload!,
  },
  {
    name: 'expired download address',
    promise: 'depends',
    applies: (row) => row.download !== undefined,
    place: () => ({ quirks: { expired_download_urls: 1 } }),
    aimOf: (row) => row.download!,
  },
  {
    name: 'key refused mid-run',
    promise: 'refused',
    applies: () => true,
    place: (row) => ({ faults: [{ kind: '401', ...row.aim, skip: row.refusedAfter ?? 0, times: 100 }] }),
    aimOf: (row) => row.aim,
  },
];
