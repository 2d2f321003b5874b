/**
 * Finished tiles of the expensive layers (contours, noise, HAND) kept on disk, so a restart or a second
 * replica on the same disk does not compute them again. Files are named by a fingerprint of the dataset
 * (the engine and tile-format versions, the catalogue text, and the path, size and modification time of every
 * file it names):
 * a changed dataset is a new directory, never a stale tile. An empty tile is a zero-byte `.empty` file.
 * Writes go to a temporary name and are renamed into place, so a reader never sees half a tile.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalogue } from '../catalogue/catalogue.js';
import { datasetFingerprint } from '../catalogue/fingerprint.js';
import type { TileId } from './tile-math.js';

/** Bumped whenever the tiles a layer makes change, so tiles stored by an older build are not served. */
export const TILE_CACHE_VERSION = 4; // 2: clipped to the buffer, simplified at the tile's zoom; 4: opaque filled terrain, valid rings

/** The layers worth keeping on disk (the others are made in a millisecond or two from in-memory indexes). */
export const DISK_CACHED_LAYERS: ReadonlySet<string> = new Set(['contours', 'noise', 'hand']);

/** The fingerprint tiles are stored under: the dataset's (catalogue/fingerprint.ts) and the tile format's version. */
export function tileFingerprint(catalogue: Catalogue): string {
  return datasetFingerprint(catalogue, `t${TILE_CACHE_VERSION}`);
}

/** See the module comment. */
export class TileDiskCache {
  private readonly root: string;

  constructor(dir: string, fingerprint: string) {
    this.root = join(dir, fingerprint);
  }

  private path(layer: string, t: TileId): string {
    return join(this.root, layer, String(t.z), String(t.x), String(t.y));
  }

  /** The tile's bytes, null for a stored empty tile, undefined when not stored. */
  get(layer: string, t: TileId): Uint8Array | null | undefined {
    const p = this.path(layer, t);
    try {
      return new Uint8Array(readFileSync(`${p}.mvt`));
    } catch {
      return existsSync(`${p}.empty`) ? null : undefined;
    }
  }

  /** Stores a finished tile (null: empty). A failed write (a full or read-only disk) is not an error. */
  set(layer: string, t: TileId, bytes: Uint8Array | null): void {
    const p = this.path(layer, t);
    try {
      mkdirSync(join(this.root, layer, String(t.z), String(t.x)), { recursive: true });
      const file = `${p}.${bytes ? 'mvt' : 'empty'}`;
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, bytes ?? new Uint8Array(0));
      renameSync(tmp, file);
    } catch {
      // Kept in memory only.
    }
  }
}
