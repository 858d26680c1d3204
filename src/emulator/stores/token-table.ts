/** Which access tokens are valid, held by digest only. */

export interface IssuedToken {
  expiresAt: number;
}

/** Issued tokens by digest. Expired ones are pruned as tokens are added, so the table holds about as many as are valid. */
export class TokenTable {
  private readonly tokens = new Map<string, IssuedToken>();
  /** The size at which the next prune runs: twice what the last one kept, so pruning costs O(1) per token. */
  private pruneAt = 1024;

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
}
