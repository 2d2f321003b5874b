/**
 * A miniature of `../shared/realdata` written by the test, with the same file names and the publishers'
 * own fields (Vicmap Planning's ZONE_CODE/ZONE_DESC and SCHEMECODE, the Bendigo export's ZONE_DESCR and
 * SCHEME_COD, Vicmap roads' ROAD_TYPE, the School Locations CSV with its byte-order mark, PTV stops, ABS
 * state outlines with a collapsed ring, two DEMs in MGA 55 and UTM 56S): where the real folder is absent
 * (CI's clean checkout), the real-data tests run their references against this instead of skipping.
 * Everything in it is generated; none of it describes real land.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';
import { northUpTransform } from '../../engine/geo/geo-transform.js';
import { writeGeoTiff } from '../../engine/raster/geotiff-writer.js';
import { seededRandom } from '../../engine/random/seeded-random.js';
import { REALDATA_FILES } from '../../datasets/realdata.js';

const square = (x: number, y: number, d: number) => [[[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]];
const fc = (features: object[]) => JSON.stringify({ type: 'FeatureCollection', features });
const polygon = (properties: object, x: number, y: number, d: number) => ({ type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: square(x, y, d) } });

/** Squares of side `d` degrees tiling a box, each given properties by its index. */
function tiles(box: [number, number, number, number], d: number, props: (i: number) => object): object[] {
  const out: object[] = [];
  let i = 0;
  for (let y = box[1]; y < box[3]; y += d) for (let x = box[0]; x < box[2]; x += d) out.push(polygon(props(i++), x, y, d));
  return out;
}

/** Writes the miniature into `dir` (the layout `buildRealCatalogue` reads) and returns `dir`. */
export async function writeMiniRealdata(dir: string): Promise<string> {
  for (const sub of ['zones', 'roads', 'transport', 'schools', 'dem', 'boundaries']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'PROVENANCE.md'), '# A generated miniature of the real-data folder, written by the tests.\n');
  const w = (rel: string, text: string) => writeFileSync(join(dir, rel), text);
  const yarra: [number, number, number, number] = [144.955, -37.845, 145.03, -37.765];
  const bendigo: [number, number, number, number] = [144.24, -36.79, 144.32, -36.72];
  const zoneCodes = ['GRZ1', 'NRZ1', 'C1Z', 'MUZ', 'PPRZ', 'IN3Z'];
  w(REALDATA_FILES.yarraZones, fc(tiles(yarra, 0.005, (i) => ({ ZONE_CODE: zoneCodes[i % 6], ZONE_DESC: `ZONE ${zoneCodes[i % 6]}`, LGA: 'YARRA', PFI: 1000 + i }))));
  w(REALDATA_FILES.bendigoZones, fc(tiles(bendigo, 0.01, (i) => ({ ZONE_CODE: zoneCodes[(i + 2) % 6], ZONE_DESCR: `ZONE ${zoneCodes[(i + 2) % 6]}`, LGA: 'GREATER BENDIGO' }))));
  // Overlays: offset squares (so they straddle zones), flood overlays among heritage and design ones.
  const overlayCodes = ['LSIO', 'HO', 'SBO', 'DDO', 'LSIO', 'SBO'];
  w(REALDATA_FILES.yarraOverlays, fc(tiles([yarra[0] + 0.0012, yarra[1] + 0.0012, yarra[2], yarra[3]], 0.006, (i) => {
    const s = overlayCodes[i % overlayCodes.length];
    const code = s === 'HO' || s === 'DDO' ? `${s}${100 + i}` : s;
    return { SCHEMECODE: s, ZONE_CODE: code, ZONE_DESC: `OVERLAY ${code}`, LGA: 'YARRA' };
  })));
  w(REALDATA_FILES.bendigoOverlays, fc(tiles([bendigo[0] + 0.002, bendigo[1] + 0.002, bendigo[2], bendigo[3]], 0.012, (i) => ({ SCHEME_COD: i % 3 ? 'HO' : 'BMO', ZONE_CODE: i % 3 ? `HO${200 + i}` : 'BMO1', ZONE_DESCR: 'OVERLAY', LGA: 'GREATER BENDIGO' }))));
  // Roads: streets, a freeway and a trail (left out by the builder).
  const types = ['STREET', 'ROAD', 'FREEWAY', 'TRAIL', 'AVENUE', 'HIGHWAY', null];
  const roads = Array.from({ length: 60 }, (_, i) => {
    const y = -37.84 + i * 0.0012;
    return { type: 'Feature', properties: { EZI_RDNAME: `ROAD ${i}`, ROAD_TYPE: types[i % types.length], FTYPE_CODE: i % 11 === 0 ? 'foot_bridge' : 'road', UFI: 5000 + i }, geometry: { type: 'LineString', coordinates: [[144.95, y], [145.03, y]] } };
  });
  w(REALDATA_FILES.roads, fc(roads));
  const r = seededRandom(23);
  const stops = Array.from({ length: 500 }, (_, i) => ({ type: 'Feature', properties: { stop_id: 10000 + i }, geometry: { type: 'Point', coordinates: [144.94 + r.next() * 0.1, -37.85 + r.next() * 0.09] } }));
  w(REALDATA_FILES.ptvStops, fc(stops));
  const header = 'Education_Sector,Entity_Type,School_No,School_Name,School_Type,School_Status,Address_Line_1,Address_Line_2,Address_Town,Address_State,Address_Postcode,Postal_Address_Line_1,Postal_Address_Line_2,Postal_Town,Postal_State,Postal_Postcode,Full_Phone_No,Region,Area,LGA_ID,LGA_Name,LGA_TYPE,X,Y';
  const schools = Array.from({ length: 30 }, (_, i) => `Government,1,${i + 1},"School ${i}, Secondary",Secondary,O,1 Main St,,FITZROY,VIC,3065,,,,,,,,,1,Yarra (C),Metro,${(144.96 + r.next() * 0.06).toFixed(6)},${(-37.84 + r.next() * 0.07).toFixed(6)}`);
  w(REALDATA_FILES.schools, `\uFEFF${header}\n${schools.join('\n')}\n`);
  // State outlines, each with a ring the simplification collapsed (two positions).
  const collapsed = [[150, -30], [150.1, -30]];
  const state = (code: string, name: string, [x0, y0, x1, y1]: [number, number, number, number]) => ({
    type: 'Feature', properties: { STATE_CODE: code, STATE_NAME: name },
    geometry: { type: 'MultiPolygon', coordinates: [[[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]], [collapsed]] },
  });
  w(REALDATA_FILES.states, fc([state('2', 'Victoria', [141, -39.2, 150, -34]), state('1', 'New South Wales', [141, -34, 153.6, -28.2])]));
  w(REALDATA_FILES.bendigoLga, fc([polygon({ LGA_NAME24: 'Greater Bendigo', STE_NAME21: 'Victoria', STE_CODE21: '2' }, 144.03, -37.06, 0.8)]));
  // DEMs: inner Melbourne, 20 m in MGA 55 (a valley falling to the south); Merewether, 1 m in UTM 56S, 16.5-52 m.
  const mga55 = '+proj=utm +zone=55 +south +ellps=GRS80 +units=m +no_defs';
  const [mx, my] = proj4('WGS84', mga55, [yarra[0], yarra[3]]);
  const W = 400, H = 500;
  const mel = new Float32Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) mel[y * W + x] = 10 + 0.02 * (H - y) * 2 + 4 * Math.abs(x - W / 2) / 20;
  await writeGeoTiff(join(dir, REALDATA_FILES.melbourneDem), { width: W, height: H, data: mel, noData: NaN, transform: northUpTransform(Math.floor(mx / 20) * 20, Math.ceil(my / 20) * 20, 20), crs: 'EPSG:28355' });
  const utm56 = '+proj=utm +zone=56 +south +datum=WGS84 +units=m +no_defs';
  const [ux, uy] = proj4('WGS84', utm56, [151.7403, -32.9398]);
  const MW = 320, MH = 416;
  const mere = new Float32Array(MW * MH);
  for (let y = 0; y < MH; y++) for (let x = 0; x < MW; x++) mere[y * MW + x] = 16.5 + (35.5 * (0.7 * y / MH + 0.3 * Math.abs(x - MW / 2) / (MW / 2)));
  await writeGeoTiff(join(dir, REALDATA_FILES.merewetherDem), { width: MW, height: MH, data: mere, noData: NaN, transform: northUpTransform(Math.round(ux), Math.round(uy), 1), crs: 'EPSG:32756' });
  return dir;
}
