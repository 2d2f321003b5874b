/**
 * Where the sample world lives, and generating it when it is absent or stale. Every command that takes
 * `--data DIR` defaults to {@link defaultDataDir}, generating it first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT, VERSION } from '../engine/version.js';
import { DEFAULT_SEED, GENERATOR_VERSION, generateSampleWorld, type GenerateResult } from './generator/generate.js';

/** The default dataset directory: `datasets/sample-world/` in the package (git-ignored). */
export function defaultDataDir(): string {
  return join(PACKAGE_ROOT, 'datasets', 'sample-world');
}

/** The generator stamp a sample world must carry to be reused. */
export function expectedGeneratorVersion(): string {
  return `${VERSION}+g${GENERATOR_VERSION}`;
}

/** True when `dir` holds a sample world written by this generator version with `seed`. */
export function isCurrentSampleWorld(dir: string, seed = DEFAULT_SEED): boolean {
  const file = join(dir, 'catalogue.json');
  if (!existsSync(file)) return false;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { generator?: { version?: string; seed?: number } };
    return doc.generator?.version === expectedGeneratorVersion() && doc.generator?.seed === seed;
  } catch {
    return false;
  }
}

/**
 * Makes sure a dataset directory is usable: a directory with a catalogue that is not a sample world is used
 * as it is; the default sample world is generated when missing or written by another generator version.
 * Returns the generation result when it generated, else null.
 */
export async function ensureSampleWorld(dir = defaultDataDir(), onProgress?: (line: string) => void): Promise<GenerateResult | null> {
  const catalogue = join(dir, 'catalogue.json');
  if (existsSync(catalogue)) {
    const doc = JSON.parse(readFileSync(catalogue, 'utf8')) as { synthetic?: boolean };
    if (!doc.synthetic || isCurrentSampleWorld(dir)) return null;
    onProgress?.(`The sample world in ${dir} was made by another generator version; regenerating.`);
  } else {
    onProgress?.(`No dataset in ${dir}; generating the sample world (seed ${DEFAULT_SEED}):`);
  }
  return generateSampleWorld({ out: dir, seed: DEFAULT_SEED, onProgress });
}
