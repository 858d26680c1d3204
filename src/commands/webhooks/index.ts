import type { GroupDecl } from '../declaration.js';
import { webhooksListen } from './listen-command.js';
import { webhooksTrigger } from './trigger-command.js';
import { webhooksVerify } from './verify-command.js';

// `csafe webhooks`: the service's signed notifications, and the tools to build a receiver for them.

export const webhooksGroup: GroupDecl = {
  name: 'webhooks',
  description: 'Signed notifications (Standard Webhooks): check a signature as your receiver must; receive the emulator\'s on this machine; have it send one',
  commands: [
    { ...webhooksVerify, run: async () => (await import('./verify.js')).webhooksVerifyAction },
    { ...webhooksListen, run: async () => (await import('./listen.js')).webhooksListenAction },
    { ...webhooksTrigger, run: async () => (await import('./trigger.js')).webhooksTriggerAction },
  ],
};
