/** Schools and their catchments, and OSM-style amenities. */
import type { Position } from 'geojson';
import type { StateCode } from '../../../engine/catalogue/states.js';
import { llFeature, type TileContext } from '../context.js';
import { TILE_HALF_M } from '../frame.js';
import { clipHalfPlane } from '../geometry.js';

const r7 = (v: number) => Math.round(v * 1e7) / 1e7;

const SCHOOL_STYLE: Record<StateCode, { primary: string; secondary: string; prep: string }> = {
  VIC: { primary: 'Primary School', secondary: 'Secondary College', prep: 'Prep' },
  NSW: { primary: 'Public School', secondary: 'High School', prep: 'K' },
  QLD: { primary: 'State School', secondary: 'State High School', prep: 'Prep' },
  WA: { primary: 'Primary School', secondary: 'Senior High School', prep: 'K' },
  SA: { primary: 'Primary School', secondary: 'High School', prep: 'R' },
  TAS: { primary: 'Primary School', secondary: 'High School', prep: 'Prep' },
  ACT: { primary: 'Primary School', secondary: 'College', prep: 'K' },
  NT: { primary: 'Primary School', secondary: 'Middle School', prep: 'T' },
};

/** Writes school points and government-school catchments (not for TAS and NT: the open-data gap). */
export function writeSchools(ctx: TileContext): void {
  if (!ctx.spec.has.schools) return;
  const st = ctx.spec.state;
  const style = SCHOOL_STYLE[st];
  const sites = ctx.layout.blocks.filter((b) => b.use === 'school');
  const kinds = [
    { type: 'Primary', sector: 'Government', years: `${style.prep}-6`, suffix: style.primary },
    { type: 'Secondary', sector: 'Government', years: '7-12', suffix: style.secondary },
    { type: 'Primary', sector: 'Government', years: `${style.prep}-6`, suffix: style.primary },
    { type: 'Pri/Sec', sector: 'Catholic', years: `${style.prep}-12`, suffix: 'College' },
  ];
  const schools = sites.slice(0, kinds.length).map((b, i) => {
    const k = kinds[i];
    const { suburb } = ctx.suburbOf(b.centre[0], b.centre[1]);
    const name = k.sector === 'Catholic' ? `St ${['Joseph', 'Mary', 'Brigid', 'Patrick'][ctx.tileIndex % 4]}'s ${k.suffix}` : `${suburb}${i === 2 ? ' North' : ''} ${k.suffix}`;
    const [lon, lat] = ctx.frame.lonLat(b.centre[0], b.centre[1]);
    return { school_id: `${st}-SCH-${1000 + ctx.tileIndex * 10 + i}`, name, lon: r7(lon), lat: r7(lat), school_type: k.type, school_sector: k.sector, year_levels: k.years, source: `sample_${ctx.spec.id}_schools`, x: b.centre[0], y: b.centre[1] };
  });
  const sp = `${ctx.dir}/schools.csv`;
  ctx.writer.csv(sp, ['school_id', 'name', 'lon', 'lat', 'school_type', 'school_sector', 'year_levels', 'source'], schools);
  ctx.registry.add(`sample_${ctx.spec.id}_schools`, { path: sp, state: st });
  // Catchments: the two government primaries split the tile by their perpendicular bisector (a Voronoi
  // division); the government secondary takes the whole tile.
  const tile: Position[] = [[-TILE_HALF_M, -TILE_HALF_M], [TILE_HALF_M, -TILE_HALF_M], [TILE_HALF_M, TILE_HALF_M], [-TILE_HALF_M, TILE_HALF_M], [-TILE_HALF_M, -TILE_HALF_M]];
  const prim = schools.filter((s) => s.school_type === 'Primary' && s.school_sector === 'Government');
  const feats = [];
  for (const s of prim) {
    let ring = tile;
    for (const o of prim) {
      if (o === s) continue;
      // Keep points closer to s than to o: (o - s) . p <= (|o|^2 - |s|^2) / 2.
      ring = clipHalfPlane(ring, o.x - s.x, o.y - s.y, (o.x * o.x + o.y * o.y - s.x * s.x - s.y * s.y) / 2);
    }
    feats.push(llFeature(ctx, { school_id: s.school_id, school_name: s.name, catchment_type: 'Primary', school_type: s.school_type, school_sector: s.school_sector, year_levels: s.year_levels, year: 2027 }, { type: 'Polygon', coordinates: [ring] }));
  }
  for (const s of schools.filter((x) => x.school_type === 'Secondary')) {
    feats.push(llFeature(ctx, { school_id: s.school_id, school_name: s.name, catchment_type: 'Secondary', school_type: s.school_type, school_sector: s.school_sector, year_levels: s.year_levels, year: 2027 }, { type: 'Polygon', coordinates: [tile] }));
  }
  const cp = `${ctx.dir}/school-catchments.geojson`;
  ctx.writer.geojson(cp, feats);
  ctx.registry.add(`sample_${ctx.spec.id}_school_catchments`, { path: cp, state: st });
}

/** An amenity kind: how many, and its OSM tags. */
const AMENITY_KINDS: { n: number; name: string; tags: { amenity?: string; shop?: string; leisure?: string; healthcare?: string } }[] = [
  { n: 2, name: 'Supermarket', tags: { shop: 'supermarket' } },
  { n: 2, name: 'Greengrocer', tags: { shop: 'greengrocer' } },
  { n: 10, name: 'Cafe', tags: { amenity: 'cafe' } },
  { n: 8, name: 'Restaurant', tags: { amenity: 'restaurant' } },
  { n: 3, name: 'Takeaway', tags: { amenity: 'fast_food' } },
  { n: 2, name: 'Pharmacy', tags: { amenity: 'pharmacy', healthcare: 'pharmacy' } },
  { n: 3, name: 'Medical Centre', tags: { amenity: 'doctors', healthcare: 'doctor' } },
  { n: 1, name: 'Library', tags: { amenity: 'library' } },
  { n: 1, name: 'Community Centre', tags: { amenity: 'community_centre' } },
  { n: 2, name: 'Bakery', tags: { shop: 'bakery' } },
  { n: 2, name: 'Convenience', tags: { shop: 'convenience' } },
  { n: 1, name: 'Post Office', tags: { amenity: 'post_office' } },
  { n: 2, name: 'Gym', tags: { leisure: 'fitness_centre' } },
  { n: 1, name: 'Bank', tags: { amenity: 'bank' } },
];

/** Writes amenities: most on the shopping strip and near the station, some scattered; parks as points. */
export function writeAmenities(ctx: TileContext): void {
  const strip = ctx.layout.lots.filter((l) => l.use === 'commercial');
  const others = ctx.layout.lots.filter((l) => l.use === 'residential_mid');
  const rows: Record<string, unknown>[] = [];
  const add = (x: number, y: number, name: string, tags: Record<string, string | undefined>) => {
    const [lon, lat] = ctx.frame.lonLat(x, y);
    rows.push({ amenity_id: `node/${5000000 + ctx.tileIndex * 100000 + rows.length}`, lon: r7(lon), lat: r7(lat), name, amenity: tags.amenity ?? '', shop: tags.shop ?? '', leisure: tags.leisure ?? '', healthcare: tags.healthcare ?? '', crowd_sourced: true, source: 'sample_osm_amenities' });
  };
  for (const k of AMENITY_KINDS) {
    for (let i = 0; i < k.n; i++) {
      const pool = i === k.n - 1 && k.n > 1 && others.length ? others : strip.length ? strip : others;
      const lot = ctx.rnd.pick(pool);
      add(lot.centre[0] + ctx.rnd.range(-3, 3), lot.centre[1] + ctx.rnd.range(-3, 3), `${lot.street.name.split(' ')[0]} ${k.name}`, k.tags);
    }
  }
  for (const b of ctx.layout.blocks.filter((x) => x.use === 'park')) add(b.centre[0], b.centre[1], `${ctx.suburbOf(b.centre[0], b.centre[1]).suburb} Reserve`, { leisure: 'park' });
  const path = `${ctx.dir}/amenities-osm.csv`;
  ctx.writer.csv(path, ['amenity_id', 'lon', 'lat', 'name', 'amenity', 'shop', 'leisure', 'healthcare', 'crowd_sourced', 'source'], rows);
  ctx.registry.add('sample_osm_amenities', { path, state: ctx.spec.state });
}
