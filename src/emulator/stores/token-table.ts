import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMissing, makeDirectory, replaceFile } from './files.js';
import { LineFiles, wholeLinesOf } from './line-files.js';

/** Which access tokens are valid, held by digest only, and kept in the data directory across restarts. */

export interface IssuedToken {
  expiresAt: number;
}

/** One issued token on disk: its digest, its expiry, and which API key issued it (a digest too). */
interface TokenLine {
  digest: string;
  expires_at: number;
  key: string;
}

const keyDigest = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex');

/** Issued tokens by digest. Expired ones are pruned as tokens are added, so the table holds about as many as are valid. */
export class TokenTable {
  private readonly tokens = new Map<string, IssuedToken>();
  /** The size at which the next prune runs: twice what the last one kept, so pruning costs O(1) per token. */
  private pruneAt = 1024;
  private readonly files = new LineFiles();

  /** `file`: where issued tokens are appended; none keeps them in memory only. */
  constructor(private readonly file?: { path: string; key: string }) {}

  /**
   * The tokens an earlier emulator on this data directory issued and that are still valid, if it
   * had the same API key: a token authenticates the team of the key that issued it. The file is
   * rewritten with the unexpired ones alone, so it does not grow across restarts.
   */
  static async open(dataDir: string, apiKey: string, now: number): Promise<TokenTable> {
    const folder = join(dataDir, 'tokens');
    await makeDirectory(folder);
    const table = new TokenTable({ path: join(folder, 'issued.jsonl'), key: keyDigest(apiKey) });
    const unexpired = (await table.readLines()).filter((line) => now < line.expires_at);
    await replaceFile(table.file!.path, unexpired.map((line) => `${JSON.stringify(line)}\n`).join(''));
    for (const line of unexpired) if (line.key === table.file!.key) table.add(line.digest, line.expires_at, now);
    return table;
  }

  /** A token just issued: on disk before it is answered, so a restarted emulator still takes it. */
  async issue(digest: string, expiresAt: number, now: number): Promise<void> {
    if (this.file !== undefined) {
      const line: TokenLine = { digest, expires_at: expiresAt, key: this.file.key };
      await this.files.append([{ path: this.file.path, bytes: Buffer.from(`${JSON.stringify(line)}\n`) }]);
    }
    this.add(digest, expiresAt, now);
  }

  add(digest: string, expiresAt: number, now: number): void {
    this.tokens.set(digest, { expiresAt });
    if (this.tokens.size < this.pruneAt) return;
    for (const [key, token] of this.tokens) if (now >= token.expiresAt) this.tokens.delete(key);
    this.pruneAt = Math.max(1024, this.tokens.size * 2);
  }

  get(digest: string): IssuedToken | undefined {
    return this.tokens.get(digest);
  }

  get size(): number {
    return this.tokens.size;
  }

  /** Forgets every token: POST /_emulator/reset. */
  async clear(): Promise<void> {
    this.tokens.clear();
    if (this.file !== undefined) await replaceFile(this.file.path, '');
  }

  private async readLines(): Promise<TokenLine[]> {
    await this.files.whole(this.file!.path);
    const text = await readFile(this.file!.path, 'utf8').catch((error: unknown) => {
      if (isMissing(error)) return '';
      throw error;
    });
    return wholeLinesOf(text).map((line) => JSON.parse(line) as TokenLine);
  }
}
