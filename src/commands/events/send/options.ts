import type { OptionsOf } from '../../../core/cli/flags.js';
import type { eventsSend } from './send-command.js';

export type SendFlags = typeof eventsSend.flags;
export type SendOptions = OptionsOf<SendFlags>;
