import { parseOptions } from '../../core/cli/options.js';
import { UsageError } from '../../core/errors.js';
import { longFlag } from '../../core/cli/flags.js';
import { positional, type Action } from '../app.js';
import { classifyOptionsSchema, missingUserId, type ClassifyFlags } from './options.js';

/** `csafe classify`: files or --text one request each, or the lines of a --batch file. */
export const runClassify: Action<ClassifyFlags> = async (ctx, command, flags) => {
  const options = parseOptions(classifyOptionsSchema(flags), command.opts());
  const [files] = positional(command) as [string[]];
  const userId = options.userId ?? (await ctx.settings()).userId?.value;
  if (options.each) {
    if (options.batch !== undefined || options.text.length > 0) throw new UsageError('--each classifies the files named, one request each: it takes no --batch or --text');
    const batchOnly = BATCH_ONLY.filter((key) => command.getOptionValueSource(key) === 'cli');
    if (batchOnly.length > 0) {
      throw new UsageError(`--each takes no ${batchOnly.map((key) => flagName(key, flags)).join(', ')}`, {
        hint: '--content-id names one piece of content (classify without --each); the others are for the lines of --batch FILE',
      });
    }
    if (userId === undefined) throw missingUserId();
    return (await import('./each.js')).classifyEach(ctx, files, options, userId);
  }
  if (options.batch === undefined) {
    if (options.shard !== undefined) throw new UsageError('--shard splits the lines of a --batch file between workers: give --batch FILE');
    // One request: a flag of many would be ignored, and the user left to think it applied.
    const manyOnly = ['concurrency', ...BATCH_ONLY.filter((key) => key !== 'contentId')].filter((key) => command.getOptionValueSource(key) === 'cli');
    if (manyOnly.length > 0) {
      throw new UsageError(`classify without --each or --batch sends one request: it takes no ${manyOnly.map((key) => flagName(key, flags)).join(', ')}`, {
        hint: 'they are for --batch FILE, a request a line (--concurrency also for --each, a request a file)',
      });
    }
    return (await import('./single.js')).classifyFiles(ctx, files, options, userId);
  }
  if (files.length > 0 || options.text.length > 0) throw new UsageError('--batch takes no files or --text');
  // Loaded for --batch alone: one classification needs none of the readers, spool and concurrency (start-up time).
  return (await import('./batch.js')).classifyBatch(ctx, options.batch, options, userId);
};

/** The flags of a --batch run, and --content-id (one id for one piece of content): --each would ignore them. */
const BATCH_ONLY = ['contentId', 'shard', 'failed', 'checkpoint', 'skipInvalid', 'fromLine', 'maxRate', 'maxConsecutiveFailures'] as const;

const flagName = (key: string, flags: ClassifyFlags) => longFlag(key, flags[key as keyof ClassifyFlags]);
