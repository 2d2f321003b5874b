/**
 * Bushfire vegetation (AS 3959 classes), fire history, official bushfire-prone mapping, and the contaminated
 * land register.
 */
import type { Feature } from 'geojson';
import { llFeature, polygonal, type TileContext } from '../context.js';
import { TILE_HALF_M } from '../frame.js';
import { ellipse, maskToPolygons, tileMask } from '../geometry.js';
import { BUILT_HALF } from '../layout.js';
import { fractalNoise } from '../value-noise.js';

/** AS 3959 vegetation classes, indexed from 1 in the vegetation mask. */
export const VEG_CLASSES = ['forest', 'woodland', 'scrub', 'shrubland', 'grassland', 'rainforest', 'mallee_mulga'] as const;

const STRUCTURE: Record<(typeof VEG_CLASSES)[number], string> = {
  forest: 'Open forest', woodland: 'Woodland', scrub: 'Riparian scrub', shrubland: 'Low open shrubland', grassland: 'Tussock grassland', rainforest: 'Closed forest', mallee_mulga: 'Mallee',
};

/** The vegetation class grid (20 m cells, 0 = none): forest on the hills, woodland below, grass at the edge. */
export function vegetationMask(ctx: TileContext): Uint8Array {
  const n = (2 * TILE_HALF_M) / 20;
  const m = new Uint8Array(n * n);
  const seed = ctx.tileIndex * 97 + 13;
  const tropical = ctx.spec.state === 'NT';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [x, y] = ctx.frame.cellCentre(c, r, 20);
      const [p, q] = ctx.layout.pq(x, y);
      const built = Math.abs(p) < BUILT_HALF + 40 && Math.abs(q) < BUILT_HALF + 40;
      const creek = Math.abs(ctx.terrain.creekDistance(x, y));
      const hill = ctx.terrain.hilliness(x, y);
      const noise = fractalNoise(x, y, 700, 3, seed);
      let cls = 0;
      if (creek < 35 && noise > -0.4) cls = 3; // riparian scrub along the creek, even in town
      else if (!built) {
        if (hill > 0.55 && noise > -0.35) cls = tropical ? 2 : 1;
        else if (hill > 0.2 && noise > 0.05) cls = 2;
        else if (noise < 0.25) cls = 5;
        else if (noise > 0.45) cls = 4;
      } else if (hill > 0.75 && noise > 0.1) cls = 2; // remnant woodland on hilly suburban edges
      m[r * n + c] = cls;
    }
  }
  return m;
}

/** Writes vegetation polygons, fire history and the official bushfire-prone area. */
export function writeBushfire(ctx: TileContext): void {
  const veg = ctx.masks.vegetation;
  const features: Feature[] = [];
  VEG_CLASSES.forEach((cls, i) => {
    const mask = veg.map((v) => (v === i + 1 ? 1 : 0));
    for (const poly of maskToPolygons(mask, 20, 8000)) features.push(llFeature(ctx, { veg_class: cls, structure: STRUCTURE[cls], source: 'sample_national_vegetation' }, polygonal([poly])));
  });
  const vp = `${ctx.dir}/vegetation.geojson`;
  ctx.writer.geojson(vp, features);
  ctx.registry.add('sample_national_vegetation', { path: vp, state: ctx.spec.state });

  const st = ctx.spec.state;
  if (st !== 'NT') {
    // Fire scars on the hills: ellipses in the forested edge.
    const side = ctx.spec.terrain.hillSide;
    const fires = [
      { year: 2009, type: 'bushfire', u: -1200, v: 2200, rx: 900, ry: 450 },
      { year: 2019, type: 'bushfire', u: 900, v: 2400, rx: 700, ry: 380 },
      { year: 2023, type: 'prescribed', u: 200, v: 1800, rx: 400, ry: 220 },
    ];
    const fh = fires.map((f, i) => {
      const [x, y] = ctx.terrain.xy(f.u, ctx.terrain.creekV(f.u) + side * f.v);
      return llFeature(ctx, { fire_id: `${st}-${f.year}-${i + 1}`, fire_year: f.year, fire_type: f.type, fire_name: f.type === 'bushfire' ? `${ctx.spec.suburbs[2].name} fire` : 'Planned burn', source: `sample_${ctx.spec.id}_fire_history` }, { type: 'Polygon', coordinates: [ellipse(x, y, f.rx, f.ry, (ctx.spec.terrain.creekAngle * Math.PI) / 180, 40)] });
    });
    const fp = `${ctx.dir}/fire-history.geojson`;
    ctx.writer.geojson(fp, fh);
    ctx.registry.add(`sample_${ctx.spec.id}_fire_history`, { path: fp, state: st });
  }
  if (st === 'NT') return; // no official bushfire-prone mapping is integrated for the NT
  // Bushfire-prone: within 150 m of forest, woodland or scrub patches, and of large grassland.
  const n = 300;
  const prone = tileMask(20, (x, y) => {
    const c = Math.floor((x + TILE_HALF_M) / 20), r = Math.floor((TILE_HALF_M - y) / 20);
    for (let dr = -7; dr <= 7; dr++) for (let dc = -7; dc <= 7; dc++) {
      if (dr * dr + dc * dc > 56) continue;
      const rr = r + dr, cc = c + dc;
      if (rr < 0 || rr >= n || cc < 0 || cc >= n) continue;
      const v = veg[rr * n + cc];
      if (v === 1 || v === 2 || v === 5) return true;
    }
    return false;
  });
  const props: Record<string, Record<string, unknown>> = {
    VIC: { BPA_TYPE: 'Designated Bushfire Prone Area' },
    NSW: { category: 'Vegetation Category 1', d_category: 'Bush Fire Prone Land' },
    QLD: { OVL2_DESC: 'Bushfire hazard area', POTENTIAL_INTENSITY: 'High' },
    WA: { type: 'Bush Fire Prone Area', designation: 'Order 2023' },
    SA: { overlay: 'Hazards (Bushfire - Medium Risk)' },
    TAS: { OVERLAY: 'Bushfire-prone areas' },
    ACT: { ZONE: 'Bushfire Prone Area' },
  };
  const bp = maskToPolygons(prone, 20, 20000).map((poly) => llFeature(ctx, { ...props[st], source: `sample_${ctx.spec.id}_bushfire_prone` }, polygonal([poly])));
  const bpp = `${ctx.dir}/bushfire-prone.geojson`;
  ctx.writer.geojson(bpp, bp);
  ctx.registry.add(`sample_${ctx.spec.id}_bushfire_prone`, { path: bpp, state: st });
}

const CONTAM_STATUS = ['Notified', 'Under assessment', 'Management order', 'Remediated', 'Audit completed'];

/** The contaminated-land register: sites on industrial and commercial lots, and a former service station. */
export function writeContamination(ctx: TileContext): void {
  const st = ctx.spec.state;
  if (st === 'WA') return; // the WA register is not integrated
  const lots = ctx.layout.lots.filter((l) => l.use === 'industrial').filter((_, i) => i % 4 === 1).slice(0, 5);
  const extra = ctx.layout.lots.filter((l) => l.use === 'commercial').filter((_, i) => i % 13 === 6).slice(0, 2);
  const sites = [...lots, ...extra];
  const features = sites.map((l, i) =>
    llFeature(ctx, {
      site_id: `${st}-CL-${String(1000 + i + ctx.tileIndex * 50)}`,
      name: l.use === 'industrial' ? `Former ${ctx.rnd.pick(['paint works', 'tannery', 'engineering works', 'foundry', 'depot'])}` : 'Former service station',
      status: CONTAM_STATUS[i % CONTAM_STATUS.length],
      register: `${st} EPA contaminated land register`,
      address: `${l.number} ${l.street.name}`,
      notified: `${2004 + ((i * 3) % 18)}-0${1 + (i % 9)}-15`,
      source: `sample_${ctx.spec.id}_contamination`,
    }, { type: 'Polygon', coordinates: [l.ring] }),
  );
  const path = `${ctx.dir}/contamination-register.geojson`;
  ctx.writer.geojson(path, features);
  ctx.registry.add(`sample_${ctx.spec.id}_contamination`, { path, state: st });
}
