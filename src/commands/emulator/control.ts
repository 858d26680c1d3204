import { emulatorHealth, resetEmulator } from '../../api/emulator.js';
import type { Context } from '../../context.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import type { Action } from '../app.js';

// `csafe emulator status` and `csafe emulator reset`: the control routes of a running emulator,
// called with the configured base URL and key instead of hand-written curl.

/** Whether an emulator answers at the configured base URL, and for how long it has run. */
export const emulatorStatusAction: Action = async (ctx) => {
  const http = await ctx.http();
  const health = await emulatorHealth(http);
  const status = { base_url: http.baseUrl, ...health };
  await printResult(ctx.io, await ctx.outputFormat('single'), status, recordView(status));
};

/** Drops everything the emulator holds; under --emulator, the state that persists between runs. */
export const emulatorResetAction: Action = async (ctx: Context) => {
  const http = await ctx.http();
  const answer = await resetEmulator(http);
  const reset = { base_url: http.baseUrl, ...answer };
  await printResult(ctx.io, await ctx.outputFormat('single'), reset, recordView(reset));
};
