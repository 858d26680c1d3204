/**
 * The V8 flags csafe's HTTP runs best with, set by the client as undici loads, and set by bin/csafe
 * before it compiles the bundle: V8 takes a code cache only under the flags it was made under.
 */

/*
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with Liftoff, then
 * recompiles its hot parse function with TurboFan on a background thread, and a process that is
 * otherwise done waits for that compile before it exits: 60–80 ms, more than the request itself.
 * Liftoff's code parses our answers as fast (measured: 4,000 requests, a 200 MB download). Set
 * before undici compiles its parser, which it does on the first connection.
 */
const HTTP_V8_FLAGS = '--liftoff-only';

/** Taken when first called: bin/csafe's quick answers (src/quick.ts) load no node:v8. */
export function setHttpV8Flags(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString(HTTP_V8_FLAGS);
}
