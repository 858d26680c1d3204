import { stripVTControlCharacters } from 'node:util';
import type { IOStreams } from './io.js';
import { sanitizeForTerminal } from './sanitize.js';

/** How a long wait is shown: a spinner on a terminal, plain lines now and then in a log, else nothing. */

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

/** With --progress on a stderr that is not a terminal (a CI log): how often the current text is printed. */
export const PROGRESS_LINE_EVERY_MS = 5_000;

/** Calls `tick` every `ms` until the function it returns is called: the clock of the plain progress lines, which a test may drive itself. */
export type Repeat = (ms: number, tick: () => void) => () => void;

export const everyInterval: Repeat = (ms, tick) => {
  const timer = setInterval(tick, ms);
  // A run that is otherwise done must not wait for the next line.
  timer.unref?.();
  return () => clearInterval(timer);
};

/** The frame and the space ora draws before the text, and one column spare so the cursor never wraps. */
const FRAME_COLUMNS = 3;

const silent: Spinner = { update() {}, stop() {} };

/**
 * An ora spinner on stderr when the terminal allows it, its text fitted to the terminal's width;
 * plain lines now and then instead on a terminal that must not be drawn on (TERM=dumb, CI) or,
 * with --progress, on a stderr that is not a terminal; otherwise nothing at all (and ora is never loaded).
 */
export async function startSpinner(io: IOStreams, text: string, repeat = everyInterval): Promise<Spinner> {
  if (io.progressLines) return startProgressLines(io, text, repeat);
  // A terminal of zero columns (a pty nobody sized, as under `script` in CI) would make ora clear lines without end.
  if (!io.animate || (io.stderr as { columns?: number }).columns === 0) return silent;
  const { default: ora } = await import('ora');
  // A wait's text may carry what the service said (a status it made up): inert, as everywhere on a terminal.
  const fit = (line: string) => fitToWidth(sanitizeForTerminal(line), spinnerTextColumns(io));
  // discardStdin would swallow input we may be reading (e.g. `-` for stdin). ora reads NO_COLOR from
  // the process, not from the environment csafe was given: whether stderr has colour is io's to say.
  const spinner = ora({ text: fit(text), stream: io.stderr, isEnabled: true, discardStdin: false, color: io.errColor.level > 0 ? 'cyan' : false }).start();
  return {
    update: (next) => {
      spinner.text = fit(next);
    },
    stop: () => spinner.stop(),
  };
}

/** The columns a spinner's text may fill on stderr; undefined when its width is not known. */
export function spinnerTextColumns(io: IOStreams): number | undefined {
  const columns = io.stderrColumns;
  return columns === undefined ? undefined : Math.max(1, columns - FRAME_COLUMNS);
}

/** The text cut to `columns` characters, its end shown as `…`; as it is when it fits or the width is not known. */
export function fitToWidth(text: string, columns: number | undefined): string {
  const characters = [...text];
  if (columns === undefined || characters.length <= columns) return text;
  return characters.slice(0, columns - 1).join('') + '…';
}

/**
 * The text at once, then the latest text every PROGRESS_LINE_EVERY_MS, plain (no escape codes,
 * no redraws), so a CI log shows a long run moving; the last text when it ends, if not yet shown.
 */
function startProgressLines(io: IOStreams, text: string, repeat: Repeat): Spinner {
  let current = stripVTControlCharacters(text);
  let printed: string | undefined;
  let ended = false;
  const print = (line: string) => {
    io.stderr.write(line + '\n');
    printed = line;
  };
  print(current);
  const cancel = repeat(PROGRESS_LINE_EVERY_MS, () => print(current));
  const end = () => {
    cancel();
    if (!ended && current !== printed) print(current);
    ended = true;
  };
  return {
    update: (next) => {
      current = stripVTControlCharacters(next);
    },
    stop: end,
  };
}
