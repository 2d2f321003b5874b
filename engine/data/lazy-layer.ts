/**
 * A layer held whole, read from the layer file on first use (issue 39: open in seconds whatever the number of
 * states). Opening a dataset by window makes one of these per file the layer policy holds whole (roads, stops,
 * schools, LGAs, ...): it knows its source, file, kind and columns, and its features or rows, with their
 * indexes, are read (one statement) and indexed exactly as the in-memory store does the first time anything
 * asks for them. A lookup in one state reads only that state's files (`DataStore.filesFor` filters by state
 * before a file's content is touched), so a state nobody asks about is never read.
 *
 * The layer can be dropped again ({@link unloadLayer}: its state's models evicted under the byte budget) and
 * is read again, identical, on the next use.
 */
import type { CatalogueSource, SourceFile } from '../catalogue/catalogue.js';
import { loadedFileOf, type FileContent, type LoadedFile } from './dataset-store.js';

const LAZY = Symbol('lazy whole layer');

interface LazyHandle {
  loaded(): boolean;
  unload(): void;
}

/** The properties read from the file: everything but what the layer file's entry already says. */
const READ_KEYS = { vector: ['features', 'points', 'lines', 'polygons'], records: ['rows', 'points'] } as const;

/**
 * A whole layer whose content `read` gives on first use; `onRead` is told each time it is read (for the byte
 * budget's accounting).
 */
export function lazyLayer(
  source: CatalogueSource,
  file: SourceFile,
  head: { kind: 'vector' | 'records'; columns: string[]; extent: [number, number, number, number] | null; warnings?: string[] },
  read: () => FileContent,
  onRead: (layer: LoadedFile) => void,
): LoadedFile {
  let held: LoadedFile | null = null;
  // The extent (every item's box, kept in the layer file) lets a search skip the layer without reading it.
  const extent = head.extent ?? ([Infinity, Infinity, -Infinity, -Infinity] as const); // no item placed: meets nothing
  const layer = { kind: head.kind, source, file, extent, ...(head.kind === 'records' ? { columns: head.columns } : {}), ...(head.warnings ? { warnings: head.warnings } : {}) } as unknown as LoadedFile;
  const content = (): LoadedFile => {
    if (!held) {
      held = loadedFileOf(source, file, read(), true);
      onRead(layer);
    }
    return held;
  };
  for (const key of READ_KEYS[head.kind]) {
    Object.defineProperty(layer, key, { enumerable: true, get: () => (content() as unknown as Record<string, unknown>)[key] });
  }
  const handle: LazyHandle = { loaded: () => held !== null, unload: () => void (held = null) };
  Object.defineProperty(layer, LAZY, { value: handle });
  return layer;
}

/** True when `layer` is a whole layer read from the layer file on first use. */
export function isLazyLayer(layer: LoadedFile): boolean {
  return LAZY in layer;
}

/** True unless `layer` is a lazy whole layer not read yet (or dropped since). */
export function layerRead(layer: LoadedFile): boolean {
  const h = (layer as { [LAZY]?: LazyHandle })[LAZY];
  return h ? h.loaded() : true;
}

/** Drops a lazy whole layer's content (read again on next use); false for any other layer. */
export function unloadLayer(layer: LoadedFile): boolean {
  const h = (layer as { [LAZY]?: LazyHandle })[LAZY];
  if (!h?.loaded()) return false;
  h.unload();
  return true;
}
