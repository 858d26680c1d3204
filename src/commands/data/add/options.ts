import type { OptionsOf } from '../../../core/cli/flags.js';
import type { dataAdd } from './add-command.js';

export type AddFlags = typeof dataAdd.flags;
export type AddOptions = OptionsOf<AddFlags>;
