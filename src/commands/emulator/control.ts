import { emulatorHealth, resetEmulator } from '../../api/emulator.js';
import type { Context } from '../../context.js';
import { ConnectionError } from '../../core/errors.js';
import type { HttpClient } from '../../core/http/client.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import type { Action } from '../app.js';

// `csafe emulator status` and `csafe emulator reset`: the control routes of a running emulator,
// called with the configured base URL and key instead of hand-written curl.

/** Whether an emulator answers at the configured base URL, and for how long it has run. */
export const emulatorStatusAction: Action = (ctx) => printControlAnswer(ctx, emulatorHealth);

/** Drops everything the emulator holds; under --emulator, the state that persists between runs. */
export const emulatorResetAction: Action = (ctx) => printControlAnswer(ctx, resetEmulator);

/** Calls one control route and prints its answer, with the base URL it went to. */
async function printControlAnswer(ctx: Context, call: (http: HttpClient) => Promise<Record<string, unknown>>): Promise<void> {
  const http = await ctx.http();
  const answer = { base_url: http.baseUrl, ...(await call(http).catch(withStartHint)) };
  await printResult(ctx.io, await ctx.outputFormat('single'), answer, recordView(answer));
}

/** Nothing listening at the base URL: most often no emulator was started, which the bare connection error does not say. */
function withStartHint(error: unknown): never {
  if (!(error instanceof ConnectionError) || error.sent) throw error;
  throw new ConnectionError(error.message, false, { hint: 'no emulator listens there: start one with `csafe emulator start` (or run a command with --emulator)' });
}
