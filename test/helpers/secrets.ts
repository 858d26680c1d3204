import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';

// The secrets sweep: every emulator the end-to-end helpers start accepts SWEEP_API_KEY and signs
// with SWEEP_WEBHOOK_SECRET, csafe is given that key, and whatever csafe prints (stdout, stderr,
// --verbose traces, --dry-run plans, errors) and every file left in a test's temporary directories
// (failed, unconfirmed and skip files, checkpoints, spools, downloads) is searched for either,
// failing the run that leaked it. Only a profile's config file and the emulator's own data directory
// may hold them (their modes, 0600 in 0700, have tests of their own: profiles, store-modes).

/** Recognisable, and new for each test file. */
export const SWEEP_API_KEY = `sk_test_sweep_${randomBytes(12).toString('hex')}`;
export const SWEEP_WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

const MARKERS = [SWEEP_API_KEY, SWEEP_WEBHOOK_SECRET, SWEEP_WEBHOOK_SECRET.slice('whsec_'.length)];

/** The directories that may hold a secret, by the prefix test/helpers gives them: a profile's config, an emulator's data. */
const KEEPERS = ['csafe-config-', 'csafe-emulator-'];
/** csafe's config file wherever a test's HOME puts it: private, as csafe writes it. */
const isConfigFile = (path: string) => basename(path) === 'config.json' && (lstatSync(path).mode & 0o077) === 0;

/** A key file a test writes, as a user would, for --api-key-file: the key is its content, and some are readable by others on purpose. */
const KEY_FILES = 'csafe-key-';

/** Throws when `text` holds a secret of the sweep, naming where it was found (the secret itself is not repeated). */
export function assertNoSecret(text: string, where: string): void {
  const found = MARKERS.findIndex((marker) => text.includes(marker));
  if (found !== -1) throw new Error(`${where} holds the ${found === 0 ? 'API key' : 'webhook signing secret'} the tests gave: a secret leaked`);
}

/**
 * Searches every regular file under `dir` for a secret, a chunk at a time (a test's downloads may be
 * large), but in the directories that may keep one.
 */
export function sweepDirectory(dir: string): void {
  // A test may remove its own directory first.
  if (!existsSync(dir) || basename(dir).startsWith(KEY_FILES)) return;
  if (KEEPERS.some((prefix) => basename(dir).startsWith(prefix))) return;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !isConfigFile(path)) sweepFile(path);
  }
}

function sweepFile(path: string): void {
  const chunk = Buffer.alloc(1024 * 1024);
  const overlap = Math.max(...MARKERS.map((marker) => marker.length));
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return; // Removed meanwhile, or unreadable by design (a test of permissions).
  }
  try {
    let carried = '';
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const text = carried + chunk.toString('latin1', 0, read);
      assertNoSecret(text, `the file ${path}`);
      carried = text.slice(-overlap);
    }
  } finally {
    closeSync(fd);
  }
}
