import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { CsafeError } from '../errors.js';
import { escapeC1Controls, sanitizeForTerminal } from './sanitize.js';
import { redactSecrets } from '../http/redact.js';

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
  readonly outColor: Colors;
  /** Colours for messages written to stderr. */
  readonly errColor: Colors;
  /** Spinners and progress bars are allowed (stderr is a terminal that can draw them, and not --quiet). */
  readonly animate: boolean;
  /**
   * Instead of animations, a plain progress line now and then: on a terminal that cannot draw
   * them (TERM=dumb, or a CI system's fake terminal), or with --progress when stderr is not a terminal; never with --quiet.
   */
  readonly progressLines: boolean;
  /** The width of stderr: the terminal's, else COLUMNS; undefined when neither says. Read again each time (a resize). */
  readonly stderrColumns: number | undefined;
  /** The width of the terminal stdout writes to (COLUMNS overrides it, so tests and users can set it); undefined when unknown, as in a pipe. */
  readonly stdoutColumns: number | undefined;
  /** --wide: tables show long cells whole instead of cutting them to stdoutColumns. */
  readonly wide: boolean;
  /**
   * Writes data to stdout, waiting when the pipe is full so memory stays flat; a failed write (a
   * full disk) is a one-line error. On a terminal, DEL and C1 controls in text are escaped
   * (`\u009b`); bytes (a download's, sanitised before it if need be) are written as they are.
   */
  out(text: string | Uint8Array): Promise<void>;
  /** Waits until everything written has reached stdout, and fails if some of it could not. */
  flush(): Promise<void>;
  /** A line for people on stderr (suppressed by --quiet). Text is sanitised for the terminal. */
  note(line: string): void;
  /** A warning line on stderr, shown even with --quiet. */
  warn(line: string): void;
  /** An error line on stderr in red: the text is sanitised first, then coloured. */
  error(line: string): void;
  /** A --verbose trace line on stderr; a line costly to build is given as a function, called only with --verbose. */
  trace(line: string | (() => string)): void;
  /**
   * Values never to be shown (the API key, a webhook secret): replaced in every line written to
   * stderr, a last line of defence against a service's message that quotes one back.
   */
  readonly secrets: Set<string>;
}

/** A style, and that style made bold (`red.bold`). */
type Style = ((text: string) => string) & { readonly bold: (text: string) => string };

/** The part of chalk csafe uses; level 0 means no colour. */
export interface Colors {
  readonly level: number;
  readonly bold: Style;
  readonly dim: Style;
  readonly red: Style;
  readonly green: Style;
  readonly yellow: Style;
}

const unstyled: Style = Object.assign((text: string) => text, { bold: (text: string) => text });

/** What a stream that cannot have colour gets: chalk is not loaded for it at all. */
const NO_COLORS: Colors = { level: 0, bold: unstyled, dim: unstyled, red: unstyled, green: unstyled, yellow: unstyled };

type ChalkClass = typeof import('chalk').Chalk;

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
  wide?: boolean;
  /** chalk's Chalk, needed only when a stream can have colour (openIOStreams loads it then). */
  Chalk?: ChalkClass;
}

/**
 * A terminal that must not be drawn on: TERM=dumb has no cursor movement, and a CI system that
 * fakes a terminal (CI set) keeps every frame of a spinner in its log.
 */
function plainTerminal(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  return env.TERM === 'dumb' || (ci !== undefined && ci !== '' && !['0', 'false'].includes(ci.toLowerCase()));
}

export function colorEnabled(isTTY: boolean, env: NodeJS.ProcessEnv, flag = true): boolean {
  if (!flag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(env.FORCE_COLOR);
  return isTTY && env.TERM !== 'dumb';
}

/** Whether stdout and stderr can have colour; CSAFE_FORCE_TTY lets tests and `script`-less CI runs exercise the terminal code paths. */
function terminalsOf({ stdout, stderr, env, color }: IOSettings) {
  const forced = env.CSAFE_FORCE_TTY === '1';
  const stdoutIsTTY = forced || Boolean(stdout.isTTY);
  const stderrIsTTY = forced || Boolean(stderr.isTTY);
  return { stdoutIsTTY, stderrIsTTY, outColored: colorEnabled(stdoutIsTTY, env, color), errColored: colorEnabled(stderrIsTTY, env, color) };
}

/**
 * IOStreams with chalk loaded only when a stream can have colour: help and version in a pipe never
 * pay for it. An import, not require(): chalk is an ES module, and Node 20.18 cannot require one.
 */
export async function openIOStreams(settings: IOSettings): Promise<IOStreams> {
  const { outColored, errColored } = terminalsOf(settings);
  const Chalk = outColored || errColored ? (await import('chalk')).Chalk : undefined;
  return createIOStreams({ ...settings, Chalk });
}

function colorsOf(colored: boolean, Chalk: ChalkClass | undefined): Colors {
  if (!colored) return NO_COLORS;
  if (Chalk === undefined) throw new Error('colour is on but chalk was not given: create IOStreams with openIOStreams');
  return new Chalk({ level: 1 });
}

export function createIOStreams(settings: IOSettings): IOStreams {
  const { stdin, stdout, stderr, env } = settings;
  const { stdoutIsTTY, stderrIsTTY, outColored, errColored } = terminalsOf(settings);
  const quiet = Boolean(settings.quiet);
  const verbose = Boolean(settings.verbose);
  const outColor = colorsOf(outColored, settings.Chalk);
  const errColor = colorsOf(errColored, settings.Chalk);
  const secrets = new Set<string>();
  const clean = (line: string) => {
    const redacted = redactSecrets(line, secrets);
    return stderrIsTTY ? sanitizeForTerminal(redacted) : redacted;
  };
  // Only the controls no output format takes care of: C0 ones are escaped in JSON and shown in caret notation in tables, and a table's colours are ESC sequences.
  const cleanData = (data: string | Uint8Array) => (stdoutIsTTY && typeof data === 'string' ? escapeC1Controls(data) : data);
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
    outColor,
    errColor,
    animate: stderrIsTTY && !quiet && !plainTerminal(env),
    progressLines: !quiet && (stderrIsTTY ? plainTerminal(env) : Boolean(settings.progress)),
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
        if (!stdout.write(cleanData(text))) await once(stdout, 'drain');
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
      writeErr(errColor.red(clean(line)));
    },
    trace(line) {
      if (verbose) writeErr(errColor.dim(clean(typeof line === 'string' ? line : line())));
    },
    secrets,
  };
}

const positiveInteger = (value: number | undefined) => (Number.isInteger(value) && value! > 0 ? value : undefined);

function throwIfFailed(stdout: Writable): void {
  if (stdout.errored) throw writeFailure(stdout.errored as NodeJS.ErrnoException);
}

/** Whether a write failed because its reader went away (`| head`): main() ends such a run as done, not as a failure. */
export const isBrokenPipe = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'EPIPE';

/**
 * For a write to stdout whose failure stops a run: the reader gone (`| head`) is let pass, as the
 * launcher stops the run for it as Ctrl-C does, and the run then says what it did; any other failure is thrown.
 */
export function unlessReaderGone(error: unknown): void {
  if (!isBrokenPipe(error)) throw error;
}

/** EPIPE is passed on as it is, for main() to tell (isBrokenPipe). */
function writeFailure(error: NodeJS.ErrnoException): Error {
  return isBrokenPipe(error) ? error : new CsafeError(`cannot write to stdout: ${error.message}`, { cause: error });
}
