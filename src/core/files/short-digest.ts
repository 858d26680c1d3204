/**
 * FNV-1a (32 bits) of a text: a short, stable digest to tell files apart by name (code caches,
 * spools), without loading node:crypto, which costs a command's start some 8 ms. Not for
 * anything an attacker may choose: 32 bits are matched by trying, as 32 bits of SHA-256 were.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
