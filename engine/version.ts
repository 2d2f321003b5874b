/** The package version, read from package.json at startup. */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'propintel' && pkg.version) return pkg.version;
    } catch {
      // try the next location (source and built layouts differ by one level)
    }
  }
  return '0.0.0';
}

/** The propintel version. */
export const VERSION = readVersion();
