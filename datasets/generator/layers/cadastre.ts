/**
 * Cadastre parcels and address points. Each lot is a parcel (pfi, spi, lot, plan, lga) and has one address,
 * or one per unit for unit developments ("3/45 Blyth Street"). Lot and plan numbers follow each state's
 * style (VIC plan of subdivision PS123456, NSW deposited plan DP123456, QLD RP/SP, ...).
 */
import type { Feature } from 'geojson';
import type { StateCode } from '../../../engine/catalogue/states.js';
import { llFeature, type AddressRecord, type TileContext } from '../context.js';
import type { Lot } from '../layout.js';

const PLAN_STYLE: Record<StateCode, (n: number) => string> = {
  VIC: (n) => `PS${String(300000 + n).padStart(6, '0')}`,
  NSW: (n) => `DP${String(700000 + n).padStart(6, '0')}`,
  QLD: (n) => `RP${String(800000 + n).padStart(6, '0')}`,
  WA: (n) => `P${String(10000 + n).padStart(6, '0')}`,
  SA: (n) => `D${String(40000 + n).padStart(6, '0')}`,
  TAS: (n) => `SP${String(120000 + n).padStart(6, '0')}`,
  ACT: (n) => `Section ${20 + n}`,
  NT: (n) => `Town of Nightcliff ${5000 + n}`,
};

function spiOf(state: StateCode, lot: number, plan: string): string {
  switch (state) {
    case 'VIC':
      return `${lot}\\${plan}`;
    case 'NSW':
      return `${lot}//${plan}`;
    case 'QLD':
      return `${lot}${plan}`;
    case 'ACT':
      return `Block ${lot} ${plan}`;
    default:
      return `${lot}/${plan}`;
  }
}

/** The text of an address in G-NAF style: "3/45 Blyth Street, Brunswick East VIC 3057". */
export function addressText(unit: number | null, number: number, street: string, suburb: string, state: StateCode, postcode: string): string {
  return `${unit ? `${unit}/` : ''}${number} ${street}, ${suburb} ${state} ${postcode}`;
}

/** Writes parcels and addresses; fills ctx.addresses and ctx.pfiOf. */
export function writeCadastre(ctx: TileContext): void {
  const st = ctx.spec.state;
  const parcels: Feature[] = [];
  const rows: Record<string, unknown>[] = [];
  const plans = new Map<number, string>();
  let pfiCounter = 0;
  for (const lot of ctx.layout.lots) {
    const plan = plans.get(lot.blockIndex) ?? PLAN_STYLE[st](plans.size + 1 + ctx.tileIndex * 1000);
    plans.set(lot.blockIndex, plan);
    const pfi = `${ctx.tileIndex + 1}${String(++pfiCounter).padStart(7, '0')}`;
    ctx.pfiOf.set(lot, pfi);
    const { suburb, postcode, council } = ctx.suburbOf(lot.centre[0], lot.centre[1]);
    parcels.push(llFeature(ctx, { pfi, spi: spiOf(st, lot.lotNumber, plan), lot: String(lot.lotNumber), plan, lga: council, state: st }, { type: 'Polygon', coordinates: [lot.ring] }));
    const [lon, lat] = ctx.frame.lonLat(lot.centre[0], lot.centre[1]);
    const units = lot.units.length ? lot.units : [null];
    for (const unit of units) {
      const id = `${st}${String(ctx.addressBase + ctx.addresses.length + 1).padStart(7, '0')}`;
      const streetType = lot.street.name.slice(lot.street.name.lastIndexOf(' ') + 1);
      const streetName = lot.street.name.slice(0, lot.street.name.lastIndexOf(' '));
      const rec: AddressRecord = { id, lot, unit, text: addressText(unit, lot.number, lot.street.name, suburb, st, postcode), lon, lat, pfi, suburb, postcode, council };
      ctx.addresses.push(rec);
      rows.push({ address_id: id, unit: unit ?? '', number: lot.number, street_name: streetName, street_type: streetType, suburb, state: st, postcode, lon: round7(lon), lat: round7(lat), pfi, lga: council });
    }
  }
  const addrPath = `${ctx.dir}/addresses.csv`;
  ctx.writer.csv(addrPath, ['address_id', 'unit', 'number', 'street_name', 'street_type', 'suburb', 'state', 'postcode', 'lon', 'lat', 'pfi', 'lga'], rows);
  ctx.registry.add(`sample_${ctx.spec.id}_addresses`, { path: addrPath, state: st });
  const parcelPath = `${ctx.dir}/parcels.geojson`;
  if (st === 'NSW') {
    // NSW's cadastre is published in GDA2020 / MGA: written projected, declared in the catalogue and the file.
    const projected = ctx.layout.lots.map((lot, i) => ({ ...parcels[i], geometry: { type: 'Polygon' as const, coordinates: [ctx.frame.toMga(lot.ring)] } }));
    ctx.writer.geojson(parcelPath, projected, ctx.frame.crs);
    ctx.registry.add(`sample_${ctx.spec.id}_cadastre`, { path: parcelPath, state: st, crs: ctx.frame.crs });
  } else {
    ctx.writer.geojson(parcelPath, parcels);
    ctx.registry.add(`sample_${ctx.spec.id}_cadastre`, { path: parcelPath, state: st });
  }
}

/** Drainage and sewerage easements: 3 m strips along the rear boundary of residential lots. */
export function writeEasements(ctx: TileContext): void {
  const id = `sample_${ctx.spec.id}_easements`;
  if (['TAS', 'NT'].includes(ctx.spec.state)) return;
  const features: Feature[] = [];
  const { layout } = ctx;
  for (const block of layout.blocks) {
    if (!block.use.startsWith('residential') || block.index % 3 !== 0) continue;
    // The rear boundary runs along the middle of the block (between the two rows of lots).
    const [a, b, c, d] = block.ring;
    const mid = (p: number[], q: number[]) => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
    const m1 = mid(a, d), m2 = mid(b, c);
    const nx = (d[0] - a[0]) / Math.hypot(d[0] - a[0], d[1] - a[1]);
    const ny = (d[1] - a[1]) / Math.hypot(d[0] - a[0], d[1] - a[1]);
    const ring = [[m1[0] - nx * 1.5, m1[1] - ny * 1.5], [m2[0] - nx * 1.5, m2[1] - ny * 1.5], [m2[0] + nx * 1.5, m2[1] + ny * 1.5], [m1[0] + nx * 1.5, m1[1] + ny * 1.5], [m1[0] - nx * 1.5, m1[1] - ny * 1.5]];
    features.push(llFeature(ctx, { easement_id: `E${ctx.tileIndex + 1}${String(features.length + 1).padStart(5, '0')}`, purpose: 'Drainage and sewerage', width_m: 3, beneficiary: `${ctx.spec.councils[0]} and the water authority` }, { type: 'Polygon', coordinates: [ring] }));
  }
  const path = `${ctx.dir}/easements.geojson`;
  ctx.writer.geojson(path, features);
  ctx.registry.add(id, { path, state: ctx.spec.state });
}

const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

/** The lot whose centre is nearest (x, y), among lots passing `filter`. */
export function nearestLot(lots: readonly Lot[], x: number, y: number, filter: (l: Lot) => boolean = () => true): Lot | null {
  let best: Lot | null = null;
  let bd = Infinity;
  for (const l of lots) {
    if (!filter(l)) continue;
    const d = Math.hypot(l.centre[0] - x, l.centre[1] - y);
    if (d < bd) {
      bd = d;
      best = l;
    }
  }
  return best;
}
