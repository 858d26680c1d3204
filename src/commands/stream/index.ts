import type { GroupDecl } from '../declaration.js';
import { streamParts } from './parts/parts-command.js';
import { streamWatch } from './watch-command.js';

// `csafe stream`: the group of commands for livestreams.

export const streamGroup: GroupDecl = {
  name: 'stream',
  description: 'Livestreams: monitor a stream, push chat, transcripts, frames and audio as they happen',
  commands: [
    { ...streamWatch, run: async () => (await import('./watch.js')).streamWatchAction },
    { ...streamParts, run: async () => (await import('./parts/parts.js')).streamPartsAction },
  ],
};
