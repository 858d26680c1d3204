// Every command group of csafe, in the order `csafe --help` lists them; each is declared once
// beside its code (src/commands/<group>/index.ts). main.ts builds commander's program from it.

import { agentDecisionGroup } from './agent-decision/index.js';
import { authGroup } from './auth/index.js';
import { batchGroup } from './batch/index.js';
import { classify } from './classify/index.js';
import { completion } from './completion/index.js';
import { configGroup } from './config/index.js';
import { dataGroup } from './data/index.js';
import { decisionGroup } from './decision/index.js';
import { deletionRequestGroup } from './deletion-request/index.js';
import type { TreeNode } from './declaration.js';
import { emulatorGroup } from './emulator/index.js';
import { eventsGroup } from './events/index.js';
import { importGroup } from './import/index.js';
import { settingsGroup } from './settings/index.js';
import { streamGroup } from './stream/index.js';
import { tokenGroup } from './token/index.js';
import { version } from './version/index.js';
import { webhooksGroup } from './webhooks/index.js';

export const TREE: readonly TreeNode[] = [
  { ...classify, run: async () => (await import('./classify/run.js')).runClassify },
  tokenGroup,
  authGroup,
  configGroup,
  settingsGroup,
  dataGroup,
  importGroup,
  eventsGroup,
  streamGroup,
  decisionGroup,
  batchGroup,
  agentDecisionGroup,
  deletionRequestGroup,
  webhooksGroup,
  emulatorGroup,
  completion,
  version,
];
