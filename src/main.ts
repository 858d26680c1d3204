import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { Command, CommanderError } from 'commander';
import type { Context, LocalService } from './context.js';
import {
  AuthenticationError,
  CsafeError,
  ExitCode,
  InputError,
  InterruptedError,
  ReaderGoneError,
  MissingCredentialsError,
  PermissionDeniedError,
  TerminatedError,
  UsageError,
  WaitTimeoutError,
  CommandNotFoundError,
  CommandNotRunnableError,
  LockedError,
  type ExitCodeValue,
} from './core/errors.js';
import { ALL_VARIABLES, HELP_LAYOUT, HELP_WIDTH, renderHelpSections, wrapWords } from './core/cli/help.js';
import { createIOStreams, isBrokenPipe, openIOStreams, unlessReaderGone, type IOStreams } from './core/terminal/io.js';
import { redactSecrets } from './core/http/redact.js';
import { DryRunEnded, type DryRunPlan } from './core/http/dry-run.js';
import { commandIndex } from './core/cli/command-line.js';
import { interruptionOf } from './core/signals.js';
import { checkTimeoutPlace } from './core/cli/timeout-place.js';
import { checkFlagValues } from './core/cli/flag-values.js';
import { GLOBAL_FLAGS, type GlobalFlags } from './core/cli/global-flags.js';
import { VERSION, versionLine } from './version.js';
import { runCounts, type App, type Outcome, type RunCounts } from './commands/app.js';
import { addFlags, addNode } from './commands/program.js';
import { TREE } from './commands/tree.js';
import { EXIT_CODES, ROOT_DESCRIPTION, ROOT_EXAMPLES } from './commands/root.js';
import { expandShortcuts } from './commands/shortcuts.js';

// How a command line becomes a run: builds the command tree, runs the chosen command, and turns every
// error, signal and broken pipe into one message and exit code.

export interface ProcessLike {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Aborted on the first Ctrl-C (reason SIGINT), on SIGTERM, on SIGHUP (a closed terminal; ends as Ctrl-C does), or when the reader of stdout went away (reason EPIPE). */
  signal: AbortSignal;
}

/** What `csafe --help` ends with: the exit codes, examples and every variable, fitted to `width`. */
function rootHelpAfter(width: number): string {
  const codes = EXIT_CODES.map(([code, meaning]) => wrapWords(`  ${code.padEnd(8)} ${meaning}`, width, ' '.repeat(11)));
  const sections = renderHelpSections({
    examples: ROOT_EXAMPLES,
    environment: ALL_VARIABLES,
  }, width);
  return ['', 'Exit codes (the same for every command):', ...codes, ''].join('\n') + sections;
}

/** The group named on the command line (`csafe [global flags] <group> …`; `csafe help <group>` has become `csafe <group> --help`). */
export const invokedGroup = (argv: readonly string[]): string | undefined => argv[commandIndex(argv)];

function buildProgram(app: App, io: IOStreams, argv: readonly string[]): Command {
  const program = new Command('csafe').description(ROOT_DESCRIPTION).version(versionLine(), '-V, --version', 'show the version, the commit built and the Node.js version (as `csafe version`)');
  addFlags(program, GLOBAL_FLAGS)
    .addHelpText('after', () => rootHelpAfter(io.stdoutColumns ?? HELP_WIDTH))
    .showSuggestionAfterError()
    .exitOverride()
    .configureHelp(HELP_LAYOUT)
    .configureOutput({
      getOutHelpWidth: () => io.stdoutColumns ?? HELP_WIDTH,
      getErrHelpWidth: () => io.stderrColumns ?? HELP_WIDTH,
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      outputError: (text, write) => write(saidPlainly(withoutOptionValue(oneLineSuggestion(text)))),
    })
    .hook('preAction', (_, invoked) => checkFlagValues(argv, invoked));
  // Only the group invoked is built whole: the others are one line of the program's help.
  const invoked = invokedGroup(argv);
  for (const node of TREE) {
    if (node.name === invoked) addNode(program, node, app);
    else program.command(node.name).description(node.description);
  }
  return program;
}

/** commander puts "(Did you mean --x?)" on a line of its own; every error of ours is one line. */
const oneLineSuggestion = (text: string) => text.replace(/\n\(Did you mean (.+)\)\n$/, ' (did you mean $1)\n');

/** commander's "option '-o, --output <format>' argument missing" and "unknown option '-text'" in csafe's words. */
const saidPlainly = (text: string) =>
  text
    .replace(/^error: option '(.+) <([^>]+)>' argument missing\n$/, 'error: $1: needs a value (<$2>), and none was given\n')
    // `-text` for `--text`: commander suggests only for two dashes.
    .replace(/^error: unknown option '-([a-z][\w-]+)'\n$/, "error: unknown option '-$1' (a long flag takes two dashes: --$1)\n");

/** An unknown `--flag=value` is named without its value: a misspelt --api-key's value is a key, kept out of logs. */
const withoutOptionValue = (text: string) => text.replace(/^(error: unknown option '--[^'=]+=)[^']*'/, "$1…'");

/** Where `csafe --emulator` keeps namespace data, so `data add` in one run and `data status` in the next agree. */
export function emulatorDataDir(env: NodeJS.ProcessEnv, home = homedir()): string {
  if (env.CSAFE_EMULATOR_DATA_DIR) return env.CSAFE_EMULATOR_DATA_DIR;
  return join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'csafe', 'emulator');
}

async function startInProcessEmulator(env: NodeJS.ProcessEnv): Promise<LocalService> {
  const { startEmulator, EmulatorStartError } = await import('./emulator/index.js');
  const apiKey = `sk_test_${crypto.randomUUID().replaceAll('-', '')}`;
  const dataDir = emulatorDataDir(env);
  return startEmulator({ host: '127.0.0.1', port: 0, apiKey, dataDir }).catch((error: unknown) => {
    if (!(error instanceof EmulatorStartError) || !error.reason.startsWith('data_dir')) throw error;
    const where = `--emulator's data directory ${dataDir} (CSAFE_EMULATOR_DATA_DIR)`;
    if (error.reason === 'data_dir_refused') throw new UsageError(`${where}: ${error.detail}`);
    throw new CsafeError(`${where}: cannot create or use it: ${error.detail}`, { hint: 'set CSAFE_EMULATOR_DATA_DIR to a directory you can write' });
  });
}

/** Runs csafe with the given arguments; returns the exit code. */
export async function main(argv: string[], proc: ProcessLike): Promise<number> {
  // Until the flags are parsed, commander's own messages (help, usage errors) go through plain streams: no chalk for help.
  const bootIO = createIOStreams({ ...proc, color: false });
  let exitCode: number = ExitCode.ok;
  let context: Context | undefined;
  const app: App = {
    action: (run) => async (...params) => {
      const command = params.at(-1) as Command;
      const flags = command.optsWithGlobals() as GlobalFlags & { dryRun?: boolean };
      const io = await openIOStreams({ ...proc, quiet: flags.quiet, verbose: flags.verbose, color: flags.color, progress: flags.progress, wide: flags.wide });
      // Loaded when a command runs: help and version need none of what a context brings (settings, output formats).
      const { Context } = await import('./context.js');
      const ctx = new Context({
        io,
        env: proc.env,
        flags,
        version: VERSION,
        signal: proc.signal,
        argv,
        startLocalService: () => startInProcessEmulator(proc.env),
        now: Date.now,
        sleep: (ms, signal) => delay(ms, undefined, { signal }),
        createHttpClient: async (config) => new (await import('./core/http/client.js')).HttpClient(config),
        dryRun: flags.dryRun === true,
      });
      context = ctx;
      try {
        exitCode = exitCodeOfOutcome(await run(ctx, command));
      } catch (error) {
        // Printed here, not in main's catch: a reader of stdout that goes away (`| head`) is then told as for any command.
        if (!(error instanceof DryRunEnded)) throw error;
        exitCode = await printDryRun(ctx, error.plan);
      }
    },
  };
  try {
    const expanded = expandShortcuts(argv, TREE);
    const program = buildProgram(app, bootIO, expanded);
    checkTimeoutPlace(expanded, commandIndex(expanded), program);
    await program.parseAsync(expanded, { from: 'user' });
    // A write to a full disk fails after write() has returned: the command is not done until stdout has taken it all.
    // A reader gone meanwhile (`| head`) leaves the exit code the command's outcome gave.
    await bootIO.flush().catch(unlessReaderGone);
    return exitCode;
  } catch (error) {
    // Whatever part of a command SIGTERM stopped (reading stdin, a wait, a request), it ends as SIGTERM: 143.
    const ended = error instanceof InterruptedError && !(error instanceof ReaderGoneError) && proc.signal.aborted ? interruptionOf(proc.signal) : error;
    // commander has already printed its message; a reader of stdout that went away wants no message,
    // and a bulk run it stopped has said what it did and how to continue.
    if (ended instanceof CommanderError || isBrokenPipe(ended) || ended instanceof ReaderGoneError) return exitCodeOfError(ended);
    // The work that reader's going stopped (a download cut off is an interruption): what it wanted it has.
    // Any other failure meanwhile (a full disk for --failed, a refused key) is still reported.
    if (proc.signal.reason === 'EPIPE' && ended instanceof InterruptedError) return ExitCode.ok;
    // Our own error lines are red on a terminal even before a command has run (a bad --request-timeout).
    return report(ended, context?.io ?? (await openIOStreams({ ...proc })), context?.secrets ?? new Set());
  } finally {
    await context?.close();
  }
}

/** A dry run reached its first request: what it would have sent, on stdout as JSON in a pipe or with --json. */
async function printDryRun(context: Context, plan: DryRunPlan): Promise<number> {
  const { printPlan } = await import('./core/terminal/plan.js');
  await printPlan(context.io, await context.outputFormat('single'), plan);
  return ExitCode.ok;
}

function report(error: unknown, io: IOStreams, secrets: Set<string>): number {
  const clean = (text: string) => redactSecrets(text, secrets);
  if (error instanceof CsafeError) {
    io.error(`error: ${clean(error.message)}`);
    if (error.hint) io.warn(`hint: ${clean(error.hint)}`);
  } else {
    // A defect of ours: one line for the user, the stack only for --verbose.
    io.error(`error: ${clean(error instanceof Error ? error.message : String(error))}`);
    if (error instanceof Error && error.stack) io.trace(clean(error.stack));
  }
  return exitCodeOfError(error);
}

/*
 * The exit-code table (README "Exit codes", `csafe --help`): the only place a run's ending becomes
 * a code. Commands throw a typed error or return an Outcome; nothing else chooses a code.
 */

/** Errors whose class has a code of its own; any other error is 1. The first match wins. */
const ERROR_EXIT_CODES: ReadonlyArray<readonly [abstract new (...args: never[]) => Error, ExitCodeValue]> = [
  [UsageError, ExitCode.usage],
  [InputError, ExitCode.usage],
  [MissingCredentialsError, ExitCode.auth],
  [AuthenticationError, ExitCode.auth],
  [PermissionDeniedError, ExitCode.auth],
  [WaitTimeoutError, ExitCode.waitTimeout],
  [CommandNotRunnableError, ExitCode.notRunnable],
  [CommandNotFoundError, ExitCode.notFound],
  [LockedError, ExitCode.busy],
  [TerminatedError, ExitCode.terminated],
  [InterruptedError, ExitCode.interrupted],
];

export function exitCodeOfError(error: unknown): ExitCodeValue {
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? ExitCode.ok : ExitCode.usage;
  }
  // The reader of our stdout went away (`| head`): what it wanted it has; a bulk run it stopped left
  // records to send, as a run the service refused them would: some delivered (5), or none (1).
  if (isBrokenPipe(error)) return ExitCode.ok;
  if (error instanceof ReaderGoneError) return error.delivered > 0 ? ExitCode.partial : ExitCode.failure;
  return ERROR_EXIT_CODES.find(([type]) => error instanceof type)?.[1] ?? ExitCode.failure;
}

/** A command's outcome as an exit code: csafe's own, or (`emulator exec`) the code of the command it ran. */
export function exitCodeOfOutcome(outcome: Outcome | void): number {
  if (outcome === undefined) return ExitCode.ok;
  switch (outcome.kind) {
    case 'checked':
      return exitCodeOfRun(runCounts({ invalid: outcome.invalid }));
    case 'classified':
      return exitCodeOfRun(runCounts({ sent: 1, flagged: outcome.failOnHeld ? 1 : 0 }));
    case 'followed':
      return outcome.failed ? ExitCode.failure : ExitCode.ok;
    case 'unauthenticated':
      return ExitCode.auth;
    case 'notSet':
      return ExitCode.failure;
    case 'batch':
      return exitCodeOfRun(outcome);
    case 'ranCommand':
      return outcome.code;
  }
}

/**
 * A run's exit code from its counts, the same for every bulk command: what stopped it decides
 * first, then a request that failed once accepted (1). Records failed while none was delivered
 * by this run is 1, whatever an earlier run it resumes with --checkpoint delivered: a cron run
 * during an outage must read as one. Nothing valid at all (none delivered now or before, none
 * left to another --shard worker) and records invalid is 2. Some delivered and the rest in a
 * failed or skip file is 5, which wins over 4 (--fail-on held): a 4 then says every record was
 * classified.
 */
export function exitCodeOfRun(run: RunCounts): ExitCodeValue {
  if (run.stoppedBy !== undefined) return exitCodeOfError(run.stoppedBy);
  if (run.failedRequests > 0) return ExitCode.failure;
  const unsent = run.failed + run.unconfirmed;
  const refused = run.skipped + run.invalid;
  if (run.sent === 0 && unsent > 0) return ExitCode.failure;
  if (run.sent + run.done + run.otherShards === 0 && refused > 0) return ExitCode.usage;
  if (unsent + refused > 0) return ExitCode.partial;
  return run.flagged > 0 ? ExitCode.condition : ExitCode.ok;
}
