import { versionInfo, versionLine } from '../../version.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import type { Action } from '../app.js';

// `csafe version`: one line for people and for `csafe --version | cut`, the same as fields with --json or -o.

export const versionAction: Action = async (ctx) => {
  const info = versionInfo();
  // One line wherever stdout goes (scripts have long read `--version` as text); a format only when asked for.
  const format = ctx.flags.json || ctx.flags.output !== undefined ? ctx.flagOutputFormat('single') : undefined;
  if (format === undefined) await ctx.io.out(`${versionLine(info)}\n`);
  else await printResult(ctx.io, format, info, recordView({ ...info }));
};
