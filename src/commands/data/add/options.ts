import type { OptionsOf } from '../../../core/cli/flags.js';
import type { dataAdd } from './add-command.js';

// `csafe data add`: how its flags are checked and turned into options.

export type AddFlags = typeof dataAdd.flags;
export type AddOptions = OptionsOf<AddFlags>;
