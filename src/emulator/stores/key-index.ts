/** Which stored events may carry an idempotency key, in little memory. */

const INITIAL_SLOTS = 1024;

/**
 * Which event carries which idempotency key, in 8 bytes a slot: an open-addressing table of a
 * 32-bit hash of the key and the event's seq, at most half full (16 to 32 bytes a keyed event: a
 * million cost at most 32 MiB, where a Map of the keys themselves cost several times more).
 * The keys stay on disk with their events: a matching hash only names candidates, which the
 * caller checks against the stored event.
 */
export class KeyIndex {
  private hashes = new Uint32Array(INITIAL_SLOTS);
  /** 0 marks an empty slot: seqs start at 1. */
  private seqs = new Uint32Array(INITIAL_SLOTS);
  private count = 0;

  /** The seqs of the events whose key may be this one. */
  candidates(key: string): number[] {
    const hash = hashOf(key);
    const found: number[] = [];
    for (let slot = this.firstSlot(hash); this.seqs[slot] !== 0; slot = this.nextSlot(slot)) {
      if (this.hashes[slot] === hash) found.push(this.seqs[slot]!);
    }
    return found;
  }

  add(key: string, seq: number): void {
    if ((this.count + 1) * 2 > this.seqs.length) this.grow();
    this.place(hashOf(key), seq);
    this.count++;
  }

  clear(): void {
    this.hashes = new Uint32Array(INITIAL_SLOTS);
    this.seqs = new Uint32Array(INITIAL_SLOTS);
    this.count = 0;
  }

  private place(hash: number, seq: number): void {
    let slot = this.firstSlot(hash);
    while (this.seqs[slot] !== 0) slot = this.nextSlot(slot);
    this.hashes[slot] = hash;
    this.seqs[slot] = seq;
  }

  private grow(): void {
    const { hashes, seqs } = this;
    this.hashes = new Uint32Array(seqs.length * 2);
    this.seqs = new Uint32Array(seqs.length * 2);
    for (let slot = 0; slot < seqs.length; slot++) if (seqs[slot] !== 0) this.place(hashes[slot]!, seqs[slot]!);
  }

  // The table's size is a power of two.
  private firstSlot = (hash: number) => hash & (this.seqs.length - 1);
  private nextSlot = (slot: number) => (slot + 1) & (this.seqs.length - 1);
}

/** FNV-1a over the key's UTF-16 code units, with a final mix so that the low bits, which pick the slot, depend on every unit. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < key.length; at++) hash = Math.imul(hash ^ key.charCodeAt(at), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  return (hash ^ (hash >>> 13)) >>> 0;
}
