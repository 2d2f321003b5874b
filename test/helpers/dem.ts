/**
 * A DEM's height read independently of the engine, for tests that check terrain against it: geotiff.js reads
 * the cells, proj4 projects the points (the sample world's MGA zones), bilinear by hand.
 */
import { fromFile } from 'geotiff';
import proj4 from 'proj4';

/** The DEM's bilinear value at lon/lat, read with geotiff.js and projected with proj4 (independent of the engine). */
export async function demAt(file: string, points: [number, number][]): Promise<number[]> {
  const tiff = await fromFile(file);
  const image = await tiff.getImage();
  const [ox, oy] = image.getOrigin();
  const [rx, ry] = image.getResolution();
  const epsg = image.getGeoKeys()!.ProjectedCSTypeGeoKey as number;
  const defs: Record<number, string> = { 7855: '+proj=utm +zone=55 +south +ellps=GRS80 +units=m +no_defs', 7856: '+proj=utm +zone=56 +south +ellps=GRS80 +units=m +no_defs', 7854: '+proj=utm +zone=54 +south +ellps=GRS80 +units=m +no_defs' };
  const out: number[] = [];
  for (const [lon, lat] of points) {
    const [x, y] = proj4('EPSG:4326', defs[epsg], [lon, lat]);
    // Pixel centres at +0.5: the four around the point, weighted.
    const c = (x - ox) / rx - 0.5, r = (y - oy) / ry - 0.5;
    const c0 = Math.floor(c), r0 = Math.floor(r);
    const win = (await image.readRasters({ window: [c0, r0, c0 + 2, r0 + 2] }))[0] as unknown as ArrayLike<number>;
    const u = c - c0, v = r - r0;
    out.push((1 - v) * ((1 - u) * win[0] + u * win[1]) + v * ((1 - u) * win[2] + u * win[3]));
  }
  return out;
}

