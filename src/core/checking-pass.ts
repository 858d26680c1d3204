import { InputError } from './errors.js';
import type { IOStreams } from './io.js';
import { startSpinner } from './spinner.js';

/** Problems printed before the rest are only counted: a file that is wrong throughout must not flood the terminal. */
const SHOWN_PROBLEMS = 20;

export interface CheckingPass {
  /** One bad line or row, printed as `name:line: text`. */
  problem(line: number, text: string): void;
  /** The spinner's text: how far the check has got. */
  progress(text: string): void;
}

/**
 * A check of a whole input before any of it is sent (data import's lines, batch create's rows),
 * with a spinner on a terminal. Problems are printed once the spinner has stopped (a line written
 * under it would be torn by its redraws): the first 20 as `name:line: …`, then a count. Any
 * problem ends it with an InputError (exit 2) saying nothing was sent, and `hint`.
 */
export async function checkingPass(io: IOStreams, name: string, unit: 'line' | 'row', hint: string, check: (pass: CheckingPass) => Promise<void>): Promise<void> {
  let invalid = 0;
  const shown: string[] = [];
  const spinner = await startSpinner(io, `Checking ${name}…`);
  try {
    await check({
      problem: (line, text) => {
        if (++invalid <= SHOWN_PROBLEMS) shown.push(`${name}:${line}: ${text}`);
      },
      progress: (text) => spinner.update(`Checking ${name}: ${text}`),
    });
  } finally {
    spinner.stop();
    for (const line of shown) io.warn(line);
  }
  if (invalid > SHOWN_PROBLEMS) io.warn(`… and ${invalid - SHOWN_PROBLEMS} more invalid ${unit}s`);
  if (invalid > 0) throw new InputError(`${name}: ${invalid} invalid ${invalid === 1 ? unit : `${unit}s`}; nothing was sent`, { hint });
}
