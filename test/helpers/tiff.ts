/**
 * Test helper: renames tags in the first IFD of a TIFF, so a test can make a file "lose" its georeferencing
 * or CRS without a second TIFF writer. Renamed tags become private tags (65000+) that readers ignore.
 */
export function renameTiffTags(bytes: Uint8Array, tags: number[]): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const little = out[0] === 0x49;
  if (!little && out[0] !== 0x4d) throw new Error('not a TIFF');
  const ifd = view.getUint32(4, little);
  const n = view.getUint16(ifd, little);
  let renamed = 0;
  for (let i = 0; i < n; i++) {
    const at = ifd + 2 + i * 12;
    const tag = view.getUint16(at, little);
    const k = tags.indexOf(tag);
    if (k >= 0) {
      view.setUint16(at, 65000 + k, little);
      renamed++;
    }
  }
  if (renamed !== tags.length) throw new Error(`only ${renamed} of ${tags.length} tags found`);
  return out;
}

/** TIFF tag numbers used by the tests. */
export const TAG = { ModelPixelScale: 33550, ModelTiepoint: 33922, GeoKeyDirectory: 34735 } as const;
