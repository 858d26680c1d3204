import type * as z from 'zod';
import { optionsSchema } from '../../../core/cli/options.js';
import { eventsSend } from './send-command.js';

export const sendOptionsSchema = optionsSchema(eventsSend.flags);

export type SendOptions = z.infer<typeof sendOptionsSchema>;
