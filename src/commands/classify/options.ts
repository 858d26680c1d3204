import * as z from 'zod';
import { integerFlag, optionsSchema } from '../../core/cli/options.js';
import { UsageError } from '../../core/errors.js';
import { CURRENT_VERSION } from '../../schemas/content.js';
import type { classify } from './index.js';

// `csafe classify`: how its flags are checked and turned into options.

export type ClassifyFlags = typeof classify.flags;

/** The checks of classify's flags, with the defaults its help does not show. */
export function classifyOptionsSchema(flags: ClassifyFlags) {
  const fromFlags = optionsSchema(flags);
  return fromFlags.extend({
    userId: z.string().min(1, { error: 'expected a non-empty user id' }).optional(),
    apiVersion: fromFlags.shape.apiVersion.default(CURRENT_VERSION),
    /** --batch: the first line to classify; an interrupted run prints it. */
    fromLine: integerFlag(1).default(1),
  });
}

export type ClassifyOptions = z.infer<ReturnType<typeof classifyOptionsSchema>>;

/** A classification needs whose it is: the flag, or a default the profile keeps. */
export const missingUserId = () => new UsageError('--user-id is required', { hint: 'or set a default: `csafe config set user_id <id>`' });
