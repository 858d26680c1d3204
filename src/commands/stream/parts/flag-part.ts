import { UsageError } from '../../../core/errors.js';
import { streamPartProblems, type StreamPart } from '../../../schemas/streams.js';
import { kebab } from '../../../core/cli/flags.js';
import type { PartFlags } from './options.js';

// `csafe stream parts`: one part given by flags instead of a file, and which flag names each of its
// fields in a message.

type Kind = 'chat' | 'transcript' | 'frame' | 'audio';
type Companion = 'senderId' | 'senderName' | 'speaker';

/** The part a companion flag belongs to. */
const OWNER: Record<Companion, Kind> = { senderId: 'chat', senderName: 'chat', speaker: 'transcript' };
const KINDS: readonly Kind[] = ['chat', 'transcript', 'frame', 'audio'];
const COMPANIONS: readonly Companion[] = ['senderId', 'senderName', 'speaker'];

/** The flag as the user writes it: `senderId` → `--sender-id`. */
const flagOf = (key: keyof PartFlags) => `--${kebab(key)}`;

/** The flag a user gave for a field of the part, to name it in a message. */
const FLAG_OF_FIELD: Record<string, (kind: Kind) => string> = {
  text: flagOf,
  url: flagOf,
  sender_id: () => flagOf('senderId'),
  sender_display_name: () => flagOf('senderName'),
  speaker: () => flagOf('speaker'),
  timestamp: () => flagOf('timestamp'),
};

const PART_FLAG_KEYS: ReadonlyArray<keyof PartFlags> = [...KINDS, ...COMPANIONS, 'timestamp'];

/** The flags of a single part that were given, in --help order (then neither a FILE nor --captions may be). */
export const flagPartFlags = (flags: PartFlags) => PART_FLAG_KEYS.filter((key) => flags[key] !== undefined).map(flagOf);

export const givesFlagPart = (flags: PartFlags) => flagPartFlags(flags).length > 0;

/**
 * The one part the flags describe, checked with the shared schema; `now` is the default
 * timestamp. A mix that makes no single part is a usage error naming what is missing or what
 * conflicts, and a value the service would refuse names its flag.
 */
export function partFromFlags(flags: PartFlags, now: number): StreamPart {
  const kind = kindOf(flags);
  for (const companion of COMPANIONS) {
    if (flags[companion] !== undefined && OWNER[companion] !== kind) {
      throw new UsageError(`${flagOf(companion)} goes with ${flagOf(OWNER[companion])}, not ${flagOf(kind)}`);
    }
  }
  const timestamp = flags.timestamp ?? new Date(now).toISOString();
  const part = buildPart(kind, flags, timestamp);
  const [problem] = streamPartProblems(part);
  if (problem !== undefined) {
    const flag = FLAG_OF_FIELD[String(problem.path[0])]?.(kind) ?? flagOf(kind);
    throw new UsageError(`${flag}: ${problem.message}`);
  }
  return part as StreamPart;
}

function kindOf(flags: PartFlags): Kind {
  const given = KINDS.filter((kind) => flags[kind] !== undefined);
  const all = KINDS.map((kind) => flagOf(kind)).join(', ');
  if (given.length > 1) {
    throw new UsageError(`${given.map((kind) => flagOf(kind)).join(' and ')} conflict: flags make one part; give one of ${all}, or put several parts in a FILE`);
  }
  if (given.length === 0) {
    const companions = COMPANIONS.filter((companion) => flags[companion] !== undefined);
    const what = companions.length > 0 ? `${flagOf(companions[0]!)} goes with ${flagOf(OWNER[companions[0]!])}` : '--timestamp needs a part';
    throw new UsageError(`${what}: give one of ${all}`);
  }
  const kind = given[0]!;
  if (kind === 'chat') {
    const missing = (['senderId', 'senderName'] as const).filter((companion) => flags[companion] === undefined);
    if (missing.length > 0) throw new UsageError(`--chat needs ${missing.map((companion) => `${flagOf(companion)} ${companion === 'senderId' ? 'ID' : 'NAME'}`).join(' and ')}`);
  }
  return kind;
}

function buildPart(kind: Kind, flags: PartFlags, timestamp: string): Record<string, unknown> {
  switch (kind) {
    case 'chat':
      return { type: 'chat_message', sender_id: flags.senderId, sender_display_name: flags.senderName, text: flags.chat, timestamp };
    case 'transcript':
      return { type: 'transcript', text: flags.transcript, timestamp, ...(flags.speaker !== undefined && { speaker: flags.speaker }) };
    case 'frame':
      return { type: 'frame_image_url', url: flags.frame, timestamp };
    case 'audio':
      return { type: 'audio_url', url: flags.audio, timestamp };
  }
}
