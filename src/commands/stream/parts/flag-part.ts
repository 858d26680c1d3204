import { UsageError } from '../../../core/errors.js';
import { streamPartProblems, type StreamPart } from '../../../schemas/streams.js';
import type { PartFlags } from './options.js';

type Kind = 'chat' | 'transcript' | 'frame' | 'audio';
type Companion = 'senderId' | 'senderName' | 'speaker';

const KIND_FLAGS: Record<Kind, string> = { chat: '--chat', transcript: '--transcript', frame: '--frame', audio: '--audio' };
const COMPANION_FLAGS: Record<Companion, string> = { senderId: '--sender-id', senderName: '--sender-name', speaker: '--speaker' };
/** The part a companion flag belongs to. */
const OWNER: Record<Companion, Kind> = { senderId: 'chat', senderName: 'chat', speaker: 'transcript' };
const KINDS = Object.keys(KIND_FLAGS) as Kind[];
const COMPANIONS = Object.keys(COMPANION_FLAGS) as Companion[];

/** The flag a user gave for a field of the part, to name it in a message. */
const FLAG_OF_FIELD: Record<string, (kind: Kind) => string> = {
  text: (kind) => KIND_FLAGS[kind],
  url: (kind) => KIND_FLAGS[kind],
  sender_id: () => '--sender-id',
  sender_display_name: () => '--sender-name',
  speaker: () => '--speaker',
  timestamp: () => '--timestamp',
};

const FLAG_OF_KEY: Record<keyof PartFlags, string> = { ...KIND_FLAGS, ...COMPANION_FLAGS, timestamp: '--timestamp' };

/** The flags of a single part that were given, in --help order (then neither a FILE nor --captions may be). */
export const flagPartFlags = (flags: PartFlags) => (Object.keys(FLAG_OF_KEY) as Array<keyof PartFlags>).filter((key) => flags[key] !== undefined).map((key) => FLAG_OF_KEY[key]);

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
      throw new UsageError(`${COMPANION_FLAGS[companion]} goes with ${KIND_FLAGS[OWNER[companion]]}, not ${KIND_FLAGS[kind]}`);
    }
  }
  const timestamp = flags.timestamp ?? new Date(now).toISOString();
  const part = buildPart(kind, flags, timestamp);
  const [problem] = streamPartProblems(part);
  if (problem !== undefined) {
    const flag = FLAG_OF_FIELD[String(problem.path[0])]?.(kind) ?? KIND_FLAGS[kind];
    throw new UsageError(`${flag}: ${problem.message}`);
  }
  return part as StreamPart;
}

function kindOf(flags: PartFlags): Kind {
  const given = KINDS.filter((kind) => flags[kind] !== undefined);
  const all = KINDS.map((kind) => KIND_FLAGS[kind]).join(', ');
  if (given.length > 1) {
    throw new UsageError(`${given.map((kind) => KIND_FLAGS[kind]).join(' and ')} conflict: flags make one part; give one of ${all}, or put several parts in a FILE`);
  }
  if (given.length === 0) {
    const companions = COMPANIONS.filter((companion) => flags[companion] !== undefined);
    const what = companions.length > 0 ? `${COMPANION_FLAGS[companions[0]!]} goes with ${KIND_FLAGS[OWNER[companions[0]!]]}` : '--timestamp needs a part';
    throw new UsageError(`${what}: give one of ${all}`);
  }
  const kind = given[0]!;
  if (kind === 'chat') {
    const missing = (['senderId', 'senderName'] as const).filter((companion) => flags[companion] === undefined);
    if (missing.length > 0) throw new UsageError(`--chat needs ${missing.map((companion) => `${COMPANION_FLAGS[companion]} ${companion === 'senderId' ? 'ID' : 'NAME'}`).join(' and ')}`);
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
