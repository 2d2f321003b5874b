/**
 * The fingerprint of a dataset: the engine's version, the catalogue's text, and the path, size and
 * modification time of every file it names. Whatever is derived from a dataset and kept on disk (the layer
 * file, the address index file, stored tiles) is named or stamped by it, so a changed dataset never meets a
 * stale derivative. `salt` adds what else the derivative depends on (the tile format's version for tiles).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../version.js';
import type { Catalogue } from './catalogue.js';

/** See the module comment: 24 hex digits. */
export function datasetFingerprint(catalogue: Catalogue, salt = ''): string {
  const h = createHash('sha256').update(`${VERSION}${salt ? `+${salt}` : ''}`);
  const text = existsSync(join(catalogue.dir, 'catalogue.json')) ? readFileSync(join(catalogue.dir, 'catalogue.json')) : Buffer.from(JSON.stringify(catalogue.sources));
  h.update(text);
  for (const s of catalogue.sources) {
    for (const f of s.files) {
      const p = join(catalogue.dir, f.path);
      try {
        const st = statSync(p);
        h.update(`${f.path}:${st.size}:${st.mtimeMs}`);
      } catch {
        h.update(`${f.path}:missing`);
      }
    }
  }
  return h.digest('hex').slice(0, 24);
}
