import { InputError } from '../errors.js';
import type { IOStreams } from '../terminal/io.js';
import { startSpinner } from '../terminal/spinner.js';

/** How a whole input is checked before any of it is sent, reported without flooding the terminal. */

/** Problems printed before the rest are only counted: a file that is wrong throughout must not flood the terminal. */
const SHOWN_PROBLEMS = 20;

export interface CheckingPass {
  /** One bad line or row, printed as `name:line: text`. */
  problem(line: number, text: string): void;
  /** The spinner's text: how far the check has got. */
  progress(text: string): void;
}

/** Problems found in an input, kept to be printed once nothing draws on stderr any more: the first 20 as `name:line: …`, then a count. */
export class ProblemTally {
  count = 0;
  private shown: string[] = [];

  constructor(
    private readonly name: string,
    private readonly unit: 'line' | 'row',
    private readonly hint: string,
  ) {}

  add(line: number, text: string): void {
    if (++this.count <= SHOWN_PROBLEMS) this.shown.push(`${this.name}:${line}: ${text}`);
  }

  /** The problems kept, on stderr (once). */
  print(io: IOStreams): void {
    for (const line of this.shown) io.warn(line);
    this.shown = [];
  }

  /** With any problem: how many more there were, and the InputError (exit 2) saying nothing was sent. */
  conclude(io: IOStreams): void {
    if (this.count > SHOWN_PROBLEMS) io.warn(`… and ${this.count - SHOWN_PROBLEMS} more invalid ${this.unit}s`);
    if (this.count > 0) throw new InputError(`${this.name}: ${this.count} invalid ${this.count === 1 ? this.unit : `${this.unit}s`}; nothing was sent`, { hint: this.hint });
  }
}

/**
 * A check of a whole input before any of it is sent (data import's lines, batch create's rows),
 * with a spinner on a terminal. Problems are printed once the spinner has stopped (a line written
 * under it would be torn by its redraws): the first 20 as `name:line: …`, then a count. Any
 * problem ends it with an InputError (exit 2) saying nothing was sent, and `hint`.
 */
export async function checkingPass(io: IOStreams, name: string, unit: 'line' | 'row', hint: string, check: (pass: CheckingPass) => Promise<void>): Promise<void> {
  const tally = new ProblemTally(name, unit, hint);
  const spinner = await startSpinner(io, `Checking ${name}…`);
  try {
    await check({
      problem: (line, text) => tally.add(line, text),
      progress: (text) => spinner.update(`Checking ${name}: ${text}`),
    });
  } finally {
    spinner.stop();
    tally.print(io);
  }
  tally.conclude(io);
}
