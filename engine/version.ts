/** The package version and root directory, read from package.json at startup. */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackage(): { version: string; root: string } {
  // Sources sit one level below the root (engine/), the build two (dist/engine/).
  for (const rel of ['../package.json', '../../package.json']) {
    const url = new URL(rel, import.meta.url);
    try {
      const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'propintel' && pkg.version) return { version: pkg.version, root: dirname(fileURLToPath(url)) };
    } catch {
      // try the next location
    }
  }
  return { version: '0.0.0', root: process.cwd() };
}

const pkg = findPackage();

/** The propintel version. */
export const VERSION = pkg.version;

/** The package's root directory (where package.json is), from sources or from dist/. */
export const PACKAGE_ROOT = pkg.root;
