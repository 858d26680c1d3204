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
    const env = { CSAFE_BASE_URL: emulator.baseUrl, CSAFE_API_KEY: emulator.apiKey, CSAFE_WEBHOOK_SECRET: emulator.webhookSecret };
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
    child.once('error', (error: NodeJS.ErrnoException) => {
      ctx.signal.removeEventListener('abort', passOn);
      if (error.code === 'ENOENT') reject(new CommandNotFoundError(`${file}: not found`, { hint: 'give the command after --, as a path or a name on PATH' }));
      else if (error.code === 'EACCES') reject(new CommandNotRunnableError(`${file}: cannot be run (permission denied)`));
      else reject(error);
    });
    child.once('exit', (code, signal) => {
      ctx.signal.removeEventListener('abort', passOn);
      resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
    });
  });
}
