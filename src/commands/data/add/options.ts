import type * as z from 'zod';
import { optionsSchema } from '../../../core/cli/options.js';
import { dataAdd } from './add-command.js';

export const addOptionsSchema = optionsSchema(dataAdd.flags);

export type AddOptions = z.infer<typeof addOptionsSchema>;
