import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import { CsafeError } from './errors.js';
import { sanitizeForTerminal } from './sanitize.js';

/**
 * The one place that decides TTY, colour and whether spinners and progress may be shown.
 * stdout carries data only; everything for people goes to stderr, and animations only when
 * stderr is a terminal and --quiet is off. Tests build one over buffers with any TTY flags.
 */
export interface IOStreams {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  /** Colours for data written to stdout (tables). */
  readonly outColor: ChalkInstance;
  /** Colours for messages written to stderr. */
  readonly errColor: ChalkInstance;
  /** Spinners and progress bars are allowed (stderr is a TTY and not --quiet). */
  readonly animate: boolean;
  /** Instead of animations, a plain progress line now and then (--progress, stderr not a TTY, not --quiet). */
  readonly progressLines: boolean;
  /** The width of stderr: the terminal's, else COLUMNS; undefined when neither says. Read again each time (a resize). */
  readonly stderrColumns: number | undefined;
  /** The width of the terminal stdout writes to (COLUMNS overrides it, so tests and users can set it); undefined when unknown, as in a pipe. */
  readonly stdoutColumns: number | undefined;
  /** --wide: tables show long cells whole instead of cutting them to stdoutColumns. */
  readonly wide: boolean;
  /** Writes data to stdout, waiting when the pipe is full so memory stays flat; a failed write (a full disk) is a one-line error. */
  out(text: string): Promise<void>;
  /** Waits until everything written has reached stdout, and fails if some of it could not. */
  flush(): Promise<void>;
  /** A line for people on stderr (suppressed by --quiet). Text is sanitised for the terminal. */
  note(line: string): void;
  /** A warning line on stderr, shown even with --quiet. */
  warn(line: string): void;
  /** An error line on stderr in red: the text is sanitised first, then coloured. */
  error(line: string): void;
  /** A --verbose trace line on stderr. */
  trace(line: string): void;
}

export interface IOSettings {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  quiet?: boolean;
  verbose?: boolean;
  /** false when --no-color was given. */
  color?: boolean;
  /** --progress: periodic progress lines when stderr is not a TTY. */
  progress?: boolean;
  /** --wide was given. */
  wide?: boolean;
}

export function colorEnabled(isTTY: boolean, env: NodeJS.ProcessEnv, flag = true): boolean {
  if (!flag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(env.FORCE_COLOR);
  return isTTY && env.TERM !== 'dumb';
}

export function createIOStreams(settings: IOSettings): IOStreams {
  const { stdin, stdout, stderr, env } = settings;
  // CSAFE_FORCE_TTY lets tests and `script`-less CI runs exercise the terminal code paths.
  const forced = env.CSAFE_FORCE_TTY === '1';
  const stdoutIsTTY = forced || Boolean(stdout.isTTY);
  const stderrIsTTY = forced || Boolean(stderr.isTTY);
  const quiet = Boolean(settings.quiet);
  const verbose = Boolean(settings.verbose);
  const outColor = lazyChalk(colorEnabled(stdoutIsTTY, env, settings.color));
  const errColor = lazyChalk(colorEnabled(stderrIsTTY, env, settings.color));
  const clean = (line: string) => (stderrIsTTY ? sanitizeForTerminal(line) : line);
  const writeErr = (line: string) => {
    stderr.write(line + '\n');
  };
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: Boolean(stdin.isTTY),
    stdoutIsTTY,
    stderrIsTTY,
    quiet,
    verbose,
    get outColor() {
      return outColor();
    },
    get errColor() {
      return errColor();
    },
    animate: stderrIsTTY && !quiet,
    progressLines: !stderrIsTTY && !quiet && Boolean(settings.progress),
    get stderrColumns() {
      return positiveInteger((stderr as { columns?: number }).columns) ?? positiveInteger(Number(env.COLUMNS));
    },
    // COLUMNS first: a table's width is what the user (or a test) says it is; a pipe has none of its own.
    get stdoutColumns() {
      return positiveInteger(Number(env.COLUMNS)) ?? positiveInteger((stdout as { columns?: number }).columns);
    },
    wide: Boolean(settings.wide),
    async out(text) {
      throwIfFailed(stdout);
      try {
        if (!stdout.write(text)) await once(stdout, 'drain');
      } catch (error) {
        throw writeFailure(error as NodeJS.ErrnoException);
      }
    },
    async flush() {
      if (!stdout.destroyed) await new Promise<void>((resolve) => stdout.write('', () => resolve()));
      throwIfFailed(stdout);
    },
    note(line) {
      if (!quiet) writeErr(clean(line));
    },
    warn(line) {
      writeErr(clean(line));
    },
    error(line) {
      writeErr(errColor().red(clean(line)));
    },
    trace(line) {
      if (verbose) writeErr(errColor().dim(clean(line)));
    },
  };
}

/**
 * A chalk made on first use: `--help` and `--version` never colour anything and must not pay for
 * loading chalk. require() of an ES module (Node ≥ 20.19) keeps the getters synchronous.
 */
function lazyChalk(enabled: boolean): () => ChalkInstance {
  let chalk: ChalkInstance | undefined;
  return () => (chalk ??= new (createRequire(import.meta.url)('chalk') as typeof import('chalk')).Chalk({ level: enabled ? 1 : 0 }));
}

const positiveInteger = (value: number | undefined) => (Number.isInteger(value) && value! > 0 ? value : undefined);

function throwIfFailed(stdout: Writable): void {
  if (stdout.errored) throw writeFailure(stdout.errored as NodeJS.ErrnoException);
}

/** EPIPE stays itself: main() takes a reader that went away (`| head`) as done, not as a failure. */
function writeFailure(error: NodeJS.ErrnoException): Error {
  return error.code === 'EPIPE' ? error : new CsafeError(`cannot write to stdout: ${error.message}`, { cause: error });
}
