// The files csafe reads at run time that the single executable (scripts/build-binary.mjs) carries
// inside it, as assets, having no package beside it: the import-check worker, the completion scripts.

/** The asset `name` (`import-check-worker.js`, `completions/csafe.bash`) when csafe runs as the single executable; else undefined. */
export function embeddedFile(name: string): string | undefined {
  const sea = process.getBuiltinModule('node:sea');
  return sea.isSea() ? sea.getAsset(name, 'utf8') : undefined;
}
