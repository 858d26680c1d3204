import { readFileSync } from 'node:fs';

/** csafe's version, from package.json; its own module so that bin/csafe answers `--version` without loading the rest. */
export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

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

/** The version with what scripts/bundle.mjs wrote beside the bundle (dist/bundle/build.json); a build without it names the release alone. */
export function versionInfo(): VersionInfo {
  let build: { commit?: unknown; built?: unknown } = {};
  try {
    build = JSON.parse(readFileSync(new URL('./build.json', import.meta.url), 'utf8'));
  } catch {
    // Run from tsc's output (the tests) or a build that wrote none: the release is still known.
  }
  return {
    version: VERSION,
    ...(typeof build.commit === 'string' && { commit: build.commit }),
    ...(typeof build.built === 'string' && { built: build.built }),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** One line, as `csafe --version` prints it: `csafe 0.1.0 (commit 84a1868, built 2026-11-27) on Node v20.20.2, linux-x64`. */
export function versionLine(info: VersionInfo = versionInfo()): string {
  const build = [info.commit && `commit ${info.commit}`, info.built && `built ${info.built.slice(0, 10)}`].filter(Boolean).join(', ');
  return `csafe ${info.version}${build ? ` (${build})` : ''} on Node ${info.node}, ${info.platform}`;
}
