import { link, lstat, readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE, isTemporaryNameOf, type DataDirLayout, makeDirectory, removeLeftovers, temporaryPathFor } from './files.js';

/** Which directory the emulator may keep its data in, and what it makes there. */

/** The file that makes a directory an emulator's data directory, written when an emulator first uses it. */
const MARKER = '.csafe-emulator';
/** Raised when the layout of a data directory changes so that an older csafe could not read it. */
const MARKER_FORMAT = 1;
export const SIGNING_SECRET = 'signing-secret';

/**
 * What the stores make at the top of a data directory: their folders (which reset empties and
 * start-up cleans of leftovers) and files. Nothing else in the directory is ever touched.
 */
export const DATA_DIR_LAYOUT: DataDirLayout = {
  areas: ['namespaces', 'requests', 'uploads', 'ingested', 'streams', 'decisions', 'older-imports', 'batches', 'deletion-requests', 'agent-decisions', 'webhooks', 'events', 'tokens'],
  // 'events' and 'events-index': where an earlier csafe's event store made its files for a moment, under temporary names.
  rootFiles: [SIGNING_SECRET, MARKER, 'events', 'events-index'],
};

/** What a freshly made file system has at its root: a volume's mount point holding only it is still empty for the user. */
const FILE_SYSTEM_ENTRIES = ['lost+found'];

/** The generated secret is 32 random bytes as 64 hex characters; anything shorter would let URLs be forged. */
const SIGNING_SECRET_HEX = /^[0-9a-f]{64,}$/i;

/** A directory the emulator will not use: `message` says why and what to do. */
export class DataDirRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirRefusal';
  }
}

/**
 * Makes `root` (if new) and takes it as the emulator's: an empty directory is marked as its own,
 * a marked one is used as it is, anything else is refused, since reset and the clean-up of
 * leftovers remove files. Then removes what a killed emulator left behind.
 */
export async function claimDataDir(root: string): Promise<void> {
  await makeDirectory(root);
  // A marker or secret that another emulator starting on the directory is writing right now is not a file of the user's.
  const entries = (await readdir(root)).filter((name) => !isTemporaryNameOf(name, DATA_DIR_LAYOUT.rootFiles) && !FILE_SYSTEM_ENTRIES.includes(name));
  if (entries.includes(MARKER)) await checkMarker(root);
  else if (entries.length === 0) await writeMarker(root);
  else if (await isUnmarkedDataDir(root, entries)) {
    // Its secret is checked before it is marked, so a directory refused for it (a user's own
    // signing-secret beside an uploads folder) is left exactly as it was.
    signingSecretOf(await readFile(join(root, SIGNING_SECRET), 'utf8'));
    await writeMarker(root);
  } else {
    throw new DataDirRefusal(
      `the directory is not empty and has no ${MARKER} file, so it is not an emulator data directory ` +
        '(the emulator removes files in its data directory); give an empty or new directory',
    );
  }
  await removeLeftovers(root, DATA_DIR_LAYOUT);
}

/** The signing secret as read from its file; refused when anyone could guess it. */
export function signingSecretOf(text: string): Buffer {
  const hex = text.trim();
  if (!SIGNING_SECRET_HEX.test(hex)) {
    throw new DataDirRefusal(
      `its ${SIGNING_SECRET} file is not at least 64 hex characters (32 random bytes), so its pre-signed URLs could be forged; ` +
        'remove the file and a new secret is made at the next start (URLs handed out before stop working)',
    );
  }
  return Buffer.from(hex, 'hex');
}

/**
 * A data directory of a csafe from before the marker: its signing secret and nothing but the
 * emulator's own folders. It is adopted (marked), so existing data stays usable.
 */
async function isUnmarkedDataDir(root: string, entries: readonly string[]): Promise<boolean> {
  const kinds = await Promise.all(entries.map(async (name) => [name, await lstat(join(root, name))] as const));
  return (
    entries.includes(SIGNING_SECRET) &&
    kinds.every(([name, info]) => (name === SIGNING_SECRET ? info.isFile() : DATA_DIR_LAYOUT.areas.includes(name) && info.isDirectory()))
  );
}

/** Written beside and linked into place, so an emulator starting on the same directory meanwhile reads all of it or none. */
async function writeMarker(root: string): Promise<void> {
  const path = join(root, MARKER);
  const temporary = temporaryPathFor(path);
  await writeFile(temporary, `${JSON.stringify({ format: MARKER_FORMAT, by: 'csafe emulator' })}\n`, { mode: FILE_MODE });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await checkMarker(root);
  } finally {
    await unlink(temporary);
  }
}

async function checkMarker(root: string): Promise<void> {
  const path = join(root, MARKER);
  const format = (await lstat(path)).isFile() ? markerFormat(await readFile(path, 'utf8')) : undefined;
  if (format === undefined) {
    throw new DataDirRefusal(`its ${MARKER} file is not one csafe wrote; give an empty or new directory`);
  }
  if (format > MARKER_FORMAT) {
    throw new DataDirRefusal(`it was made by a newer csafe (data directory format ${format}, this csafe reads ${MARKER_FORMAT}); use that csafe, or an empty or new directory`);
  }
}

function markerFormat(text: string): number | undefined {
  try {
    const { format } = JSON.parse(text) as { format?: unknown };
    return Number.isInteger(format) && (format as number) >= 1 ? (format as number) : undefined;
  } catch {
    return undefined;
  }
}
