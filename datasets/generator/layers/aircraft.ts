/** Perth Airport's ANEF contours (WA tile) and the national airports list. */
import type { Feature, Position } from 'geojson';
import { llFeature, type TileContext } from '../context.js';
import { ellipse } from '../geometry.js';
import type { FileWriter } from '../writer.js';
import type { SourceRegistry } from '../sources.js';

/** Major airports (approximate aerodrome reference points). */
export const AIRPORTS = [
  { iata: 'MEL', name: 'Melbourne Airport', state: 'VIC', lon: 144.843, lat: -37.669 },
  { iata: 'SYD', name: 'Sydney Kingsford Smith Airport', state: 'NSW', lon: 151.177, lat: -33.946 },
  { iata: 'BNE', name: 'Brisbane Airport', state: 'QLD', lon: 153.117, lat: -27.384 },
  { iata: 'PER', name: 'Perth Airport', state: 'WA', lon: 115.967, lat: -31.940 },
  { iata: 'ADL', name: 'Adelaide Airport', state: 'SA', lon: 138.531, lat: -34.945 },
  { iata: 'HBA', name: 'Hobart Airport', state: 'TAS', lon: 147.510, lat: -42.836 },
  { iata: 'CBR', name: 'Canberra Airport', state: 'ACT', lon: 149.195, lat: -35.307 },
  { iata: 'DRW', name: 'Darwin International Airport', state: 'NT', lon: 130.876, lat: -12.414 },
] as const;

/** Writes the national airports CSV. */
export function writeAirports(writer: FileWriter, registry: SourceRegistry): void {
  const path = 'national/airports.csv';
  writer.csv(path, ['iata', 'name', 'state', 'lon', 'lat', 'source'], AIRPORTS.map((a) => ({ ...a, source: 'sample_national_airports' })));
  registry.add('sample_national_airports', { path });
}

/**
 * ANEF bands around Perth Airport, elongated along the main runway (about 30 degrees east of north):
 * 20-25, 25-30, 30-35, 35-40 and an open 40+ band (anef_max null). Each band is the ring between two
 * contours.
 */
export function writeAnef(ctx: TileContext): void {
  if (!ctx.spec.has.airportAnef) return;
  const per = AIRPORTS[3];
  const [cx, cy] = ctx.frame.local(per.lon, per.lat);
  const angle = (60 * Math.PI) / 180; // runway 03/21 bears about 030 degrees: 60 degrees from east
  const radii: [number, number][] = [[7600, 2600], [5600, 1900], [4100, 1350], [3000, 950], [2200, 650]];
  const rings = radii.map(([a, b]) => ellipse(cx, cy, a, b, angle, 72));
  const edges = [20, 25, 30, 35, 40];
  const features: Feature[] = edges.map((lo, i) => {
    const coords: Position[][] = i + 1 < rings.length ? [rings[i], [...rings[i + 1]].reverse()] : [rings[i]];
    return llFeature(ctx, { anef_min: lo, anef_max: i + 1 < edges.length ? edges[i + 1] : null, airport: per.name, endorsed: '2020 master plan ANEF', source: 'sample_wa_anef_perth' }, { type: 'Polygon', coordinates: coords });
  });
  const path = `${ctx.dir}/anef-perth-airport.geojson`;
  ctx.writer.geojson(path, features);
  ctx.registry.add('sample_wa_anef_perth', { path, state: 'WA' });
}
