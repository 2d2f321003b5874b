/**
 * Planning zones and overlays in each state's own schema (Vicmap's ZONE_CODE / ZONE_DESC, NSW LEP's SYM_CODE
 * / LAY_CLASS, WA's single-classification wa_plan_zone, ...), heritage registers, growth areas, and QLD's 2025
 * city-plan package whose rows carry the licence groups the withholding rule needs.
 *
 * Zones follow the block uses of the layout. Commercial strips reach 5 m into the lots behind them, so those
 * parcels lie in two zones and exercise `parcel_share`.
 */
import type { Feature, Geometry, Position } from 'geojson';
import type { StateCode } from '../../../engine/catalogue/states.js';
import { llFeature, polygonal, type TileContext } from '../context.js';
import { TILE_HALF_M } from '../frame.js';
import { bandAround, clipToTile, maskToPolygons, rotatedRect, tileMask } from '../geometry.js';
import { BUILT_HALF, COL, ROW, type Block, type BlockUse } from '../layout.js';
import { AS_AT } from '../sources.js';
import { inEvidenceArea } from './terrain-layers.js';

type ZoneCategory = BlockUse | 'road' | 'open_space' | 'floodway';

/** [code, name] of each zone category per state. */
const ZONES: Record<StateCode, Record<ZoneCategory, [string, string]>> = {
  VIC: { residential_low: ['NRZ1', 'NEIGHBOURHOOD RESIDENTIAL ZONE - SCHEDULE 1'], residential_mid: ['GRZ1', 'GENERAL RESIDENTIAL ZONE - SCHEDULE 1'], commercial: ['C1Z', 'COMMERCIAL 1 ZONE'], industrial: ['IN3Z', 'INDUSTRIAL 3 ZONE'], park: ['PPRZ', 'PUBLIC PARK AND RECREATION ZONE'], open_space: ['PPRZ', 'PUBLIC PARK AND RECREATION ZONE'], school: ['PUZ2', 'PUBLIC USE ZONE - EDUCATION'], road: ['RDZ1', 'ROAD ZONE - CATEGORY 1'], rural: ['GWZ', 'GREEN WEDGE ZONE'], floodway: ['UFZ', 'URBAN FLOODWAY ZONE'] },
  NSW: { residential_low: ['R2', 'Low Density Residential'], residential_mid: ['R3', 'Medium Density Residential'], commercial: ['E1', 'Local Centre'], industrial: ['E4', 'General Industrial'], park: ['RE1', 'Public Recreation'], open_space: ['RE1', 'Public Recreation'], school: ['SP2', 'Infrastructure'], road: ['SP2', 'Infrastructure'], rural: ['C2', 'Environmental Conservation'], floodway: ['RE1', 'Public Recreation'] },
  QLD: { residential_low: ['LDR', 'Low density residential'], residential_mid: ['LMR', 'Low-medium density residential'], commercial: ['NC', 'Neighbourhood centre'], industrial: ['LII', 'Low impact industry'], park: ['OS', 'Open space'], open_space: ['OS', 'Open space'], school: ['CF', 'Community facilities'], road: ['SP', 'Special purpose'], rural: ['EC', 'Environmental management and conservation'], floodway: ['OS', 'Open space'] },
  WA: { residential_low: ['Residential R20', 'Residential R20'], residential_mid: ['Residential R40', 'Residential R40'], commercial: ['District Centre', 'District Centre'], industrial: ['Light Industry', 'Light Industry'], park: ['Parks and Recreation', 'Parks and Recreation'], open_space: ['Parks and Recreation', 'Parks and Recreation'], school: ['Public Purposes', 'Public Purposes'], road: ['Primary Regional Roads', 'Primary Regional Roads'], rural: ['Rural', 'Rural'], floodway: ['Parks and Recreation', 'Parks and Recreation'] },
  SA: { residential_low: ['GN', 'General Neighbourhood'], residential_mid: ['HDN', 'Housing Diversity Neighbourhood'], commercial: ['SAC', 'Suburban Activity Centre'], industrial: ['E', 'Employment'], park: ['OS', 'Open Space'], open_space: ['OS', 'Open Space'], school: ['CF', 'Community Facilities'], road: ['I', 'Infrastructure'], rural: ['R', 'Rural'], floodway: ['OS', 'Open Space'] },
  TAS: { residential_low: ['8.0', 'General Residential'], residential_mid: ['9.0', 'Inner Residential'], commercial: ['14.0', 'Local Business'], industrial: ['18.0', 'Light Industrial'], park: ['29.0', 'Open Space'], open_space: ['29.0', 'Open Space'], school: ['27.0', 'Community Purpose'], road: ['26.0', 'Utilities'], rural: ['22.0', 'Landscape Conservation'], floodway: ['29.0', 'Open Space'] },
  ACT: { residential_low: ['RZ1', 'Suburban'], residential_mid: ['RZ2', 'Suburban Core'], commercial: ['CZ4', 'Local Centre'], industrial: ['IZ1', 'General Industrial'], park: ['PRZ1', 'Urban Open Space'], open_space: ['PRZ1', 'Urban Open Space'], school: ['CFZ', 'Community Facility'], road: ['TSZ1', 'Transport'], rural: ['NUZ3', 'Hills, Ridges and Buffer'], floodway: ['PRZ1', 'Urban Open Space'] },
  NT: { residential_low: ['LR', 'Low Density Residential'], residential_mid: ['MR', 'Medium Density Residential'], commercial: ['C', 'Commercial'], industrial: ['LI', 'Light Industry'], park: ['PS', 'Public Open Space'], open_space: ['PS', 'Public Open Space'], school: ['CP', 'Community Purposes'], road: ['SU', 'Specific Use'], rural: ['RL', 'Rural Living'], floodway: ['PS', 'Public Open Space'] },
};

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Publisher-native properties of a zone feature, in each state's schema. */
function zoneProps(ctx: TileContext, cat: ZoneCategory, council: string, n: number): Record<string, unknown> {
  const st = ctx.spec.state;
  const [code, name] = ZONES[st][cat];
  const pfi = `Z${ctx.tileIndex + 1}${String(n).padStart(6, '0')}`;
  switch (st) {
    case 'VIC':
      return { ZONE_CODE: code, ZONE_DESC: name, LGA: council.replace(/ City Council$/, '').toUpperCase(), SCHEME_CODE: slug(council.replace(/ City Council$/, '')), GAZ_BEGIN_DATE: '2018-03-01', PFI: pfi };
    case 'NSW':
      return { SYM_CODE: code, LAY_CLASS: name, EPI_NAME: `${council.replace(/ Council$/, '')} Local Environmental Plan 2023`, EPI_TYPE: 'LEP', LGA_NAME: council.replace(/ Council$/, '').toUpperCase(), PURPOSE: cat === 'school' ? 'Educational Establishment' : cat === 'road' ? 'Classified Road' : null, COMMENCED_DATE: '2023-08-25' };
    case 'QLD':
      return { ZONE_CODE: code, ZONE_DESC: name, LVL1_ZONE: name.split(' ')[0], ZONE_PREC: cat === 'residential_mid' ? 'Up to 3 storeys' : null, PLAN: 'Brisbane City Plan 2014', OBJECTID: n };
    case 'WA':
      // wa_plan_zone: one readable classification per feature; special uses add a second field.
      return cat === 'school' ? { scheme_name: `${council} Local Planning Scheme No. 15`, zone: code, description: 'Public Purposes - High School', lga_name: council.toUpperCase() } : { scheme_name: `${council} Local Planning Scheme No. 15`, zone: code, lga_name: council.toUpperCase() };
    case 'SA':
      return { name, legend: code, code_version: '2025.18', zone_id: `Z${100 + Object.keys(ZONES.SA).indexOf(cat)}` };
    case 'TAS':
      return { ZONE: name, ZONE_CODE: code, SCHEME: `Tasmanian Planning Scheme - ${council.replace(/ City Council$/, '')}` };
    case 'ACT':
      return { LAND_USE_ZONE_CODE: code, LAND_USE_ZONE: name, DIVISION_NAME: ctx.suburbOf(0, 0).suburb.toUpperCase() };
    case 'NT':
      return { ZONE_CODE: code, ZONE_DESC: name, SCHEME: 'NT Planning Scheme 2020' };
  }
}

/** Is (x, y) inside a block (widened by `margin` metres)? */
function inBlock(ctx: TileContext, blocks: Map<string, Block>, x: number, y: number, margin: number): boolean {
  const [p, q] = ctx.layout.pq(x, y);
  for (let dk = -1; dk <= 1; dk++) {
    for (let dm = -1; dm <= 1; dm++) {
      const k = Math.floor(q / ROW) + dk, m = Math.floor(p / COL) + dm;
      if (!blocks.has(`${k},${m}`)) continue;
      if (p >= m * COL + 8 - margin && p <= (m + 1) * COL - 8 + margin && q >= k * ROW + 8 - margin && q <= (k + 1) * ROW - 8 + margin) return true;
    }
  }
  return false;
}

/** Writes the zone layer. */
export function writeZones(ctx: TileContext): void {
  const { layout } = ctx;
  const blocks = new Map(layout.blocks.map((b) => [`${b.k},${b.m}`, b]));
  const features: Feature[] = [];
  const add = (cat: ZoneCategory, g: Geometry, at: Position) => features.push(llFeature(ctx, zoneProps(ctx, cat, ctx.suburbOf(at[0], at[1]).council, features.length + 1), g));
  const commercialRow = (b: Block) => b.use === 'commercial';
  for (const b of layout.blocks) {
    const p0 = b.m * COL + 8, p1 = (b.m + 1) * COL - 8, q0 = b.k * ROW + 8, q1 = (b.k + 1) * ROW - 8;
    const qm = (q0 + q1) / 2;
    if (commercialRow(b)) {
      // The commercial half fronts the arterial; the zone reaches 5 m into the residential half behind it.
      const arterialNorth = blocks.get(`${b.k + 1},${b.m}`)?.use === 'commercial' ? false : true;
      const [cq0, cq1, rq0, rq1] = arterialNorth ? [qm - 5, q1, q0, qm - 5] : [q0, qm + 5, qm + 5, q1];
      add('commercial', { type: 'Polygon', coordinates: [rotatedRect(p0, p1, cq0, cq1, layout.gridAngle)] }, b.centre);
      add('residential_mid', { type: 'Polygon', coordinates: [rotatedRect(p0, p1, rq0, rq1, layout.gridAngle)] }, b.centre);
    } else {
      add(b.use, { type: 'Polygon', coordinates: [b.ring] }, b.centre);
    }
  }
  const st = ctx.spec.state;
  const inBuilt = (x: number, y: number) => {
    const [p, q] = layout.pq(x, y);
    return Math.abs(p) < BUILT_HALF && Math.abs(q) < BUILT_HALF;
  };
  const mwLine = layout.motorway.runs[0];
  const mwBand = clipToTile(bandAround(mwLine, () => 40, () => 40));
  const inMotorway = (x: number, y: number) => {
    const [p, q] = layout.pq(x, y);
    return Math.abs(q - layout.motorwayQ(p)) < 42;
  };
  const creek = (x: number, y: number) => Math.abs(ctx.terrain.creekDistance(x, y));
  const openSpace = tileMask(10, (x, y) => {
    const d = creek(x, y);
    if (d >= 260 || (st === 'VIC' && d < 15)) return false;
    if (!inBuilt(x, y) && d >= 70) return false;
    return !inMotorway(x, y) && !inBlock(ctx, blocks, x, y, 10);
  });
  for (const poly of maskToPolygons(openSpace, 10, 2000)) add('open_space', polygonal([poly]), poly[0][0]);
  if (st === 'VIC') for (const poly of maskToPolygons(tileMask(10, (x, y) => creek(x, y) < 15 && !inMotorway(x, y)), 10, 500)) add('floodway', polygonal([poly]), poly[0][0]);
  const rural = tileMask(20, (x, y) => !inBuilt(x, y) && !inMotorway(x, y) && creek(x, y) >= 70);
  for (const poly of maskToPolygons(rural, 20, 20000)) add('rural', polygonal([poly]), poly[0][0]);
  if (mwBand.length) add('road', { type: 'Polygon', coordinates: [mwBand] }, mwBand[0]);
  const id = st === 'WA' ? 'sample_wa_plan_zone' : `sample_${ctx.spec.id}_planning_zones`;
  const path = `${ctx.dir}/planning-zones.geojson`;
  ctx.writer.geojson(path, features);
  ctx.registry.add(id, { path, state: st });
}

/** An overlay feature in the state's schema. */
function overlayProps(ctx: TileContext, code: string, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const council = ctx.spec.councils[0];
  switch (ctx.spec.state) {
    case 'VIC':
      return { ZONE_CODE: code, ZONE_DESC: name, LGA: council.replace(/ City Council$/, '').toUpperCase(), SCHEME_CODE: slug(council.replace(/ City Council$/, '')), GAZ_BEGIN_DATE: '2019-06-13', ...extra };
    case 'NSW':
      return { LAY_CLASS: name, MAP_TYPE: code, EPI_NAME: `${council.replace(/ Council$/, '')} Local Environmental Plan 2023`, ...extra };
    case 'QLD':
      return { OVL_CODE: code, OVL2_DESC: name, ...extra };
    case 'WA':
      return { sca_name: name, sca_code: code, scheme_name: `${council} Local Planning Scheme No. 15`, ...extra };
    case 'SA':
      return { overlay_name: name, overlay_code: code, code_version: '2025.18', ...extra };
    case 'TAS':
      return { CODE: code, CODE_NAME: name, ...extra };
    case 'ACT':
      return { OVERLAY_CODE: code, OVERLAY: name, ...extra };
    case 'NT':
      return { OVERLAY_CODE: code, OVERLAY: name, ...extra };
  }
}

/** Writes the overlay layer: flood controls that follow the creek, heritage, built form, bushfire and others. */
export function writeOverlays(ctx: TileContext): void {
  const { layout, masks } = ctx;
  const st = ctx.spec.state;
  const features: Feature[] = [];
  const add = (props: Record<string, unknown>, polys: Position[][][]) => {
    for (const p of polys) features.push(llFeature(ctx, props, polygonal([p])));
  };
  const poly10 = (m: Uint8Array, min = 3000) => maskToPolygons(m, 10, min);
  const blocksWhere = (f: (b: Block) => boolean) => layout.blocks.filter(f).map((b) => [b.ring]);
  const heritageBlocks = blocksWhere((b) => b.use.startsWith('residential') && b.k >= 5 && b.k <= 7 && b.m >= -2 && b.m <= -1);
  const commercial = blocksWhere((b) => b.use === 'commercial');
  const industrial = blocksWhere((b) => b.use === 'industrial');
  const forestNear = () => {
    const veg = masks.vegetation;
    const n = 300;
    return tileMask(20, (x, y) => {
      const c = Math.floor((x + TILE_HALF_M) / 20), r = Math.floor((TILE_HALF_M - y) / 20);
      for (let dr = -3; dr <= 3; dr++) for (let dc = -3; dc <= 3; dc++) {
        const rr = r + dr, cc = c + dc;
        if (rr >= 0 && rr < n && cc >= 0 && cc < n && veg[rr * n + cc] >= 1 && veg[rr * n + cc] <= 3) return true;
      }
      return false;
    });
  };
  // An overland flow path: a 25 m band along the local cross street nearest the creek, down to the creek.
  const sboRun = layout.streets.filter((s) => s.axis === 'cross' && s.roadClass === 'local').flatMap((s) => s.runs).sort((a, b) => Math.abs(ctx.terrain.creekDistance(a[0][0], a[0][1])) - Math.abs(ctx.terrain.creekDistance(b[0][0], b[0][1])))[0];
  const sbo = sboRun ? [[clipToTile(bandAround(sboRun.slice(0, 3), () => 12.5, () => 12.5))]] : [];
  switch (st) {
    case 'VIC':
      add(overlayProps(ctx, 'LSIO', 'LAND SUBJECT TO INUNDATION OVERLAY'), poly10(masks.flood1pct));
      add(overlayProps(ctx, 'FO', 'FLOODWAY OVERLAY'), poly10(masks.floodway, 1000));
      add(overlayProps(ctx, 'SBO1', 'SPECIAL BUILDING OVERLAY - SCHEDULE 1'), sbo);
      add(overlayProps(ctx, 'HO317', 'HERITAGE OVERLAY - SCHEDULE 317'), heritageBlocks);
      add(overlayProps(ctx, 'BFO4', 'BUILT FORM OVERLAY - SCHEDULE 4'), commercial);
      add(overlayProps(ctx, 'DDO18', 'DESIGN AND DEVELOPMENT OVERLAY - SCHEDULE 18'), commercial);
      add(overlayProps(ctx, 'EAO', 'ENVIRONMENTAL AUDIT OVERLAY'), industrial);
      add(overlayProps(ctx, 'ESO1', 'ENVIRONMENTAL SIGNIFICANCE OVERLAY - SCHEDULE 1'), maskToPolygons(tileMask(10, (x, y) => Math.abs(ctx.terrain.creekDistance(x, y)) < 90), 10, 5000));
      add(overlayProps(ctx, 'BMO', 'BUSHFIRE MANAGEMENT OVERLAY'), maskToPolygons(forestNear(), 20, 20000));
      break;
    case 'NSW':
      add(overlayProps(ctx, 'FLD', 'Flood Planning Area'), poly10(masks.floodPlanning));
      add(overlayProps(ctx, 'HER', 'Heritage Conservation Area', { H_ID: 'C12', H_NAME: 'Harris Park Heritage Conservation Area' }), heritageBlocks);
      add(overlayProps(ctx, 'ASS', 'Acid Sulfate Soils', { CLASS: 'Class 2' }), maskToPolygons(tileMask(20, (x, y) => Math.abs(ctx.terrain.creekDistance(x, y)) < 160), 20, 10000));
      add(overlayProps(ctx, 'HOB', 'Height of Buildings', { HEIGHT_M: 21 }), commercial);
      break;
    case 'QLD':
      add(overlayProps(ctx, 'FLD_CWFPA2', 'Flood overlay', { OVL2_CAT: 'Creek/waterway flood planning area 2' }), poly10(masks.floodway, 1000));
      add(overlayProps(ctx, 'FLD_CWFPA3', 'Flood overlay', { OVL2_CAT: 'Creek/waterway flood planning area 3' }), poly10(masks.flood1pct));
      add(overlayProps(ctx, 'FLD_OFP', 'Flood overlay', { OVL2_CAT: 'Overland flow' }), sbo);
      add(overlayProps(ctx, 'HER_LHP', 'Heritage overlay', { OVL2_CAT: 'Local heritage place' }), heritageBlocks.slice(0, 2));
      add(overlayProps(ctx, 'BUSH_MPBI', 'Bushfire overlay', { OVL2_CAT: 'Medium potential bushfire intensity' }), maskToPolygons(forestNear(), 20, 20000));
      add(overlayProps(ctx, 'BIO_MLES', 'Biodiversity areas overlay', { OVL2_CAT: 'Matters of local environmental significance' }), maskToPolygons(tileMask(20, (x, y) => Math.abs(ctx.terrain.creekDistance(x, y)) < 120), 20, 10000));
      break;
    case 'WA':
      // No flood control is published for WA: only special control areas that are not flood controls.
      add(overlayProps(ctx, 'SCA1', 'Special Control Area 1 - Perth Airport'), maskToPolygons(tileMask(20, (x, y) => x > 800 && y < 600), 20, 20000));
      add(overlayProps(ctx, 'DCA', 'Development Control Area - Swan River'), maskToPolygons(tileMask(20, (x, y) => Math.abs(ctx.terrain.creekDistance(x, y)) < 140), 20, 10000));
      break;
    case 'SA':
      // The evidence-required flood control: a neutral trigger for a flood assessment, not a severity.
      add(overlayProps(ctx, 'HFER', 'Hazards (Flooding - Evidence Required)'), maskToPolygons(tileMask(10, (x, y) => inEvidenceArea(ctx, x, y)), 10, 5000));
      add(overlayProps(ctx, 'HBUI', 'Hazards (Bushfire - Urban Interface)'), maskToPolygons(forestNear(), 20, 20000));
      add(overlayProps(ctx, 'HA', 'Historic Area', { historic_area: 'Klemzig Historic Area (PAdE1)' }), heritageBlocks);
      add(overlayProps(ctx, 'RST', 'Regulated and Significant Tree'), maskToPolygons(tileMask(40, () => true), 40));
      break;
    case 'TAS':
      // Flood-prone mapping exists for the western half only: partial coverage.
      add(overlayProps(ctx, 'C12.0', 'Flood-Prone Areas Hazard Code'), maskToPolygons(tileMask(10, (x, y) => x < 0 && masks.flood1pct[idx10(x, y)] === 1), 10, 3000));
      add(overlayProps(ctx, 'C13.0', 'Bushfire-Prone Areas Code'), maskToPolygons(forestNear(), 20, 20000));
      add(overlayProps(ctx, 'C6.0', 'Local Historic Heritage Code', { PRECINCT: 'New Town Heritage Precinct' }), heritageBlocks);
      add(overlayProps(ctx, 'C7.0', 'Natural Assets Code', { AREA: 'Waterway and coastal protection area' }), maskToPolygons(tileMask(20, (x, y) => Math.abs(ctx.terrain.creekDistance(x, y)) < 40), 20, 5000));
      break;
    case 'ACT':
      add(overlayProps(ctx, 'FLOOD', 'Flood prone area (1% AEP)'), poly10(masks.flood1pct));
      add(overlayProps(ctx, 'HERITAGE', 'Heritage precinct', { PRECINCT: "O'Connor Garden City precinct" }), heritageBlocks);
      break;
    case 'NT':
      add(overlayProps(ctx, 'HP', 'Heritage place'), heritageBlocks.slice(0, 1));
      add(overlayProps(ctx, 'ENV', 'Rapid Creek environs'), maskToPolygons(tileMask(20, (x, y) => Math.abs(ctx.terrain.creekDistance(x, y)) < 100), 20, 10000));
      break;
  }
  const path = `${ctx.dir}/planning-overlays.geojson`;
  ctx.writer.geojson(path, features);
  ctx.registry.add(`sample_${ctx.spec.id}_planning_overlays`, { path, state: st });
}

function idx10(x: number, y: number): number {
  const n = 600;
  const c = Math.min(n - 1, Math.max(0, Math.floor((x + TILE_HALF_M) / 10)));
  const r = Math.min(n - 1, Math.max(0, Math.floor((TILE_HALF_M - y) / 10)));
  return r * n + c;
}

const HERITAGE_FIELDS: Record<StateCode, (i: number, name: string) => Record<string, unknown>> = {
  VIC: (i, name) => ({ VHR_NUMBER: `H${1400 + i}`, NAME: name, HERMES_ID: 60000 + i, REGISTER: 'Victorian Heritage Register' }),
  NSW: (i, name) => ({ SHR_NUMBER: String(1200 + i).padStart(5, '0'), ITEM_NAME: name, SIGNIFICANCE: 'State' }),
  QLD: (i, name) => ({ QHR_ID: String(600400 + i), PLACE_NAME: name, REGISTER: 'Queensland Heritage Register' }),
  WA: (i, name) => ({ PLACE_NUMBER: String(2100 + i), NAME: name, REGISTER: 'State Register of Heritage Places' }),
  SA: (i, name) => ({ SAHR_ID: String(10400 + i), DETAILS: name, CLASS: 'State Heritage Place' }),
  TAS: (i, name) => ({ THR_ID: String(3100 + i), NAME: name, REGISTER: 'Tasmanian Heritage Register' }),
  ACT: (i, name) => ({ ACT_HERITAGE_ID: String(20000 + i), NAME: name, STATUS: 'Registered' }),
  NT: (i, name) => ({ HERITAGE_ID: String(100 + i), NAME: name, STATUS: 'Declared' }),
};

/** The state heritage register: a few heritage places on lots in the heritage precinct and the shopping strip. */
export function writeHeritage(ctx: TileContext): void {
  const st = ctx.spec.state;
  const lots = ctx.layout.lots.filter((l) => (l.use === 'commercial' || l.use.startsWith('residential')) && l.blockIndex % 11 === 0).slice(0, st === 'NT' ? 2 : 6);
  const features = lots.map((l, i) => llFeature(ctx, HERITAGE_FIELDS[st](i + 1, `${l.use === 'commercial' ? 'Former bank' : 'Villa'}, ${l.number} ${l.street.name}`), { type: 'Polygon', coordinates: [l.ring] }));
  const path = `${ctx.dir}/heritage-register.geojson`;
  ctx.writer.geojson(path, features);
  ctx.registry.add(`sample_${ctx.spec.id}_heritage`, { path, state: st });
}

/** A growth area in the rural edge of the tile (VIC, NSW, QLD, WA, SA). */
export function writeGrowthAreas(ctx: TileContext): void {
  const st = ctx.spec.state;
  if (!['VIC', 'NSW', 'QLD', 'WA', 'SA'].includes(st)) return;
  const ring = rotatedRect(-BUILT_HALF + 100, BUILT_HALF - 100, -BUILT_HALF - 1100, -BUILT_HALF - 150, ctx.layout.gridAngle);
  const clipped = clipToTile(ring);
  const { suburb } = ctx.suburbOf(0, -BUILT_HALF - 600);
  const path = `${ctx.dir}/growth-areas.geojson`;
  ctx.writer.geojson(path, clipped.length ? [llFeature(ctx, { name: `${suburb} South Growth Area`, status: 'Precinct structure plan in preparation', framework_plan: `${st} growth area framework ${AS_AT.slice(0, 4)}` }, { type: 'Polygon', coordinates: [clipped] })] : []);
  ctx.registry.add(`sample_${ctx.spec.id}_growth_areas`, { path, state: st });
}

/** QLD's 2025 city-plan package: rows in each licence group, and some whose group cannot be established. */
export function writeCityPlan2025(ctx: TileContext): void {
  if (ctx.spec.state !== 'QLD') return;
  const groups: (string | null)[] = ['zones_precincts', 'zones_precincts', 'schedule', 'infrastructure_plan', 'listed_overlay', 'cc_by_overlay', 'cc_by_overlay', null];
  const blocks = ctx.layout.blocks.filter((b) => b.use.startsWith('residential')).filter((_, i) => i % 9 === 4).slice(0, groups.length);
  const features = blocks.map((b, i) =>
    llFeature(ctx, { amendment: 'City Plan 2014 v31 (2025 package)', plan_group: groups[i], OVL2_DESC: groups[i] === 'cc_by_overlay' ? 'Flood overlay (2025 amendment)' : `Amendment item ${i + 1}`, OVL2_CAT: groups[i] === 'cc_by_overlay' ? 'Overland flow' : null }, { type: 'Polygon', coordinates: [b.ring] }),
  );
  const path = `${ctx.dir}/city-plan-2025.geojson`;
  ctx.writer.geojson(path, features);
  ctx.registry.add('sample_qld_city_plan_2025', { path, state: 'QLD' });
}
