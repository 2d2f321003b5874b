/**
 * `engine.property(subject, options)`: the payload of spec sections 1-3 for one address or point. Resolves
 * the subject, runs each selected block in isolation (a failing lookup degrades its component and shows as
 * `unavailable`, never as an empty list; a failing DA lookup is an error of its own), adds scores and
 * surfaces from their engine modules, and generates `meta` from the catalogue and what was used.
 *
 * Caching (spec 2.8): layer lookups 7 days, scores and surfaces 31 days, DAs never; degraded results are
 * never cached; `meta.as_at` carries when each cached part was computed.
 */
import type { AddressIndex } from '../address/index.js';
import type { Cache } from '../cache/ttl-cache.js';
import { DAY_MS } from '../cache/ttl-cache.js';
import type { DaReader } from '../da/index.js';
import type { DataStore } from '../data/dataset-store.js';
import type { ScoresOptions, ScoresResult, SurfacesOptions, SurfacesResult } from './engine-calls.js';
import { SCORE_KEYS, type ScoreKey } from '../scores/registry.js';
import { areaBlock } from './blocks/areas.js';
import { blockContext, type BlockContext } from './blocks/context.js';
import { dasBlock } from './blocks/das.js';
import { environmentBlock } from './blocks/environment.js';
import { hazardsBlock } from './blocks/hazards.js';
import { planningBlock } from './blocks/planning.js';
import { poiBlock, SCHOOL_CATCHMENT_FIELDS } from './blocks/poi.js';
import { proximityBlock } from './blocks/proximity.js';
import { isSelected, selectComponents, type Selection } from './kit/components.js';
import { CORE_BLOCKS, type PropertyBlock, type PropertyOptions, type PropertyResult, type PropertySubject, type SurfaceLayer } from './kit/contract.js';
import { LookupLog } from './kit/lookup-log.js';
import { API_VERSIONS, attributionOf, COMMON_CORE_VERSION, coverageNotesOf, coverageStatusOf, creditsOf, pathCredits, sourceCurrencyOf, sourceIdsIn } from './meta.js';
import { resolveOptions, validateSubject, type ResolvedOptions } from './kit/options.js';
import { PLANNING_CORE_FIELDS } from './kit/planning-core.js';
import { resolveSubject, type ResolvedSubject, type StoreAt } from './resolve-subject.js';
import { parcelRadius, type Subject } from './kit/layer-query.js';
import { withPrecision } from './precision.js';

/** What the property lookup needs from the engine. */
export interface PropertyDeps {
  store: DataStore;
  /**
   * With the layers read from disk by window (data/windowed-store.ts): the window of a point's cell, which
   * answers every lookup on a parcel up to `coveringM` from the point with nearby zones up to `zonesNearbyM`
   * beyond it, and a window around the point for larger parcels or radii.
   */
  windows?: { at: StoreAt; around(lon: number, lat: number, radiusM: number): DataStore; coveringM: number; zonesNearbyM: number };
  /** The address index (built on first use); throws when address search is down. */
  addresses(): AddressIndex;
  /** The DA store; throws when it cannot answer. */
  das(): DaReader;
  /** Address ids of the sandbox addresses. */
  sandboxIds(): Promise<ReadonlySet<string>>;
  scores(lon: number, lat: number, options: ScoresOptions): Promise<ScoresResult>;
  /** The keys of the scores the engine computes (default the registry's). */
  scoreKeys?: readonly string[];
  surfaces(lon: number, lat: number, options: SurfacesOptions): Promise<SurfacesResult>;
  /** Layer lookups (7 days). */
  layerCache: Cache;
  /** Scores and surfaces (31 days). */
  scoreCache: Cache;
}

/** Time-to-live of cached layer lookups (spec 2.8: 7 days). */
export const LAYER_TTL_MS = 7 * DAY_MS;
/** Time-to-live of cached scores and surfaces (spec 2.8: up to 31 days). */
export const SCORE_TTL_MS = 31 * DAY_MS;

/** The blocks whose lookups are cached together as "layers", in payload order. */
const LAYER_BLOCKS = ['planning', 'hazards', 'environment', 'poi', 'transport', 'utilities', 'administrative', 'public_housing', 'other_layers'] as const;
type LayerBlock = (typeof LAYER_BLOCKS)[number];

/** Which licence block delivers each payload block (other_layers travels with administrative: area context). */
const LICENCE_BLOCK: Record<LayerBlock, PropertyBlock> = {
  planning: 'planning', hazards: 'hazards', environment: 'environment', poi: 'poi', transport: 'transport', utilities: 'utilities', administrative: 'administrative', public_housing: 'public_housing', other_layers: 'administrative',
};

interface CachedLayers {
  blocks: Partial<Record<LayerBlock, Record<string, unknown>>>;
  paths: [string, { count: number; failed: boolean; emptyIsNotAssessed: boolean; sources: string[] }][];
  geometry: [string, string[]][];
}

function selectionKey(sel: Selection): string {
  return [...sel].map(([b, s]) => (s === null ? b : `${b}(${[...s].sort().join('|')})`)).sort().join(',');
}

function runLayerBlocks(ctx: BlockContext, sel: Selection, variant: 'full' | 'core'): Partial<Record<LayerBlock, Record<string, unknown>>> {
  const out: Partial<Record<LayerBlock, Record<string, unknown>>> = {};
  for (const block of LAYER_BLOCKS) {
    if (block === 'other_layers' && variant === 'core') continue;
    const lb = LICENCE_BLOCK[block];
    if (!sel.has(lb)) continue;
    const wanted = (key: string) => (block === 'other_layers' ? sel.get(lb) === null : isSelected(sel, lb, key));
    switch (block) {
      case 'planning': out.planning = planningBlock(ctx, wanted); break;
      case 'hazards': out.hazards = hazardsBlock(ctx, wanted); break;
      case 'environment': out.environment = environmentBlock(ctx, wanted); break;
      case 'poi': out.poi = poiBlock(ctx, wanted); break;
      case 'transport': case 'utilities': out[block] = proximityBlock(ctx, block, wanted); break;
      default: out[block] = areaBlock(ctx, block, wanted);
    }
    if (Object.keys(out[block]!).length === 0 && block === 'other_layers') delete out[block];
  }
  return out;
}

/** Layer blocks, from the 7-day cache when an identical lookup is held (and none of it degraded). */
function layerBlocks(deps: PropertyDeps, ctx: BlockContext, sel: Selection, subject: ResolvedSubject, o: ResolvedOptions): { blocks: CachedLayers['blocks']; at: Date } {
  const key = ['layers', subject.state, subject.parcel ? `${subject.parcel.source.id}:${String(subject.parcel.properties.pfi ?? '')}` : '', subject.lon.toFixed(7), subject.lat.toFixed(7), selectionKey(sel), o.variant, ctx.geometry, o.school_radius_m, o.include_nearby_zones ? o.nearby_zone_radius_m : 0].join('/');
  const hit = deps.layerCache.get<CachedLayers>(key, o.now);
  if (hit) {
    for (const [path, v] of hit.value.paths) {
      ctx.log.paths.set(path, { ...v, sources: new Set(v.sources) });
      if (v.failed) ctx.log.degraded.add(path);
    }
    for (const [k, s] of hit.value.geometry) for (const id of s) ctx.log.geometryFrom(k, id);
    return { blocks: hit.value.blocks, at: hit.storedAt };
  }
  const before = new Set(ctx.log.paths.keys());
  const blocks = runLayerBlocks(ctx, sel, o.variant);
  const mine = [...ctx.log.paths].filter(([p]) => !before.has(p));
  if (!mine.some(([, v]) => v.failed)) {
    deps.layerCache.set(key, {
      blocks,
      paths: mine.map(([p, v]) => [p, { ...v, sources: [...v.sources] }]),
      geometry: [...ctx.log.geometry].map(([k, s]) => [k, [...s]]),
    } satisfies CachedLayers, LAYER_TTL_MS, o.now);
  }
  return { blocks, at: o.now };
}

/**
 * True when a delivered score says one of its inputs failed, so it must not be pinned for 31 days and its
 * lookup is degraded: its own `completeness` is partial, its delivery contract forbids pinning, or any field
 * reports a check `degraded` (walkability coverage) or a lookup `unavailable` (bushfire coverage, the
 * official zone status, contamination's `epa_status`, the heat-island and view-quality `status`, ...). In the
 * score modules `unavailable` always means a lookup that failed and may answer on retry; a source not held
 * is `not_integrated`, a stable answer that is cached.
 */
function scoreIsPartial(score: unknown): boolean {
  const s = score as { completeness?: string; delivery_contract?: { cacheable?: boolean } } | undefined;
  if (!s || typeof s !== 'object') return false;
  return s.completeness === 'partial' || s.delivery_contract?.cacheable === false || reportsFailure(s);
}

/** True for a score whose own status is `unavailable` and which holds no value: its lookup failed outright. */
function scoreFailedOutright(score: unknown): boolean {
  const s = score as { status?: unknown; score?: unknown } | undefined;
  return !!s && typeof s === 'object' && s.status === 'unavailable' && (s.score === null || s.score === undefined);
}

/** True when any value in `v` (depth first) is the status `degraded` or `unavailable`. */
function reportsFailure(v: unknown): boolean {
  if (v === 'degraded' || v === 'unavailable') return true;
  if (v === null || typeof v !== 'object') return false;
  for (const x of Array.isArray(v) ? v : Object.values(v)) if (reportsFailure(x)) return true;
  return false;
}

/** The subject identity the bushfire screening reports (delivery_contract.subject_identity). */
function identityOf(s: ResolvedSubject) {
  return s.address ? { kind: 'address' as const, address: s.address.text, parcelId: s.parcel ? String(s.parcel.properties.pfi ?? '') || null : null, onParcel: !!s.parcel } : { kind: 'coordinate' as const };
}

async function scoresPart(deps: PropertyDeps, subject: ResolvedSubject, keys: ScoreKey[], o: ResolvedOptions, geometry: boolean): Promise<{ result: ScoresResult; at: Date }> {
  const identity = identityOf(subject);
  const key = ['scores', subject.state, subject.lon.toFixed(7), subject.lat.toFixed(7), keys.join('|'), geometry, JSON.stringify(identity), o.noise_method].join('/');
  const hit = deps.scoreCache.get<ScoresResult>(key, o.now);
  if (hit) return { result: hit.value, at: hit.storedAt };
  const result = await deps.scores(subject.lon, subject.lat, { state: subject.state, only: keys, includeGeometry: geometry, identity, noiseMethod: o.noise_method, signal: o.signal, now: o.now });
  // Degraded results (a failed score, or a score reporting a degraded check or a failed lookup) are never pinned.
  if (result.degraded.length === 0 && !Object.values(result.scores).some(scoreIsPartial)) deps.scoreCache.set(key, result, SCORE_TTL_MS, o.now);
  return { result, at: o.now };
}

async function surfacesPart(deps: PropertyDeps, subject: ResolvedSubject, o: ResolvedOptions): Promise<{ result: SurfacesResult; at: Date }> {
  const interval = o.contour_interval_requested ? o.contour_interval_m : undefined;
  const key = ['surfaces', subject.state, subject.lon.toFixed(7), subject.lat.toFixed(7), o.surfaces.join('|'), o.noise_cells, interval ?? 'auto', o.noise_method].join('/');
  const hit = deps.scoreCache.get<SurfacesResult>(key, o.now);
  if (hit) return { result: hit.value, at: hit.storedAt };
  const result = await deps.surfaces(subject.lon, subject.lat, { state: subject.state, layers: o.surfaces, noiseCells: o.noise_cells, contourIntervalM: interval, noiseMethod: o.noise_method, signal: o.signal });
  const failed = Object.values(result.unavailable).some((u) => u && (u.reason === 'lookup_failed' || u.reason === 'timeout'));
  if (!failed) deps.scoreCache.set(key, result, SCORE_TTL_MS, o.now);
  return { result, at: o.now };
}

/** The lookup (see module comment). */
/** What a lookup would be billed as: its billing identity, the resolved address (for messages), and whether it is a sandbox address. */
export interface BillingIdentity {
  addressKey: string;
  label: string | null;
  sandbox: boolean;
  /** The resolved point (a batch orders its lookups by it). */
  lon: number;
  lat: number;
}

/**
 * The billing identity of a lookup of `rawSubject` without running it: only the subject is resolved (an
 * address search, or the parcel and nearest address of a point). Throws as the lookup would for a subject
 * that is invalid, unresolvable or outside coverage. The server decides a 429 with it before computing.
 */
export async function propertyIdentity(deps: PropertyDeps, rawSubject: PropertySubject): Promise<BillingIdentity> {
  const subject = resolveSubject(deps.windows?.at ?? deps.store, deps.addresses, validateSubject(rawSubject), resolveOptions({}));
  const sandbox = subject.address ? (await deps.sandboxIds()).has(subject.address.id) : false;
  return { addressKey: subject.addressKey, label: subject.address?.text ?? null, sandbox, lon: subject.lon, lat: subject.lat };
}

/** The store a lookup of `s` reads: the dataset, its point's window, or a window around a large parcel or radius. */
function storeFor(deps: PropertyDeps, s: Subject, o: ResolvedOptions): DataStore {
  const w = deps.windows;
  if (!w) return deps.store;
  const r = parcelRadius(s);
  return r <= w.coveringM && o.nearby_zone_radius_m <= w.zonesNearbyM ? w.at(s.lon, s.lat) : w.around(s.lon, s.lat, r + o.nearby_zone_radius_m);
}

export async function propertyLookup(deps: PropertyDeps, rawSubject: PropertySubject, options: PropertyOptions = {}): Promise<PropertyResult> {
  const subject0 = validateSubject(rawSubject);
  const o = resolveOptions(options);
  const sel = selectComponents(o.components, o.licence, o.variant);
  const catalogue = deps.store.catalogue;
  const subject = resolveSubject(deps.windows?.at ?? deps.store, deps.addresses, subject0, o);
  const log = new LookupLog();
  const where: Subject = { lon: subject.lon, lat: subject.lat, state: subject.state, parcel: subject.parcel?.geometry ?? null };
  const ctx = blockContext(storeFor(deps, where, o), where, o, log);
  if (subject.parcel && ctx.geometry && subject.parcel.source.geometry_redistribution) log.geometryFrom('cadastre', subject.parcel.source.id);
  const nowIso = o.now.toISOString();

  // Scores and surfaces run on the pool while the layer lookups run here.
  const scoreKeys: ScoreKey[] = o.variant === 'full' && sel.has('scores') ? ((deps.scoreKeys ?? SCORE_KEYS) as ScoreKey[]).filter((k) => isSelected(sel, 'scores', k)) : [];
  const scoresP = scoreKeys.length ? scoresPart(deps, subject, scoreKeys, o, ctx.geometry) : null;
  const wantSurfaces = o.variant === 'full' && o.include_surfaces && o.licence.geometry;
  const surfacesP = wantSurfaces ? surfacesPart(deps, subject, o) : null;
  // A rejected promise that is awaited later must not count as unhandled meanwhile.
  scoresP?.catch(() => undefined);
  surfacesP?.catch(() => undefined);

  let das: Record<string, unknown> | undefined;
  if (sel.has('das')) das = dasBlock(ctx, deps.das, (k) => isSelected(sel, 'das', k));
  const layers = layerBlocks(deps, ctx, sel, subject, o);

  let scores: Record<string, unknown> | undefined;
  let scoresAt: Date | undefined;
  let scoresResult: ScoresResult | undefined;
  if (scoresP) {
    try {
      const { result, at } = await scoresP;
      scoresResult = result;
      scoresAt = at;
      scores = {};
      for (const k of scoreKeys) {
        if (k in result.scores) {
          scores[k] = result.scores[k];
          if (scoreFailedOutright(result.scores[k])) {
            // The score's own lookup failed and it holds no value (status unavailable): nothing was returned,
            // so coverage is `unavailable` (retry), never data_returned.
            log.fail(`scores.${k}`);
            continue;
          }
          // One entry per score: a computed score is data returned, whatever sources it drew on.
          log.record(`scores.${k}`, [[...sourceIdsIn(result.scores[k], new Set(catalogue.sources.map((s) => s.id))).keys()][0] ?? 'model']);
          // A score delivered with a failed input (e.g. HAND on a worker that timed out) is a degraded lookup:
          // data_returned with lookup_complete false, and the component is listed in degraded_components.
          if (scoreIsPartial(result.scores[k])) log.fail(`scores.${k}`);
        } else log.fail(`scores.${k}`);
      }
    } catch (err) {
      if (o.signal?.aborted) throw err;
      for (const k of scoreKeys) log.fail(`scores.${k}`);
    }
  }
  let surfaces: Record<string, unknown> | undefined;
  let surfacesMeta: Record<string, unknown> | undefined;
  if (o.variant === 'full' && o.include_surfaces) {
    const unavailable: Record<string, unknown> = {};
    let delivered: SurfaceLayer[] = [];
    surfaces = {};
    if (!surfacesP) {
      for (const l of o.surfaces) unavailable[l] = { reason: 'not_licensed', note: 'Surfaces need the geometry licence.' };
    } else {
      try {
        const { result } = await surfacesP;
        for (const l of o.surfaces) {
          if (result.surfaces[l] && !(l === 'contours' && result.unavailable.contours)) {
            surfaces[l] = result.surfaces[l];
            delivered.push(l);
          } else if (l === 'contours' && result.surfaces.contours) {
            surfaces.contours = result.surfaces.contours;
          }
          if (result.unavailable[l]) unavailable[l] = result.unavailable[l];
        }
      } catch (err) {
        if (o.signal?.aborted) throw err;
        delivered = [];
        for (const l of o.surfaces) unavailable[l] = { reason: 'lookup_failed', note: `The ${l} surface could not be computed.` };
      }
    }
    const contourSource = (surfaces.contours as { source?: string } | undefined)?.source;
    surfacesMeta = {
      attribution: {
        ...(o.surfaces.includes('noise') ? { noise: pathCredits(catalogue, 'surfaces.noise', subject.state) } : {}),
        ...(o.surfaces.includes('heat') ? { heat: pathCredits(catalogue, 'surfaces.heat', subject.state) } : {}),
        ...(o.surfaces.includes('contours') ? { contours: contourSource ? creditsOf(catalogue, [contourSource]) : [] } : {}),
      },
      delivered_layers: delivered,
      unavailable,
    };
  }

  // What the response used: the lookup log's sources and every source id present in the payload.
  const blocksOut = layers.blocks;
  const ids = new Set(catalogue.sources.map((s) => s.id));
  const used = sourceIdsIn({ resolved: subject.resolved, development_applications: das, ...blocksOut, scores, surfaces }, ids);
  for (const [id, paths] of log.usedSources()) for (const p of paths) used.set(id, (used.get(id) ?? new Set()).add(p));
  if (subject.address) used.set(subject.address.source, (used.get(subject.address.source) ?? new Set()).add('resolved.address'));

  const degraded = [...log.degraded].sort();
  const componentsStatus = componentsStatusOf(sel, log, o, !!scoresP);
  const geometryCredits: Record<string, string> = {};
  for (const [k, s] of [...log.geometry].sort(([a], [b]) => a.localeCompare(b))) geometryCredits[k] = creditsOf(catalogue, s).join(' ');

  const meta: Record<string, unknown> = {
    coverage_status: coverageStatusOf(catalogue, log, subject.state),
    coverage_notes: coverageNotesOf(catalogue, [...(das ? ['development_applications'] : []), ...Object.keys(blocksOut)], subject.state),
    components_status: componentsStatus,
    common_core: { version: COMMON_CORE_VERSION, planning_fields: [...PLANNING_CORE_FIELDS], school_catchment_fields: [...SCHOOL_CATCHMENT_FIELDS] },
    licensed_components: o.licence.components.filter((b) => o.variant === 'full' || CORE_BLOCKS.includes(b)),
  };
  if (o.variant === 'core') {
    meta.product_contract = {
      name: 'core',
      included_components: CORE_BLOCKS.filter((b) => sel.has(b)),
      schema_version: COMMON_CORE_VERSION,
      geometry_policy: 'Geometry only with include_geometry=1 on geometry-licensed keys, clipped to about 1.5 km and simplified to about 1 m; never scores, surfaces or unknown future blocks.',
    };
  }
  meta.attribution = attributionOf(catalogue, used);
  meta.geometry = geometryCredits;
  if (scores?.noise) meta.noise_sources = creditsOf(catalogue, (scores.noise as { source_ids?: string[] }).source_ids ?? []);
  if (scores?.walkability) {
    const w = scores.walkability as { sources?: string[]; osm_amenity_categories?: string[] };
    meta.amenity_sources = { sources: creditsOf(catalogue, w.sources ?? []), openstreetmap_categories: w.osm_amenity_categories ?? [] };
  }
  if (surfacesMeta) meta.surfaces = surfacesMeta;
  meta.zones = { nearby_search_radius_m: o.include_nearby_zones ? o.nearby_zone_radius_m : null };
  meta.as_at = {
    layer_features: layers.at.toISOString(),
    proximity_features: layers.at.toISOString(),
    ...(scoresAt ? { scores: scoresAt.toISOString() } : {}),
    ...(scores?.noise ? { 'scores.noise.sources': (scores.noise as { as_at?: string }).as_at ?? nowIso } : {}),
  };
  meta.source_currency = sourceCurrencyOf(catalogue, used.keys(), safeLatest(deps));
  meta.api = { ...API_VERSIONS };

  const payload: Record<string, unknown> = { query: subject.query, resolved: subject.resolved };
  if (das) payload.development_applications = das;
  for (const b of LAYER_BLOCKS) if (blocksOut[b]) payload[b] = blocksOut[b];
  if (scores) payload.scores = scores;
  if (surfaces) payload.surfaces = surfaces;
  const coreFailed = degraded.filter((d) => !d.startsWith('scores.'));
  if (coreFailed.length) meta.not_charged_reason = `core components failed: ${coreFailed.join(', ')}`;
  payload.meta = meta;
  payload.completeness = degraded.length ? 'partial' : 'full';
  if (degraded.length) payload.degraded_components = degraded;
  void scoresResult;

  const sandbox = subject.address ? (await deps.sandboxIds()).has(subject.address.id) : false;
  return {
    payload: withPrecision(payload),
    addressKey: subject.addressKey,
    state: subject.state,
    sandbox,
    chargeable: coreFailed.length === 0,
    ...(coreFailed.length ? { notChargedReason: meta.not_charged_reason as string } : {}),
  };
}

function safeLatest(deps: PropertyDeps): string | null {
  try {
    return deps.das().latestFetchedAt();
  } catch {
    return null;
  }
}

/** meta.components_status: execution health per internal lookup (`ok` when run; never checked coverage). */
function componentsStatusOf(sel: Selection, log: LookupLog, o: ResolvedOptions, scoresRan: boolean): Record<string, string> {
  const failedUnder = (prefixes: string[]) => [...log.paths].some(([p, v]) => v.failed && prefixes.some((x) => p.startsWith(x)));
  const status = (ran: boolean, prefixes: string[]) => (!ran ? 'not_run' : failedUnder(prefixes) ? 'failed' : 'ok');
  const layerBlocks = ['planning.zone', 'planning.overlay', 'planning.heritage', 'planning.easement', 'planning.growth_area', 'hazards.', 'environment.', 'poi.school_catchments', 'administrative.', 'public_housing.', 'other_layers.'];
  return {
    das: status(sel.has('das'), ['development_applications']),
    layers: status(['planning', 'hazards', 'environment', 'administrative', 'public_housing', 'poi'].some((b) => sel.has(b as PropertyBlock)), layerBlocks),
    nearest_address: 'ok',
    proximity: status(sel.has('transport') || sel.has('utilities'), ['transport.', 'utilities.']),
    schools: status(isSelected(sel, 'poi', 'schools_500m'), ['poi.schools_500m']),
    scores: status(scoresRan, ['scores.']),
    zones_around: status(o.include_nearby_zones && isSelected(sel, 'planning', 'zones_nearby'), ['planning.zones_nearby']),
  };
}
