/**
 * The canned samples of spec section 4 (`/api/v1/property/sample`, `/sample/core`, `/sample/walkability`,
 * `/sample/flood`, `/sample/bushfire`, `/sample/context`, `/sample/contamination`): real engine output on
 * sample-world addresses, written by `scripts/make-samples` into datasets/samples/ and served as files.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The sample names, as the paths under /api/v1/property/sample name them (`sample` is the full payload). */
export const SAMPLE_NAMES = ['sample', 'core', 'walkability', 'flood', 'bushfire', 'context', 'contamination'] as const;
/** One of {@link SAMPLE_NAMES}. */
export type SampleName = (typeof SAMPLE_NAMES)[number];

/** The directory holding the sample files (datasets/samples, found from source or built output). */
export function samplesDir(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  // engine/property/ in source, dist/engine/property/ when built: the samples stay in the source tree.
  return here.includes('/dist/') ? fileURLToPath(new URL('../../../datasets/samples/', import.meta.url)) : fileURLToPath(new URL('../../datasets/samples/', import.meta.url));
}

const cache = new Map<string, unknown>();

/** A sample by name, parsed, or null when the name is unknown or its file is absent. */
export async function readSample(name: string): Promise<unknown | null> {
  if (!(SAMPLE_NAMES as readonly string[]).includes(name)) return null;
  if (cache.has(name)) return cache.get(name);
  try {
    const doc = JSON.parse(await readFile(`${samplesDir()}${name}.json`, 'utf8')) as unknown;
    cache.set(name, doc);
    return doc;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
