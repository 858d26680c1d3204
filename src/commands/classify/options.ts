import * as z from 'zod';
import { integerFlag, optionsSchema } from '../../core/cli/options.js';
import { CURRENT_VERSION } from '../../schemas/content.js';
import { classify } from './index.js';

const fromFlags = optionsSchema(classify.flags);

export const classifyOptionsSchema = fromFlags.extend({
  userId: z.string().min(1, { error: 'expected a non-empty user id' }).optional(),
  apiVersion: fromFlags.shape.apiVersion.default(CURRENT_VERSION),
  /** --batch: the first line to classify; an interrupted run prints it. */
  fromLine: integerFlag(1).default(1),
});

export type ClassifyOptions = z.infer<typeof classifyOptionsSchema>;
