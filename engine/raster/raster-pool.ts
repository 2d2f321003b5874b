/**
 * Rasters kept open per thread and shared by every reader in it, so the header is parsed once and decoded
 * blocks are reused across requests (see `blockCache` in geotiff-reader.ts). The engine's main thread and each
 * worker have their own pool. A file that changes on disk (size or modification time) is reopened.
 */
import { statSync } from 'node:fs';
import { LruCache } from '../cache/lru-cache.js';
import { openRaster, type OpenRasterOptions, type RasterSource } from './geotiff-reader.js';

/**
 * Files kept open per thread; the least recently used is closed beyond this (and its decoded blocks go with
 * it). The context scores alone read seven rasters per state (DEM, LST, land cover, four solar layers), so
 * with nine jurisdictions a pool of 48 evicted files between subjects in different states and re-decoded
 * their blocks on every lookup (about 10x the warm CPU time over the sample world's sandbox addresses).
 * Memory stays bounded by each file's block cache (64 blocks by default).
 */
export const RASTER_POOL_SIZE = 128;

const pool = new LruCache<string, Promise<RasterSource>>({
  maxEntries: RASTER_POOL_SIZE,
  onEvict: (p) => void p.then((r) => r.release()).catch(() => {}),
});

/**
 * The shared open raster for `file` (opened and validated on first use). Callers may `close()` it: that is a
 * no-op for pooled rasters. Errors are not cached: the next call tries again.
 */
export function sharedRaster(file: string, options: Omit<OpenRasterOptions, 'signal'> = {}): Promise<RasterSource> {
  let stamp = '';
  try {
    const st = statSync(file);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    // Missing file: openRaster reports NOT_FOUND with the file named.
  }
  const key = `${file}|${options.crs ?? ''}|${stamp}`;
  let p = pool.get(key);
  if (p) return p;
  p = openRaster(file, options).then((r) => {
    r.pinned = true;
    return r;
  });
  p.catch(() => pool.delete(key));
  pool.set(key, p);
  return p;
}

/** Closes every pooled raster of this thread. */
export async function closeSharedRasters(): Promise<void> {
  const all = [...pool.values()];
  pool.clear();
  await Promise.all(all.map((p) => p.then((r) => r.release()).catch(() => {})));
}
