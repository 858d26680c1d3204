// How a process runs csafe, for both of its launchers: bin/csafe (the npm package) and binary.ts
// (the single executable). `--version` and `__complete` answer without loading commander and the
// rest; any other command line runs main() on the process's streams, with its signals as an abort.
import { setMaxListeners } from 'node:events';
import { asksForVersion, versionLine } from './version.js';

/** Runs csafe on `args` (the command line after the program's name) and sets process.exitCode. */
export async function launch(args: string[]): Promise<void> {
  // Start-up time matters most here: bin/csafe answers it before it reads the bundle; the single executable, here.
  if (asksForVersion(args)) {
    process.stdout.write(`${versionLine()}\n`);
  } else if (args[0] === '__complete') {
    // The shell completions' dynamic values (profile names): answered as fast as --version, a word a line.
    const words = (await import('./complete.js')).completionWords(args.slice(1), process.env);
    process.stdout.write(words.map((word) => `${word}\n`).join(''));
  } else {
    const { main } = await import('./main.js');
    const { sayLastWords } = await import('./core/signals.js');
    process.exitCode = await main(args, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, signal: processStops(sayLastWords) });
    // The command is done: a pipe it was reading, which its writer keeps open (`tail -f log |`),
    // must not keep csafe waiting for a line it will not read (a run a failure stopped, say).
    process.stdin.destroy();
  }
}

/**
 * Aborted on the first SIGINT, SIGTERM or SIGHUP (the signal's name is the reason: a command that
 * finishes its work on a signal ends 130 or 143 by it), or when the reader of stdout went away
 * (EPIPE). A second Ctrl-C or SIGTERM leaves at once, after `lastWords` (what a command holds that
 * nothing else could give back, written synchronously).
 */
function processStops(lastWords: () => void): AbortSignal {
  const interrupt = new AbortController();
  // Each request waiting for its --max-rate turn or its retry listens for the stop: --concurrency at once is no leak to warn of.
  setMaxListeners(0, interrupt.signal);
  // A signal this soon after the first is the same one delivered twice: to the whole process group
  // (timeout(1), systemd) and passed on by a parent (`csafe emulator exec`, npm). Not a second stop.
  const SAME_SIGNAL_MS = 250;
  let firstAt = 0;
  const isSecond = () => interrupt.signal.aborted && Date.now() - firstAt > SAME_SIGNAL_MS;
  const stop = (reason: string) => {
    if (interrupt.signal.aborted) return;
    firstAt = Date.now();
    interrupt.abort(reason);
  };
  process.on('SIGINT', () => {
    // The first Ctrl-C lets the command clean up and say what is pending; a second one leaves at once.
    if (isSecond()) {
      lastWords();
      process.exit(130);
    }
    stop('SIGINT');
  });
  process.on('SIGTERM', () => {
    if (isSecond()) {
      lastWords();
      process.exit(143);
    }
    stop('SIGTERM');
  });
  // A closed terminal: stop as on Ctrl-C rather than die on the spot, so temporary files (an emulator's data directory) are removed.
  process.on('SIGHUP', () => stop('SIGHUP'));
  // A closed pipe (`csafe … | head`) or a full disk is reported to main() through the failed write; don't crash on the event too.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // The reader went away, so the work in flight is for nobody: stop it, saying why (main() ends such a run as done).
    if (error.code === 'EPIPE') interrupt.abort('EPIPE');
  });
  return interrupt.signal;
}
