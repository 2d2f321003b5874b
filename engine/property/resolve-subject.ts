/**
 * Resolving the subject (spec 2.2): free text through the address index (confidence, warnings, note,
 * candidates), or a coordinate to the parcel under it and the nearest address. The parcel carries its
 * identifiers always and its boundary only with include_geometry on a geometry licence (else a
 * `geometry_omitted` note).
 */
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import type { AddressIndex, AddressRecord } from '../address/index.js';
import type { CatalogueSource } from '../catalogue/catalogue.js';
import type { StateCode } from '../catalogue/states.js';
import type { DataStore, VectorLayer } from '../data/dataset-store.js';
import { EngineError, isEngineError } from '../errors.js';
import type { PropertySubject } from './kit/contract.js';
import { clippedGeometry, r7 } from './kit/layer-item.js';
import type { ResolvedOptions } from './kit/options.js';
import { stateAt } from './inputs/domain-inputs.js';

/** A parcel found for the subject. */
export interface ParcelHit {
  source: CatalogueSource;
  properties: Record<string, unknown>;
  geometry: Polygon | MultiPolygon;
}

/** The resolved subject. */
export interface ResolvedSubject {
  lon: number;
  lat: number;
  state: StateCode | null;
  address: AddressRecord | null;
  parcel: ParcelHit | null;
  /** The billing identity: the address id, or the rounded coordinate when no address resolves. */
  addressKey: string;
  /** The `query` block. */
  query: Record<string, unknown>;
  /** The `resolved` block. */
  resolved: Record<string, unknown>;
}

/**
 * Australia's extent for the coverage message (mainland, Tasmania, the Torres Strait and near islands):
 * lon 112-154.5 E, lat 9-44.5 S. Coverage itself is decided by the held data, not by this box.
 */
export function inAustralia(lon: number, lat: number): boolean {
  return lon >= 112 && lon <= 154.5 && lat >= -44.5 && lat <= -9;
}

function nearHeldAddress(addresses: () => AddressIndex, lon: number, lat: number): boolean {
  try {
    return addresses().nearest(lon, lat, COORDINATE_ADDRESS_RADIUS_M) !== null;
  } catch {
    return false;
  }
}

/** The side of a billing cell for a point with neither address nor parcel: 0.001 degrees (about 110 m by 90 m). */
export const BILLING_CELL_DEG = 0.001;

/**
 * The billing identity of a coordinate with no address (README "Billing for points"): its parcel (so every
 * point on one parcel is one charge), else the 0.001-degree cell it falls in (so nudging a coordinate in
 * its sixth decimal is not a new address).
 */
export function pointBillingKey(parcel: ParcelHit | null, lon: number, lat: number): string {
  const pfi = parcel ? String(parcel.properties.pfi ?? parcel.properties.PFI ?? '') : '';
  if (parcel && pfi) return `parcel:${parcel.source.id}:${pfi}`;
  const cell = (v: number) => Math.floor(v / BILLING_CELL_DEG);
  return `cell:${cell(lat)},${cell(lon)}`;
}

/** An address point counts as the coordinate's address when it is on the parcel or within this distance, metres. */
export const COORDINATE_ADDRESS_RADIUS_M = 60;

const pfiIndexes = new WeakMap<VectorLayer, Map<string, number>>();

function parcelByPfi(store: DataStore, pfi: string, state: StateCode): ParcelHit | null {
  for (const l of store.vectorsFor('resolved.parcel', state)) {
    let m = pfiIndexes.get(l);
    if (!m) {
      m = new Map();
      l.features.forEach((f, i) => m!.set(String(f.properties?.pfi ?? f.properties?.PFI ?? ''), i));
      pfiIndexes.set(l, m);
    }
    const i = m.get(pfi);
    if (i !== undefined) return hitOf(l, l.features[i]);
  }
  return null;
}

function hitOf(l: VectorLayer, f: Feature): ParcelHit | null {
  const g = f.geometry;
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') return null;
  return { source: l.source, properties: (f.properties ?? {}) as Record<string, unknown>, geometry: g };
}

/** The parcel containing (lon, lat), or null. */
export function parcelAt(store: DataStore, lon: number, lat: number, state: StateCode | null): ParcelHit | null {
  for (const l of store.vectorsFor('resolved.parcel', state)) {
    const ids = l.polygons?.index.containing(lon, lat) ?? [];
    if (ids.length) return hitOf(l, l.features[l.polygons!.featureOf[ids[0]]]);
  }
  return null;
}

function parcelBlock(p: ParcelHit | null, options: ResolvedOptions): Record<string, unknown> | null {
  if (!p) return null;
  const q = p.properties;
  const str = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
  const out: Record<string, unknown> = { pfi: str(q.pfi ?? q.PFI), spi: str(q.spi ?? q.SPI), lot: str(q.lot ?? q.LOT), plan: str(q.plan ?? q.PLAN), lga: str(q.lga ?? q.LGA), source: p.source.id };
  if (!options.licence.geometry) out.geometry_omitted = 'The parcel boundary is delivered only on keys with the geometry licence; identifiers are included.';
  else if (!options.include_geometry) out.geometry_omitted = 'Pass include_geometry=1 for the parcel boundary.';
  else if (!p.source.geometry_redistribution) out.geometry_omitted = 'The land registry does not license redistribution of this parcel boundary; identifiers are included.';
  else out.geometry = clippedGeometry({ type: 'Feature', properties: {}, geometry: p.geometry }, [-180, -90, 180, 90]) ?? p.geometry;
  return out;
}

/**
 * The store that answers for a point: the whole dataset, or the window of the point's cell when the layers
 * are read from disk (data/windowed-store.ts).
 */
export type StoreAt = (lon: number, lat: number) => DataStore;

/**
 * Resolves the subject; throws NOT_FOUND (address_unresolvable) or UNAVAILABLE (address_resolution). `data`
 * is the dataset, or the store of each point (the parcel and state are read from the subject point's).
 */
export function resolveSubject(data: DataStore | StoreAt, addresses: () => AddressIndex, subject: PropertySubject, options: ResolvedOptions): ResolvedSubject {
  if ('address' in subject) {
    let res;
    try {
      res = addresses().resolve(subject.address, { limit: 5 });
    } catch (err) {
      if (isEngineError(err) && err.code === 'INVALID_ARGUMENT') throw err;
      throw new EngineError('UNAVAILABLE', 'address search is unavailable; pass lat and lng to look up a point instead', { component: 'address_resolution', cause: (err as Error).message });
    }
    if (!res.match) {
      throw new EngineError('NOT_FOUND', `no address matches ${JSON.stringify(subject.address)} well enough${res.candidates.length ? '; see candidates' : ''}`, { reason: 'address_unresolvable', candidates: res.candidates });
    }
    const a = res.match;
    const store = typeof data === 'function' ? data(a.lon, a.lat) : data;
    const parcel = (a.pfi ? parcelByPfi(store, a.pfi, a.state) : null) ?? parcelAt(store, a.lon, a.lat, a.state);
    return {
      lon: a.lon,
      lat: a.lat,
      state: a.state,
      address: a,
      parcel,
      addressKey: a.id,
      query: { address: subject.address, lat: r7(a.lat), lng: r7(a.lon) },
      resolved: {
        address: a.text,
        point: { lat: r7(a.lat), lng: r7(a.lon) },
        candidates: res.candidates,
        match_confidence: res.confidence,
        match_warnings: res.warnings,
        match_note: res.note,
        parcel: parcelBlock(parcel, options),
      },
    };
  }
  const { lat, lng } = subject;
  const store = typeof data === 'function' ? data(lng, lat) : data;
  const state = stateAt(store, lng, lat);
  const parcel = parcelAt(store, lng, lat, state);
  if (state === null && parcel === null && !nearHeldAddress(addresses, lng, lat)) {
    // Nothing held says anything about this point: answering would be a payload of "not assessed" (and a
    // charge for it). Outside Australia, or inside it but outside every dataset this server holds.
    const where = inAustralia(lng, lat) ? 'is outside every dataset this server holds (no state or council area, parcel or address covers it)' : "is outside Australia's coverage (this service answers for Australian land)";
    throw new EngineError('NOT_FOUND', `the point ${lat}, ${lng} ${where}`, { reason: 'outside_coverage', lat, lng });
  }
  let address: AddressRecord | null = null;
  let note: string;
  try {
    const idx = addresses();
    const pfi = parcel ? String(parcel.properties.pfi ?? parcel.properties.PFI ?? '') : '';
    const onParcel = pfi ? idx.byPfi(pfi) : [];
    if (onParcel.length) {
      // Several addresses on one parcel (units): the street address, else the first unit.
      address = onParcel.find((r) => r.unit === null) ?? onParcel[0];
      note = 'Resolved from a coordinate: the address of the parcel under the point.';
    } else {
      const n = idx.nearest(lng, lat, COORDINATE_ADDRESS_RADIUS_M);
      address = n?.record ?? null;
      note = address ? `Resolved from a coordinate: no address on a parcel under the point; the nearest address is ${Math.round(n!.distanceM)} m away.` : 'Resolved from a coordinate: no address point lies on or near it; the lookup is for the point.';
    }
  } catch {
    note = 'Resolved from a coordinate; address search is unavailable, so no address was attached.';
  }
  return {
    lon: lng,
    lat,
    state: state ?? address?.state ?? null,
    address,
    parcel,
    addressKey: address ? address.id : pointBillingKey(parcel, lng, lat),
    query: { address: null, lat, lng },
    resolved: {
      address: address?.text ?? null,
      point: { lat: r7(lat), lng: r7(lng) },
      candidates: [],
      match_confidence: null,
      match_warnings: [],
      match_note: note,
      parcel: parcelBlock(parcel, options),
    },
  };
}
