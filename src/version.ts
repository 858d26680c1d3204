import { readFileSync } from 'node:fs';

/** What scripts/bundle.mjs writes beside the bundle (dist/bundle/build.json). */
interface BuildFile {
  commit?: unknown;
  built?: unknown;
}

/** What the single executable's build (scripts/build-binary.mjs) writes into it with esbuild's define, having no package.json or build.json beside it; not defined elsewhere. */
declare const CSAFE_EXECUTABLE_BUILD: BuildFile & { version: string };
const executableBuild = typeof CSAFE_EXECUTABLE_BUILD === 'undefined' ? undefined : CSAFE_EXECUTABLE_BUILD;

/** csafe's version, from package.json; its own module so that `csafe --version` is answered without loading the rest (launcher.ts). */
export const VERSION: string = executableBuild?.version ?? JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/** What `csafe version` names: the release, the build it came from, and the Node.js running it. */
export interface VersionInfo {
  version: string;
  /** The git commit the build was made from; absent when it was built outside a git checkout. */
  commit?: string;
  /** When the build was made (ISO 8601). */
  built?: string;
  node: string;
  platform: string;
}

/** The version with what scripts/bundle.mjs wrote beside the bundle (dist/bundle/build.json), or the executable carries; a build without it names the release alone. */
export function versionInfo(): VersionInfo {
  const build = executableBuild ?? buildFile();
  return {
    version: VERSION,
    ...(typeof build.commit === 'string' && { commit: build.commit }),
    ...(typeof build.built === 'string' && { built: build.built }),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

function buildFile(): BuildFile {
  try {
    return JSON.parse(readFileSync(new URL('./build.json', import.meta.url), 'utf8'));
  } catch {
    // Run from tsc's output (the tests) or a build that wrote none: the release is still known.
    return {};
  }
}

/** `csafe --version` (or -V) alone, which is answered as `csafe version` would be, before anything else loads. */
export const asksForVersion = (args: readonly string[]): boolean => args.length === 1 && (args[0] === '--version' || args[0] === '-V');

/** One line, as `csafe --version` prints it: `csafe 0.1.0 (commit 84a1868, built 2026-11-27) on Node v20.20.2, linux-x64`. */
export function versionLine(info: VersionInfo = versionInfo()): string {
  const build = [info.commit && `commit ${info.commit}`, info.built && `built ${info.built.slice(0, 10)}`].filter(Boolean).join(', ');
  return `csafe ${info.version}${build ? ` (${build})` : ''} on Node ${info.node}, ${info.platform}`;
}
