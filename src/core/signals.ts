import { InterruptedError, ReaderGoneError, TerminatedError } from './errors.js';

/** How Ctrl-C and SIGTERM stay csafe's to handle: kept from a module that hooks them, and told apart in the error a stopped run ends with. */

const HOOKED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Imports a module while keeping the handling of Ctrl-C ours. conf (through atomically's
 * when-exit) hooks SIGINT, SIGTERM and SIGHUP when it is imported and re-raises the signal after
 * its own clean-up; the launcher (src/launcher.ts) would take that echo for a second Ctrl-C and
 * exit at once, before the command has removed its temporary files and said what is pending.
 * Those hooks are taken off again; the 'exit' hook that removes atomically's temporary files stays.
 */
export async function importKeepingSignals<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(HOOKED_SIGNALS.map((signal) => [signal, new Set(process.rawListeners(signal))]));
  const loaded = await load();
  for (const signal of HOOKED_SIGNALS) {
    for (const listener of process.rawListeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener as () => void);
    }
  }
  return loaded;
}

/** What is written, synchronously, when csafe leaves at once: see onLeavingAtOnce. */
const lastWords = new Set<() => void>();

/**
 * Registers what must be written if csafe leaves at once (a second Ctrl-C or SIGTERM): records
 * held in memory that were read from a pipe, which nothing else could give back. `write` runs
 * synchronously just before the process exits, so it must not wait for anything. Returns what
 * unregisters it.
 */
export function onLeavingAtOnce(write: () => void): () => void {
  lastWords.add(write);
  return () => lastWords.delete(write);
}

/** Runs what onLeavingAtOnce registered; the launcher calls it just before it leaves at once. One that throws does not keep the others from running. */
export function sayLastWords(): void {
  for (const write of lastWords) {
    try {
      write();
    } catch {
      // Leaving anyway: what could be written was.
    }
  }
}

/**
 * How a note on stderr says what stopped the run, and what leaves without waiting any longer: a
 * signal (`interrupted`, and a second one leaves), or the reader of stdout gone (EPIPE), after
 * which no signal has come yet, so the first Ctrl-C leaves.
 */
export function stopWords(signal: AbortSignal): { why: string; again: string } {
  return signal.reason === 'EPIPE' ? { why: 'the reader of stdout went away', again: 'Ctrl-C' } : { why: 'interrupted', again: 'Ctrl-C again' };
}

/**
 * How a run stopped by the process signal ends: the launcher aborts it with the signal's name as
 * the reason, or EPIPE when the reader of stdout went away. `delivered`: a bulk run's records
 * delivered before it stopped, given when records were left to send.
 */
export function interruptionOf(signal: AbortSignal, delivered?: number): InterruptedError {
  if (signal.reason === 'SIGTERM') return new TerminatedError();
  return signal.reason === 'EPIPE' && delivered !== undefined ? new ReaderGoneError(delivered) : new InterruptedError();
}
