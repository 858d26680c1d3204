import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import type { CommandDecl, GroupDecl } from '../declaration.js';
import { emulatorExec } from './exec-command.js';
import { emulatorStart } from './start-command.js';

// `csafe emulator`: the group of commands that run the local service and control a running one.

const emulatorStatus: CommandDecl = {
  name: 'status',
  description: 'Show whether an emulator answers at the base URL, and how long it has run (GET /_emulator/health)',
  examples: ['csafe emulator status', 'csafe emulator status --json | jq .uptime_s'],
  environment: SERVICE_VARIABLES,
  run: async () => (await import('./control.js')).emulatorStatusAction,
};

const emulatorReset: CommandDecl = {
  name: 'reset',
  description: 'Drop everything an emulator holds: namespaces, requests, uploads, streams, events, batches (POST /_emulator/reset); with --emulator, the state kept between runs',
  examples: ['csafe emulator reset', 'csafe --emulator emulator reset'],
  flags: { dryRun: DRY_RUN_FLAG },
  environment: SERVICE_VARIABLES,
  run: async () => (await import('./control.js')).emulatorResetAction,
};

export const emulatorGroup: GroupDecl = {
  name: 'emulator',
  description: 'A local Content Safety Service for offline development and tests',
  commands: [
    { ...emulatorStart, run: async () => (await import('./start.js')).emulatorStartAction },
    { ...emulatorExec, run: async () => (await import('./exec.js')).emulatorExecAction },
    emulatorStatus,
    emulatorReset,
  ],
};
