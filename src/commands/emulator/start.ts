import { once } from 'node:events';
import { parseFlags } from '../../core/cli/options.js';
import { recordView, toNdjsonLine } from '../../core/terminal/output.js';
import type { RequestLogEntry } from '../../emulator/http/request-log.js';
import type { Action } from '../app.js';
import { launchEmulator, requestLine } from './launch.js';
import type { emulatorStart } from './start-command.js';

/** The action of the command declared in start-command.ts, loaded when it runs. */
export const emulatorStartAction: Action<typeof emulatorStart.flags> = async (ctx, command, flags) => {
  const { emulator, options } = await launchEmulator(ctx, command, flags, {
    // Each request on the emulator's terminal, as stripe-mock shows them (--quiet silences it; --verbose logs it anywhere).
    ...((ctx.io.stderrIsTTY || ctx.io.verbose) && { onRequest: (entry: RequestLogEntry) => ctx.io.note(requestLine(entry)) }),
  });
  const { printSecret } = parseFlags({ printSecret: flags.printSecret }, command.opts());
  const ready = { base_url: emulator.baseUrl, api_key: emulator.apiKey, ...(printSecret && { webhook_secret: emulator.webhookSecret }) };
  // In JSON, one line that a script can read as soon as it arrives (the emulator runs on after it).
  const format = ctx.flagOutputFormat('single');
  if (format === 'tsv') await ctx.io.out(recordView(ready).tsv());
  else if (format !== 'table') await ctx.io.out(toNdjsonLine(ready));
  else {
    await ctx.io.out(
      `Content Safety emulator listening on ${emulator.baseUrl}\nAPI key: ${emulator.apiKey}\n` +
        // A secret of the user's own is not echoed unless asked for; the one made here is theirs to learn.
        `${printSecret || (options.webhookUrl.length > 0 && options.webhookSecret === undefined) ? `Webhook signing secret: ${emulator.webhookSecret}\n` : ''}\n` +
        `  export CSAFE_BASE_URL=${emulator.baseUrl}\n  export CSAFE_API_KEY=${emulator.apiKey}\n`,
    );
  }
  if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
  await emulator.close();
  ctx.io.note('emulator stopped');
};
