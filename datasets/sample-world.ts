/**
 * Where the sample world lives, and generating it when it is absent or stale. Every command that takes
 * `--data DIR` defaults to {@link defaultDataDir}, generating it first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT, VERSION } from '../engine/version.js';
import { DEFAULT_SEED, GENERATOR_VERSION, generateSampleWorld, type GenerateResult } from './generator/generate.js';
import { TILES } from './generator/tiles.js';

/** The default dataset directory: `datasets/sample-world/` in the package (git-ignored). */
export function defaultDataDir(): string {
  return join(PACKAGE_ROOT, 'datasets', 'sample-world');
}

/** The generator stamp a sample world must carry to be reused. */
export function expectedGeneratorVersion(): string {
  return `${VERSION}+g${GENERATOR_VERSION}`;
}

/** Why `dir` is not a current sample world (another version, seed, or missing tiles), or null when it is. */
export function staleReason(dir: string, seed = DEFAULT_SEED, tiles: readonly string[] = TILES.map((t) => t.id)): string | null {
  const file = join(dir, 'catalogue.json');
  if (!existsSync(file)) return 'it holds no catalogue';
  let gen: { version?: string; seed?: number; tiles?: unknown } | undefined;
  try {
    gen = (JSON.parse(readFileSync(file, 'utf8')) as { generator?: typeof gen }).generator;
  } catch {
    return 'its catalogue is not valid JSON';
  }
  if (gen?.version !== expectedGeneratorVersion()) return `it was made by generator ${gen?.version ?? '(unknown)'}, not ${expectedGeneratorVersion()}`;
  if (gen.seed !== seed) return `it was made with seed ${gen.seed}, not ${seed}`;
  const have = Array.isArray(gen.tiles) ? gen.tiles : [];
  const missing = tiles.filter((t) => !have.includes(t));
  if (missing.length) return `it lacks tile${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  return null;
}

/**
 * True when `dir` holds a sample world written by this generator version with `seed` and every tile in
 * `tiles` (default all eight: a one-tile world written into the default directory is not the sample world).
 */
export function isCurrentSampleWorld(dir: string, seed = DEFAULT_SEED, tiles?: readonly string[]): boolean {
  return staleReason(dir, seed, tiles) === null;
}

/**
 * Makes sure a dataset directory is usable: a directory with a catalogue that is not a sample world is used
 * as it is; the default sample world is generated when missing, written by another generator version or seed,
 * or holding fewer than all eight tiles. Returns the generation result when it generated, else null.
 */
export async function ensureSampleWorld(dir = defaultDataDir(), onProgress?: (line: string) => void): Promise<GenerateResult | null> {
  const catalogue = join(dir, 'catalogue.json');
  if (existsSync(catalogue)) {
    const doc = JSON.parse(readFileSync(catalogue, 'utf8')) as { synthetic?: boolean };
    const why = doc.synthetic ? staleReason(dir) : null;
    if (why === null) return null;
    onProgress?.(`The sample world in ${dir} is stale (${why}); regenerating.`);
  } else {
    onProgress?.(`No dataset in ${dir}; generating the sample world (seed ${DEFAULT_SEED}):`);
  }
  return generateSampleWorld({ out: dir, seed: DEFAULT_SEED, onProgress });
}
