import { InterruptedError, mayHaveBeenApplied, stopsTheRun } from '../errors.js';
import { onLeavingAtOnce } from '../signals.js';
import type { FailedFile } from '../files/failed-file.js';
import type { IOStreams } from '../terminal/io.js';
import { countOf } from '../terminal/words.js';
import { batchLines, inBatches, type BatchLimits } from './batches.js';
import { mapInOrder, type Settled } from './concurrency.js';
import { FailFast } from './fail-fast.js';
import { Pace } from './pace.js';
import type { HttpClient } from '../http/client.js';
import { InFlight } from './in-flight.js';
import { runLanesInGroups } from './lanes.js';
import { deliveredWithoutCheckpointHint, sayAwaitedAnswersOnInterrupt } from '../cli/resume.js';
import { FileWriteError, remedyFor } from '../files/write-errors.js';
import type { BulkCounts } from './counts.js';

/**
 * The one pipeline of the bulk commands (data add, events send, stream parts, and those of one
 * request per line, line-requests.ts): records, already checked, are cut into batches, sent
 * through the run's FailFast with bounded concurrency, and each batch's outcome is settled by one rule:
 *
 * - acknowledged: counted as sent, handed to the command (to print it, to checkpoint it);
 * - its answer lost in a way that means the service may have applied it (see mayHaveBeenApplied),
 *   and the batch not safe to send twice: the unconfirmed file, never the failed one;
 * - any other failure, or held back once the run halted: the failed file, exactly as sent, safe
 *   to resend;
 * - a failure no batch could escape that is not a halt (a usage error, a record file or the
 *   checkpoint that cannot be written, the input that cannot be read): the run stops as Ctrl-C
 *   stops it, and the failure is thrown once the outcomes of the requests then in flight are settled.
 *
 * Ctrl-C or SIGTERM: reading stops and no batch is sent; those in flight are answered and
 * settled, so what the run then reports (and checkpoints) as acknowledged is all that was.
 * The command supplies the request, the test of replay safety and what it does with an answer.
 */
export interface BulkJob<T extends BulkRecord, A> {
  /** One record in the command's words: `object`, `event`, `part`, `line`. */
  noun: string;
  /** How messages name the input: a file, `stdin`. */
  inputName: string;
  /** Sends one batch: the service's answer, checked. */
  send(batch: T[]): Promise<A>;
  /** Whether the batch may be sent twice (the service applies it once): its lost answer then leaves it resendable. */
  replaySafe(batch: readonly T[]): boolean;
  /** Told of each batch the service acknowledged, in the order its answers are settled. */
  acknowledged?(batch: T[], answer: A): Promise<void> | void;
  /** Told of each batch it did not: its records are in the failed or the unconfirmed file. */
  notAcknowledged?(batch: readonly T[], file: 'failed' | 'unconfirmed', error: Error): void;
  /** Records that keep their order by a key (one user's events): once one fails, the later ones of its key are held back, to the failed file; `heldNote` says so in the failure's line. */
  order?: { keyOf(record: T): string; heldNote: string };
  /** Each record is a request of its own (classify): a failure names its line, not a batch of one. */
  sentAlone?: boolean;
  /** Ctrl-C: batches not sent go to the failed file (and reading goes on to the end), so the failed file and what was sent make up the input. */
  setAsideUnsent?: boolean;
  /**
   * The input is a pipe read as it goes, whose reading Ctrl-C stops (stopReadingAtHalt): the
   * records already read and not sent go to the failed file, as no second reading of the pipe
   * gives them again; only those not read are in no file, as the run then says.
   */
  setAsideUnsentRead?: boolean;
  /** Told once, when the run halts (FailFast): a command reading a pipe stops reading. */
  onHalt?(error: Error): void;
  /**
   * The input is a pipe read as it goes, which may never end (`tail -f log |`): a halt stops the
   * reading, as a failure that stops the run does. What was read is settled (to the failed file);
   * what followed is in no file. Else every line the pipe gives, for as long as it stays open,
   * would go to the failed file, and the run would never end.
   */
  stopReadingAtHalt?: boolean;
}

/** A record as the bulk pipeline carries it: the input line it came from and its text as sent. */
export interface BulkRecord {
  line: number;
  json: string;
}

/** How batches travel. */
export type Dispatch<T> =
  /** Any batch may be sent beside any other: up to `concurrency` at once, settled in input order, reading at most `window` batches ahead of the oldest unsettled one. */
  | { concurrency: number; window?: number }
  /** Records with the same lane go in input order, one batch at a time per lane; lanes run side by side (see lanes.ts). */
  | { lanes: number; laneOf(record: T): number; capacity?: number };

/** What a bulk run shares with its command: its counts, files, halt and signal. */
export interface BulkRun {
  io: IOStreams;
  counts: BulkCounts;
  /** Records not acknowledged, exactly as sent, so the file can be sent again as it is. */
  failed: FailedFile;
  /** Records whose answer was lost after the service may have applied them, and that are not safe to send twice. */
  unconfirmed: FailedFile;
  failFast: FailFast;
  signal: AbortSignal;
  /** Saved after each batch is settled, before the lane or slot takes its next batch: see CheckpointFile.save; saveNow when csafe leaves at once. */
  checkpoint?: { save(): Promise<void>; saveNow(): void };
  /** Told after each batch is settled (a spinner). */
  onProgress?(counts: BulkCounts): void;
  /** Told, last, when csafe leaves at once (a second Ctrl-C or SIGTERM), what it left: to say, synchronously, the command that continues the run. */
  leftAtOnce?(left: LeftAtOnce): void;
  /** The HTTP client's retries so far (HttpClient.retries), counted in `counts.retries`. */
  retriesMade(): number;
}

/**
 * A bulk run over `http`: its halt and pace from the shared flags (--max-consecutive-failures,
 * --max-rate), the retries the client counts, and the run's own counts, files and checkpoint. A
 * command whose batches are all safe to send twice gives no unconfirmed file: none is written.
 */
export function bulkRun(
  ctx: { io: IOStreams; signal: AbortSignal; now(): number; sleep(ms: number): Promise<void> },
  http: HttpClient,
  options: { maxConsecutiveFailures: number; maxRate?: number },
  run: Pick<BulkRun, 'counts' | 'failed' | 'checkpoint' | 'onProgress' | 'leftAtOnce'> & { unconfirmed?: FailedFile },
): BulkRun {
  return {
    io: ctx.io,
    signal: ctx.signal,
    failFast: new FailFast(options.maxConsecutiveFailures, http.baseUrl, new Pace(options.maxRate, ctx)),
    retriesMade: () => http.retries,
    ...run,
    unconfirmed: run.unconfirmed ?? run.failed,
  };
}

/**
 * What leaving at once left of the records the run took to send and had not settled, by input
 * line, once the files are written (the counts include what was written then). The records
 * settled before are acknowledged or in a file; those not read yet (see readAll) are in none.
 */
export interface LeftAtOnce {
  /** Neither acknowledged nor in a file: not sent, or sent and safe to send twice. What continues the run sends them (again). */
  notDone: number[];
  /** In the failed or the unconfirmed file: what continues the run must not send them from the input again. */
  inFiles: number[];
  /** Of inFiles, those in the unconfirmed file: sent, and not safe to send twice. */
  unconfirmed: number[];
  /** Whether every record of the input had been read: else the records after those read are in no file. */
  readAll: boolean;
  /** Whether the files (and the checkpoint) hold all that was to be written: a write that failed, or one still under way as csafe left, leaves no command line exact. */
  complete: boolean;
}

/** How a delivery ended: `interrupted` by Ctrl-C or SIGTERM, or halted by `stoppedBy`. */
export interface Delivered {
  interrupted: boolean;
  stoppedBy?: Error;
  /**
   * The records read (counts.read) when a halt or a failure stopped the reading before the input's
   * end (BulkJob.stopReadingAtHalt): each is settled or set aside, and those after them are in no
   * file. Counted then: a line the read under way gives later is read, but neither sent nor set aside.
   */
  readStoppedAfter?: number;
}

export async function deliverInBatches<T extends BulkRecord, A>(
  records: AsyncIterable<Iterable<T>>,
  batches: BatchLimits<T>,
  dispatch: Dispatch<T>,
  job: BulkJob<T, A>,
  run: BulkRun,
): Promise<Delivered> {
  const reading = { ended: false };
  const delivery = new Delivery(job, run, reading);
  const stopListening = sayAwaitedAnswersOnInterrupt(run.signal, run.io, delivery.inFlight);
  const stopLastWords = onLeavingAtOnce(() => delivery.leaveAtOnce());
  const input = readUntilStopped(records, delivery, run.signal, !job.setAsideUnsent, reading);
  try {
    if ('lanes' in dispatch) {
      const exposeWaiting = (waiting: () => T[]) => (delivery.readWaiting = () => [waiting()]);
      await runLanesInGroups(input, { ...dispatch, maxBatchItems: batches.maxItems, maxBatchBytes: batches.maxBytes, sizeOf: batches.sizeOf, flushAfterMs: batches.flushAfterMs, exposeWaiting }, (batch) => delivery.sendAndSettle(batch));
    } else {
      // With a checkpoint, an answer is on disk before a request starts in its place, and nothing
      // starts past a slow oldest batch (the window is the concurrency): answers waiting behind it
      // are neither printed nor checkpointed, and a kill -9 would have them sent again. So kill -9
      // leaves the checkpoint at most the requests in flight behind. Outcomes in at once share one write.
      const handOverFirst = run.checkpoint !== undefined;
      const window = handOverFirst ? dispatch.concurrency : dispatch.window;
      const exposeWaiting = (waiting: () => T[][]) => (delivery.readWaiting = waiting);
      const sent = mapInOrder(inBatches(input, { ...batches, exposeWaiting }), dispatch.concurrency, (batch) => delivery.request(batch), { window, handOverFirst });
      for await (const { item: batch, outcome, moreSettled } of sent) await delivery.settle(batch, outcome, [], !moreSettled);
    }
    delivery.throwIfStopped();
  } catch (error) {
    // Once the answers in flight are in: without a checkpoint, the same command sends again what this run delivered.
    await delivery.inFlight.settled();
    const delivered = run.counts.sent + run.counts.unconfirmed > 0;
    if (error instanceof FileWriteError && run.checkpoint === undefined && delivered) error.instead(deliveredWithoutCheckpointHint(remedyFor(error.reason), run.counts, job.noun));
    throw error;
  } finally {
    await delivery.inFlight.settled();
    stopListening();
    stopLastWords();
  }
  // The reader of stdout gone once every record had been read, and none kept from being sent by it
  // (as the last answers were printed), cut nothing short: the run ends as its counts say.
  const cutNothingShort = run.signal.reason === 'EPIPE' && reading.ended && !delivery.keptBack;
  const readStoppedAfter = reading.ended ? undefined : delivery.readWhenStopped;
  return { interrupted: run.signal.aborted && !cutNothingShort, stoppedBy: run.failFast.stoppedBy, ...(readStoppedAfter !== undefined && { readStoppedAfter }) };
}

class Delivery<T extends BulkRecord, A> {
  readonly inFlight = new InFlight();
  /** orderKey: the keys one of whose records was not acknowledged. */
  private readonly heldKeys = new Set<string>();
  /** Whether a signal kept some batch from being sent, or from its retry. */
  keptBack = false;
  /**
   * Batches taken to be sent whose outcome the job has not been told yet: waiting their turn
   * (--max-rate), sent, answered (waiting to be settled in input order, behind one still in
   * flight), or refused and being written to the failed file.
   */
  private readonly unsettled = new Map<T[], { stage: Stage }>();
  /** The records read and not yet in a batch taken to be sent (see taken), as batches: waiting in the lanes (the one read while a lane was full among them), or being cut. */
  readWaiting?: () => T[][];
  /** Every batch request() was given: one of readWaiting's that is here is accounted for in unsettled, or settled. */
  private readonly taken = new WeakSet<T[]>();
  /** Whether the job was told of an outcome (and so its checkpoint changed) since the run began: leaving at once saves it then. */
  private toldAny = false;
  private haltSaid = false;
  /** counts.read when reading was told to stop (see Delivered.readStoppedAfter). */
  readWhenStopped?: number;
  /** The last failure: records held back behind a failed one are set aside with it. */
  private failure?: Error;
  /**
   * The failure that stopped the run and is not a halt (see settle): from then on nothing is read
   * or sent, and it is thrown once what was in flight is settled. `alsoUnwritten`: other files
   * that then could not be written either, said before it.
   */
  private stoppedBy?: Error;
  private readonly alsoUnwritten = new Map<string, FileWriteError>();
  /** Told once reading is to stop (see readingStopped); each removes itself once it need not be told. */
  private readonly onReadingStop = new Set<() => void>();

  constructor(
    private readonly job: BulkJob<T, A>,
    private readonly run: BulkRun,
    private readonly reading: { ended: boolean },
  ) {}

  /** Sends the batch, unless Ctrl-C came first, or while it waited its turn (--max-rate): then it fails unsent (NotSentError). */
  request(batch: T[]): Promise<A> {
    this.taken.add(batch);
    // Unsent, it is still unsettled until its outcome is told: leaving at once meanwhile accounts for it.
    const taken: { stage: Stage } = { stage: 'waiting' };
    this.unsettled.set(batch, taken);
    if (this.stopped()) return Promise.reject(new NotSentError());
    const send = (sending: () => void) => {
      // The run stopped while it waited its turn (--max-rate): as Ctrl-C would, it keeps it unsent.
      if (this.stoppedByFailure()) throw new NotSentError();
      sending();
      taken.stage = 'sent';
      return this.job.send(batch);
    };
    return this.inFlight
      .run((sending) => this.run.failFast.send(() => send(sending)))
      .catch((error: unknown) => {
        throw taken.stage === 'waiting' && error instanceof InterruptedError ? new NotSentError() : error;
      })
      .finally(() => {
        if (taken.stage === 'sent') taken.stage = 'answered';
      });
  }

  /** A lane's batch: the records held back behind one of their key that failed go to the failed file unsent, the rest are sent. */
  async sendAndSettle(batch: T[]): Promise<void> {
    const keyOf = this.job.order?.keyOf;
    const held = keyOf === undefined || this.heldKeys.size === 0 ? [] : batch.filter((record) => this.heldKeys.has(keyOf(record)));
    const toSend = held.length === 0 ? batch : batch.filter((record) => !this.heldKeys.has(keyOf!(record)));
    await this.settle(toSend, toSend.length > 0 ? await settledOf(this.request(toSend)) : undefined, held);
  }

  /**
   * The one rule for what a batch's outcome means; `held`: records of a lane's batch held back
   * unsent, to the failed file with those of the batch that failed, in input order. `save`: the
   * checkpoint is written now (not when the next outcome, already in, will write it).
   */
  async settle(batch: T[], outcome: Settled<A> | undefined, held: T[] = [], save = true): Promise<void> {
    const { counts } = this.run;
    // A failure here stops the run, not the settling: the outcomes of the requests in flight still come, and each is settled.
    await this.tell(batch, outcome, held).catch((error: unknown) => this.stop(error));
    // Told, the job holds the outcome (in its checkpoint too): what is left to write at once is the checkpoint, not the batch.
    this.unsettled.delete(batch);
    this.toldAny = true;
    counts.retries = this.run.retriesMade();
    this.run.onProgress?.(counts);
    if (save) await this.run.checkpoint?.save().catch((error: unknown) => this.stop(error));
  }

  /** The outcome told: counted, and handed to the job or set aside (see settle). */
  private async tell(batch: T[], outcome: Settled<A> | undefined, held: T[]): Promise<void> {
    const { counts } = this.run;
    let failed = held;
    if (outcome?.ok) {
      counts.sent += batch.length;
      counts.requests++;
      await this.job.acknowledged?.(batch, outcome.value);
    } else if (outcome !== undefined && (await this.notAcknowledged(batch, outcome.error)) === 'failed') {
      // Its answer is in: leaving at once now, it is no unconfirmed record, and the write under way holds it.
      const taken = this.unsettled.get(batch);
      if (taken !== undefined) taken.stage = 'failed';
      failed = held.length === 0 ? batch : [...batch, ...held].sort((a, b) => a.line - b.line);
    }
    if (failed.length > 0) await this.setAside(failed, 'failed', this.failure ?? new Error('held back behind a failed record of its key'));
  }

  /** Has `listener` told once reading is to stop (see readingStopped); what it returns removes it. */
  whenReadingStops(listener: () => void): () => void {
    this.onReadingStop.add(listener);
    return () => this.onReadingStop.delete(listener);
  }

  /** Whether nothing more is to be read or sent: Ctrl-C or SIGTERM, or a failure stopped the run. */
  stopped(): boolean {
    return this.run.signal.aborted || this.stoppedByFailure();
  }

  /** Whether a failure stopped the run: reading stops then, even where after Ctrl-C it goes on to the end. */
  stoppedByFailure(): boolean {
    return this.stoppedBy !== undefined;
  }

  /** Whether nothing more is to be read: a failure stopped the run, or it halted reading a pipe (BulkJob.stopReadingAtHalt). */
  readingStopped(): boolean {
    return this.stoppedByFailure() || (this.job.stopReadingAtHalt === true && this.haltSaid);
  }

  /**
   * A failure no batch could escape that is not a halt stops the run: nothing more is read or sent
   * (a command reading as it goes is told, as of a halt). The first is the one thrown; a record
   * file it did not name, which could not be written either, counts its records in its own error.
   */
  stop(error: unknown): void {
    if (this.stoppedBy === undefined) {
      this.stoppedBy = error as Error;
      this.tellReadingStops();
      this.tellHalt(error as Error);
    } else if (error instanceof FileWriteError && error !== this.stoppedBy && !(this.stoppedBy instanceof FileWriteError && this.stoppedBy.path === error.path)) {
      this.alsoUnwritten.set(error.path, error);
    }
  }

  /** Once what was in flight is settled: the failure that stopped the run, the other files that could not be written said first. */
  throwIfStopped(): void {
    if (this.stoppedBy === undefined) return;
    for (const error of this.alsoUnwritten.values()) this.run.io.warn(`error: ${error.message}`);
    throw this.stoppedBy;
  }

  private tellHalt(error: Error): void {
    if (this.haltSaid) return;
    this.haltSaid = true;
    if (this.job.stopReadingAtHalt === true) this.tellReadingStops();
    this.job.onHalt?.(error);
  }

  /** Once: a failure that stops the run is also a halt, and both stop the reading. */
  private tellReadingStops(): void {
    if (this.readWhenStopped !== undefined) return;
    this.readWhenStopped = this.run.counts.read;
    for (const listener of this.onReadingStop) listener();
  }

  /**
   * A second Ctrl-C or SIGTERM: csafe leaves without the answers it was waiting for, before it
   * settles what it holds, so it writes them now, synchronously. A batch sent and not safe to
   * send twice is, as a lost answer is, unconfirmed: to the unconfirmed file and, with a
   * checkpoint, recorded as dealt with, so the same command run again does not send it a second
   * time. Where the run sets aside what it did not send (setAsideUnsent, setAsideUnsentRead: a pipe, which cannot give it again, or a
   * run without a checkpoint), a batch still waiting its turn goes to the failed file, as do the
   * records read and waiting in a lane and a batch sent that is safe to send twice; elsewhere
   * those are left to be sent again. A batch whose outcome the job was told is left as it is,
   * but the checkpoint is saved, as the save under way may not reach the disk. Says what it
   * wrote, or what it could not, then tells the run what it left (BulkRun.leftAtOnce).
   */
  leaveAtOnce(): void {
    const unsettled = [...this.unsettled];
    const inStage = (stage: Stage) => unsettled.filter(([, taken]) => taken.stage === stage).map(([batch]) => batch);
    const replaySafe = (safe: boolean) => (batch: T[]) => this.job.replaySafe(batch) === safe;
    const [sent, answered] = [inStage('sent'), inStage('answered')];
    const [inFlight, answeredUnsafe] = [sent.filter(replaySafe(false)), answered.filter(replaySafe(false))];
    const resendable = [...sent, ...answered].filter(replaySafe(true));
    const readWaiting = (this.readWaiting?.() ?? []).filter((batch) => !this.taken.has(batch));
    const waiting = [...inStage('waiting'), ...readWaiting].filter((batch) => batch.length > 0);
    const setAside = this.job.setAsideUnsent === true || this.job.setAsideUnsentRead === true;
    const toFailed = setAside ? [...waiting, ...resendable] : [];
    const wrote = [
      this.leave(toFailed, 'failed', (all) => ({ counted: notSentWords(all, setAside ? resendable.flat().length : 0), after: '' })),
      this.leave([...inFlight, ...answeredUnsafe], 'unconfirmed', (all) => unconfirmedWords(all, inFlight.flat().length, answeredUnsafe.flat().length)),
    ];
    let saved = true;
    if (this.run.checkpoint !== undefined && (wrote.includes('written') || this.toldAny)) {
      try {
        this.run.checkpoint.saveNow();
      } catch (error) {
        saved = false;
        this.run.io.warn(`left at once: ${(error as Error).message}`);
      }
    }
    // Being written to the failed file as csafe left: in the file, if the write gets there.
    const beingWritten = inStage('failed');
    const linesOf = (batches: readonly T[][]) => batches.flat().map((record) => record.line).sort((a, b) => a - b);
    this.run.leftAtOnce?.({
      notDone: linesOf(setAside ? [] : [...waiting, ...resendable]),
      inFiles: linesOf([...toFailed, ...inFlight, ...answeredUnsafe, ...beingWritten]),
      unconfirmed: linesOf([...inFlight, ...answeredUnsafe]),
      readAll: this.reading.ended,
      complete: saved && !wrote.includes('not all') && beingWritten.length === 0,
    });
  }

  /** One file's share of leaveAtOnce: written and said, or, when a write fails, how many and why (the other file is written all the same). */
  private leave(batches: readonly T[][], file: 'failed' | 'unconfirmed', words: (all: string) => { counted: string; after: string }): 'none' | 'written' | 'not all' {
    const records = batches.flat().sort((a, b) => a.line - b.line);
    if (records.length === 0) return 'none';
    const { counted, after } = words(countOf(records.length, this.job.noun));
    try {
      this.run[file].appendNow(records.map((record) => ({ text: record.json, line: record.line })));
      this.run.counts[file] += records.length;
      for (const batch of batches) this.job.notAcknowledged?.(batch, file, new InterruptedError());
      this.run.io.warn(`left at once: ${counted} written to ${this.run[file].path}${after}`);
      return 'written';
    } catch (error) {
      this.run.io.warn(`left at once: ${counted}${after}, not all written: ${(error as Error).message}`);
      return 'not all';
    }
  }

  /** Where the records of a batch that was not acknowledged go: nowhere (interrupted before it was sent), the unconfirmed file (written here), or the failed file. */
  private async notAcknowledged(batch: T[], error: unknown): Promise<'failed' | 'unconfirmed' | 'unsent'> {
    const { failFast, io } = this.run;
    const halted = failFast.isStop(error);
    if (error instanceof InterruptedError) this.keptBack = true;
    if (error instanceof NotSentError && !this.job.setAsideUnsent && !this.job.setAsideUnsentRead) return 'unsent';
    // Not sent, or cut short while it waited to be retried (its last attempt was not processed, or it is safe to send twice): safe to resend.
    if (error instanceof InterruptedError) {
      this.failure = error;
      if (!(error instanceof NotSentError)) io.warn(`${this.job.inputName}:${batchLines(batch)}: ${error.message}`);
      return 'failed';
    }
    if (stopsTheRun(error) && !halted) throw error;
    if (halted) this.tellHalt(error as Error);
    const lines = `${this.job.inputName}:${batchLines(batch)}`;
    const what = this.job.sentAlone ? '' : `a batch of ${countOf(batch.length, this.job.noun)} `;
    if (!this.job.replaySafe(batch) && mayHaveBeenApplied(error)) {
      io.warn(`${lines}: ${what}may have been stored, its answer was lost: ${(error as Error).message}`);
      await this.setAside(batch, 'unconfirmed', error as Error);
      return 'unconfirmed';
    }
    // Set before the keys are held: another lane may meet a held record before this batch is set aside.
    this.failure = error as Error;
    const { order } = this.job;
    if (order !== undefined) for (const record of batch) this.heldKeys.add(order.keyOf(record));
    // Why the run halted is said once, when it ends.
    if (!halted) io.warn(`${lines}: ${this.job.sentAlone ? '' : `${what}failed${order === undefined ? '' : `, ${order.heldNote}`}: `}${(error as Error).message}`);
    return 'failed';
  }

  private async setAside(records: readonly T[], file: 'failed' | 'unconfirmed', error: Error): Promise<void> {
    await this.run[file].appendLines(records.map((record) => ({ text: record.json, line: record.line })));
    this.run.counts[file] += records.length;
    this.job.notAcknowledged?.(records, file, error);
  }
}

/** Where a batch the job has not been told the outcome of is: see Delivery.unsettled. */
type Stage = 'waiting' | 'sent' | 'answered' | 'failed';

/** How leaving at once says what went to the failed file: the records not sent, and apart from them those sent whose answer it did not wait for, safe to send again. */
const notSentWords = (all: string, sent: number) => (sent === 0 ? `${all} not sent` : `${all} (${sent} sent, their answer not waited for: safe to send again)`);

/**
 * How leaving at once says what went to the unconfirmed file: the records in flight, and apart
 * from them those answered that waited to be settled behind one in flight (the answers were in,
 * but neither printed nor checkpointed), so the count matches the requests said to be in flight.
 */
function unconfirmedWords(all: string, inFlight: number, answered: number): { counted: string; after: string } {
  if (answered === 0) return { counted: `${all} in flight`, after: ' (their answer was not waited for: the service may hold them)' };
  const flying = inFlight === 0 ? '' : `${inFlight} in flight, ${inFlight === 1 ? 'its' : 'their'} answer not waited for, and `;
  return { counted: all, after: `: ${flying}${answered} answered but not yet recorded (the service may hold them)` };
}

const settledOf = <A>(promise: Promise<A>): Promise<Settled<A>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** A batch Ctrl-C or SIGTERM kept from being sent. */
class NotSentError extends InterruptedError {}

/**
 * The groups as they are read. A read that Ctrl-C or SIGTERM cuts short ends them, as the end of
 * the input would: what was read before it is still settled. With `stopAtSignal`, reading stops
 * at the signal too (the records not read are neither sent nor failed); without, it goes on to
 * the end, so every record can be accounted for. A failure that stops the run ends them too, the
 * reading's own (a --skip-invalid file that cannot be written) among them: it is thrown once
 * what was in flight is settled; so does a halt, for a job that reads a pipe (stopReadingAtHalt).
 */
async function* readUntilStopped<T>(groups: AsyncIterable<T>, run: { readingStopped(): boolean; stop(error: unknown): void; whenReadingStops(listener: () => void): () => void }, signal: AbortSignal, stopAtSignal: boolean, reading: { ended: boolean }): AsyncGenerator<T> {
  const stopsHere = () => run.readingStopped() || (stopAtSignal && signal.aborted);
  if (stopsHere()) return;
  const source = groups[Symbol.asyncIterator]();
  // Closed as a for-await would close it; not behind a read still awaited, which may never come.
  let close: 'now' | 'behind the read' | 'no' = 'now';
  try {
    for (;;) {
      // A failure (or a halt) stops the run while a pipe its writer keeps open gives no line: no signal cuts
      // that read short, and the run must not wait for the line it will not send. A listener for
      // each read: a race with one promise of the whole run would keep a reaction for every read.
      const next = await new Promise<IteratorResult<T> | undefined>((resolve, reject) => {
        const unlisten = run.whenReadingStops(() => resolve(undefined));
        source.next().then(resolve, reject).finally(unlisten);
      });
      if (next === undefined) {
        close = 'behind the read';
        return;
      }
      if (next.done === true) {
        close = 'no';
        reading.ended = true;
        return;
      }
      yield next.value;
      if (stopsHere()) return;
    }
  } catch (error) {
    close = 'no';
    if (!signal.aborted) run.stop(error);
  } finally {
    if (close === 'now') await source.return?.();
    else if (close === 'behind the read') Promise.resolve(source.return?.()).catch(() => undefined);
  }
}
