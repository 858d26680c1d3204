import type { OptionsOf } from '../../../core/cli/flags.js';
import type { eventsSend } from './send-command.js';

// `csafe events send`: how its flags are checked and turned into options.

export type SendFlags = typeof eventsSend.flags;
export type SendOptions = OptionsOf<SendFlags>;
