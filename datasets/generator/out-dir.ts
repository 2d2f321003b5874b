/**
 * The generator replaces its output directory wholesale, so it must never be pointed at a user's files by
 * mistake: it only replaces a directory that is absent, empty, or already holds a sample world.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../../engine/errors.js';

/** True when `dir` holds a sample world: a `catalogue.json` that says `"synthetic": true`. */
export function holdsSampleWorld(dir: string): boolean {
  try {
    const doc = JSON.parse(readFileSync(join(dir, 'catalogue.json'), 'utf8')) as { synthetic?: unknown };
    return doc.synthetic === true;
  } catch {
    return false;
  }
}

/**
 * Throws INVALID_ARGUMENT (CLI exit 2) naming `out` unless it may be replaced: absent, an empty directory, or
 * a directory holding a sample world. Anything else (a file, a real dataset, a home directory) is left alone.
 */
export function assertReplaceableOutDir(out: string): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) {
    throw new EngineError('INVALID_ARGUMENT', `--out ${out} is a file, not a directory; refusing to replace it with the sample world`, { parameter: 'out', dir: out });
  }
  if (readdirSync(out).length === 0 || holdsSampleWorld(out)) return;
  throw new EngineError(
    'INVALID_ARGUMENT',
    `--out ${out} is not empty and holds no sample world (no catalogue.json with "synthetic": true); refusing to replace it. Choose an empty or new directory.`,
    { parameter: 'out', dir: out },
  );
}
