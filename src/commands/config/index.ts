import { PROFILE_VARIABLES } from '../../core/cli/help.js';
import { CONFIG_KEYS } from '../../core/config/keys.js';
import type { CommandDecl, GroupDecl } from '../declaration.js';

// `csafe config`: the group and the declarations of its commands, which read and write the settings of
// a profile.

const configGet: CommandDecl = {
  name: 'get',
  description: 'Print one setting of the profile (api_key is masked)',
  args: [{ name: '<key>' }],
  examples: ['csafe --profile staging config get base_url', 'csafe config get user_id     # exit 1 when the profile does not set it'],
  environment: PROFILE_VARIABLES,
  run: async () => (await import('./run.js')).configGetAction,
};

const configSet: CommandDecl = {
  name: 'set',
  description: 'Set one setting of the profile, creating the profile if it is new; the value is checked as its flag would check it',
  args: [{ name: '<key>' }, { name: '<value>' }],
  details: '\noutput sets the format on a terminal only: in a pipe a command prints JSON (or NDJSON)\nunless -o or --json says otherwise.',
  examples: ['csafe config set user_id u1', 'csafe config set output json', 'csafe --profile staging config set base_url https://csafe.staging.example.com'],
  environment: PROFILE_VARIABLES,
  run: async () => (await import('./run.js')).configSetAction,
};

const configUnset: CommandDecl = {
  name: 'unset',
  description: 'Remove one setting from the profile (its default, environment variable or flag applies again)',
  args: [{ name: '<key>' }],
  examples: ['csafe config unset output', 'csafe --profile staging config unset user_id'],
  environment: PROFILE_VARIABLES,
  run: async () => (await import('./run.js')).configUnsetAction,
};

const configList: CommandDecl = {
  name: 'list',
  description: 'Print every setting of the profile (api_key is masked)',
  examples: ['csafe config list', 'csafe --profile staging config list --json | jq -r .base_url'],
  environment: [...PROFILE_VARIABLES, 'COLUMNS'],
  run: async () => (await import('./run.js')).configListAction,
};

export const configGroup: GroupDecl = {
  name: 'config',
  description: `Profile settings: ${CONFIG_KEYS.join(', ')}`,
  details: '\nThe profile is --profile, else CSAFE_PROFILE, else "default". get, unset and list refuse a profile\nthe config file does not hold (exit 2, listing those it does); set creates it.',
  commands: [configGet, configSet, configUnset, configList],
};
