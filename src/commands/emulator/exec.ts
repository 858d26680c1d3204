import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { CommandNotFoundError, CommandNotRunnableError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import type { RequestLogEntry } from '../../emulator/http/request-log.js';
import { positional, type Action } from '../app.js';
import type { emulatorExec } from './exec-command.js';
import { launchEmulator, requestLine } from './launch.js';

/** The action of the command declared in exec-command.ts, loaded when it runs. */
export const emulatorExecAction: Action<typeof emulatorExec.flags> = async (ctx, command, flags) => {
  const [argv] = positional(command) as [string[]];
  const { emulator } = await launchEmulator(ctx, command, flags, {
    ...(ctx.io.verbose && { onRequest: (entry: RequestLogEntry) => ctx.io.note(requestLine(entry)) }),
  });
  try {
    // Stopped while the emulator was starting: the command is not started at all.
    if (ctx.signal.aborted) return { kind: 'ranCommand', code: 128 + signalNumber(ctx.signal.reason) };
    const env = { CSAFE_BASE_URL: reachableUrl(emulator.baseUrl), CSAFE_API_KEY: emulator.apiKey, CSAFE_WEBHOOK_SECRET: emulator.webhookSecret };
    return { kind: 'ranCommand', code: await runToEnd(ctx, argv, env) };
  } finally {
    await emulator.close();
  }
};

/**
 * Runs the command with csafe's stdio and `env` over csafe's environment, until it ends: its exit
 * code, 128 + N when signal N ended it. A signal that stops csafe is passed on once (see the
 * declaration's help for which), and csafe goes on waiting.
 */
function runToEnd(ctx: Context, [file, ...args]: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, { stdio: 'inherit', env: { ...ctx.env, ...env } });
    const passOn = () => {
      const signal = ctx.signal.reason as string;
      // A terminal sends Ctrl-C (and a hang-up) to the whole foreground group, the command too.
      const fromTerminal = (signal === 'SIGINT' || signal === 'SIGHUP') && ctx.io.stdinIsTTY;
      if (!fromTerminal && signal in constants.signals) child.kill(signal as NodeJS.Signals);
    };
    ctx.signal.addEventListener('abort', passOn, { once: true });
    // csafe leaving at once (a second Ctrl-C or SIGTERM) takes the command with it: left running,
    // it would go on against an emulator that is gone.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    const done = () => {
      ctx.signal.removeEventListener('abort', passOn);
      process.off('exit', killOnExit);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      done();
      if (error.code === 'ENOENT') reject(new CommandNotFoundError(`${file}: not found`, { hint: 'give the command after --, as a path or a name on PATH' }));
      else if (error.code === 'EACCES') reject(new CommandNotRunnableError(`${file}: cannot be run (permission denied)`, { hint: `make it executable (chmod +x ${file}), or give its interpreter first: -- sh ${file}` }));
      else reject(error);
    });
    child.once('exit', (code, signal) => {
      done();
      resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
    });
  });
}

/**
 * The emulator's address as the command reaches it: one listening on every address (--host
 * 0.0.0.0 or ::) is reached on loopback, where csafe sends a key over plain http.
 */
function reachableUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  else if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

/** The number of the signal named by an abort reason ('SIGTERM'), 0 for another reason. */
const signalNumber = (reason: unknown) => (typeof reason === 'string' && reason in constants.signals ? constants.signals[reason as NodeJS.Signals] : 0);
