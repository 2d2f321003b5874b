/**
 * The twelve sandbox addresses (never metered), chosen in each tile by what they demonstrate: a flood overlay
 * hit, a study depth, aircraft noise, bushfire exposure, partial coverage. Choices are made with the same
 * predicates the layers were drawn from, so every note is true of the data.
 */
import type { AddressRecord, TileContext } from './context.js';
import type { Lot } from './layout.js';
import { TILE_HALF_M } from './frame.js';
import { floodDepthAt, inEvidenceArea } from './layers/terrain-layers.js';
import { AIRPORTS } from './layers/aircraft.js';

/** One row of `/api/v1/property/sandbox`: the engine's contract (what the server answers). */
export type { SandboxAddress } from '../../engine/property/kit/contract.js';
import type { SandboxAddress } from '../../engine/property/kit/contract.js';

function maskAt(mask: Uint8Array, cell: number, x: number, y: number): boolean {
  const n = (2 * TILE_HALF_M) / cell;
  const c = Math.floor((x + TILE_HALF_M) / cell), r = Math.floor((TILE_HALF_M - y) / cell);
  return c >= 0 && r >= 0 && c < n && r < n && mask[r * n + c] === 1;
}

/** The address nearest the tile centre among those passing `ok` (preferring plain street addresses). */
function pick(ctx: TileContext, ok: (a: AddressRecord) => boolean, preferUnit = false, rule = 'the sandbox rule'): AddressRecord {
  const candidates = ctx.addresses.filter((a) => ok(a) && (preferUnit ? a.unit !== null : a.unit === null));
  const pool = candidates.length ? candidates : ctx.addresses.filter(ok);
  if (!pool.length) throw new Error(`sample world ${ctx.spec.id}: no address satisfies the sandbox rule (${rule})`);
  let best = pool[0];
  let bd = Infinity;
  for (const a of pool) {
    const d = Math.hypot(a.lot.centre[0], a.lot.centre[1]);
    if (d < bd) {
      bd = d;
      best = a;
    }
  }
  return best;
}

const row = (ctx: TileContext, a: AddressRecord, note: string): SandboxAddress => ({ address: a.text, state: ctx.spec.state, lat: Math.round(a.lat * 1e7) / 1e7, lng: Math.round(a.lon * 1e7) / 1e7, note });

/**
 * The flood-related sandbox rule of a tile, as a test of a lot (null for tiles without one): the generator
 * checks it once the flood is drawn and raises the flood when no lot passes (floodOffsetForSandbox), and
 * the sandbox choice below uses the same test.
 */
export function sandboxFloodRule(ctx: TileContext): ((lot: Lot) => boolean) | null {
  const inFlood = (l: Lot) => maskAt(ctx.masks.flood1pct, 10, l.centre[0], l.centre[1]);
  const residential = (l: Lot) => l.use.startsWith('residential');
  const depth = (l: Lot) => floodDepthAt(ctx, l.centre[0], l.centre[1]);
  switch (ctx.spec.id) {
    case 'vic':
      return (l) => residential(l) && inFlood(l);
    case 'nsw':
      return (l) => residential(l) && inFlood(l) && depth(l) > 0.2;
    case 'qld':
      return (l) => residential(l) && inFlood(l) && depth(l) > 0.3;
    case 'sa':
      return (l) => residential(l) && inEvidenceArea(ctx, l.centre[0], l.centre[1]);
    default:
      return null;
  }
}

/** The sandbox addresses of one tile (two in VIC, NSW, QLD and WA; one elsewhere). */
export function sandboxAddresses(ctx: TileContext): SandboxAddress[] {
  const { masks } = ctx;
  const inPlanning = (a: AddressRecord) => maskAt(masks.floodPlanning, 10, a.lot.centre[0], a.lot.centre[1]);
  const residential = (a: AddressRecord) => a.lot.use.startsWith('residential');
  const floodRule = sandboxFloodRule(ctx);
  const flooded = (a: AddressRecord) => floodRule!(a.lot);
  switch (ctx.spec.id) {
    case 'vic':
      return [
        row(ctx, pick(ctx, flooded, false, 'vic: residential in the 1% flood'), 'Inside the Land Subject to Inundation Overlay beside Merri Creek: official_layer is hit.'),
        row(ctx, pick(ctx, (a) => a.lot.use === 'residential_mid' && !inPlanning(a) && Math.abs(ctx.layout.pq(a.lot.centre[0], a.lot.centre[1])[1] - 270) < 100, true, 'vic: residential_mid on the tram road'), 'A unit on the tram road: road and tram noise; outside flood overlays (checked_no_hit).'),
      ];
    case 'nsw':
      return [
        row(ctx, pick(ctx, flooded, false, 'nsw: residential in the 1% flood, deeper than 0.2 m'), 'Inside the Flood Planning Area and the flood study: a modelled 1% AEP depth is reported.'),
        row(ctx, pick(ctx, (a) => residential(a) && Math.hypot(a.lot.centre[0] - ctx.layout.stations[0].x, a.lot.centre[1] - ctx.layout.stations[0].y) < 400 && !inPlanning(a)), 'Near the railway station, outside flood mapping.'),
      ];
    case 'qld':
      return [
        row(ctx, pick(ctx, flooded, false, 'qld: residential in the 1% flood, deeper than 0.3 m'), 'In a Brisbane flood planning area with a study depth and hazard class.'),
        row(ctx, pick(ctx, (a) => residential(a) && !inPlanning(a)), 'Outside the mapped flood overlay, but QLD overlay coverage is partial: checked_partial_coverage.'),
      ];
    case 'wa': {
      const [cx, cy] = ctx.frame.local(AIRPORTS[3].lon, AIRPORTS[3].lat);
      const a60 = (60 * Math.PI) / 180;
      const inAnef20 = (a: AddressRecord) => {
        const dx = a.lot.centre[0] - cx, dy = a.lot.centre[1] - cy;
        const u = dx * Math.cos(a60) + dy * Math.sin(a60), v = -dx * Math.sin(a60) + dy * Math.cos(a60);
        return (u / 7600) ** 2 + (v / 2600) ** 2 < 0.9 && (u / 5600) ** 2 + (v / 1900) ** 2 > 1.1;
      };
      return [
        row(ctx, pick(ctx, (a) => residential(a) && inAnef20(a)), 'Inside the Perth Airport ANEF 20-25 contour.'),
        row(ctx, pick(ctx, (a) => residential(a) && Math.abs(ctx.terrain.creekDistance(a.lot.centre[0], a.lot.centre[1])) < 400), 'Near the Swan River: no flood overlay is published for WA (official_layer none).'),
      ];
    }
    case 'sa':
      return [row(ctx, pick(ctx, flooded, false, 'sa: residential in the evidence area'), 'Inside the Hazards (Flooding - Evidence Required) overlay: a neutral trigger, not a severity.')];
    case 'tas': {
      const veg = masks.vegetation;
      const nearForest = (a: AddressRecord) => {
        for (let dy = -100; dy <= 100; dy += 20) for (let dx = -100; dx <= 100; dx += 20) {
          const x = a.lot.centre[0] + dx, y = a.lot.centre[1] + dy;
          const c = Math.floor((x + TILE_HALF_M) / 20), r = Math.floor((TILE_HALF_M - y) / 20);
          if (c >= 0 && r >= 0 && c < 300 && r < 300 && (veg[r * 300 + c] === 1 || veg[r * 300 + c] === 2)) return true;
        }
        return false;
      };
      return [row(ctx, pick(ctx, (a) => residential(a) && nearForest(a)), 'On the bushland edge of the foothills: bushfire pre-screening with an indicative BAL.')];
    }
    case 'act':
    {
      const a = pick(ctx, residential);
      return [row(ctx, a, `A suburban block in ${a.suburb}, away from the creek and the main roads.`)];
    }
    case 'nt':
      return [row(ctx, pick(ctx, (a) => residential(a) && a.lot.centre[0] > 300 && a.lot.centre[0] < 1000), 'Near the eastern edge of the LiDAR footprint: contours cover part of the window only.')];
    default:
      return [];
  }
}
