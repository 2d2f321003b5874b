/**
 * `meta` (spec 2.8), generated from the catalogue and from what this response used (the lookup log and the
 * source ids present in the payload): coverage status per data path, coverage notes, attribution, geometry
 * credits, noise and amenity credits, source currency. Nothing here is written by hand per response.
 */
import type { Catalogue, CatalogueSource } from '../catalogue/catalogue.js';
import { coverageStatus, heldExtent, sourcesFor, type CoverageEntry } from '../catalogue/coverage.js';
import type { PayloadPath } from '../catalogue/payload-paths.js';
import type { StateCode } from '../catalogue/states.js';
import type { LookupLog } from './kit/lookup-log.js';

/** The common-core contract version (spec 9). */
export const COMMON_CORE_VERSION = '1.0';
/** meta.api (spec 9). */
export const API_VERSIONS = { major_version: 'v1', score_model_version: 'v1' } as const;

/** meta.coverage_status: one entry per data path the response looked up. */
export function coverageStatusOf(catalogue: Catalogue, log: LookupLog, state: StateCode | null): Record<string, CoverageEntry> {
  const out: Record<string, CoverageEntry> = {};
  for (const [path, o] of [...log.paths].sort(([a], [b]) => a.localeCompare(b))) {
    const extent = path.startsWith('scores.') ? (o.failed ? 'none' : 'complete') : heldExtent(catalogue, path as PayloadPath, state);
    out[path] = coverageStatus(extent, { count: o.count, failed: o.failed }, { emptyIsNotAssessed: o.emptyIsNotAssessed });
  }
  return out;
}

const BLOCK_OF = (path: string) => path.split('.')[0];

const notesCache = new WeakMap<Catalogue, Map<string, string | null>>();

/** meta.coverage_notes: per block, which custodians hold it for the state, how completely, and caveats. */
export function coverageNotesOf(catalogue: Catalogue, blocks: readonly string[], state: StateCode | null): Record<string, string> {
  // A note depends on the catalogue, the block and the state only: made once per catalogue.
  let cache = notesCache.get(catalogue);
  if (!cache) notesCache.set(catalogue, (cache = new Map()));
  const out: Record<string, string> = {};
  for (const block of blocks) {
    const key = `${block}|${state ?? ''}`;
    let note = cache.get(key);
    if (note === undefined) cache.set(key, (note = coverageNote(catalogue, block, state)));
    if (note !== null) out[block] = note;
  }
  return out;
}

/** The coverage note of one block for one state (null when no source feeds the block). */
function coverageNote(catalogue: Catalogue, block: string, state: StateCode | null): string | null {
  const sources = catalogue.sources.filter((s) => s.paths.some((p) => BLOCK_OF(p) === block || (block === 'development_applications' && p === 'development_applications')));
  if (!sources.length) return null;
  const here = state ? sources.filter((s) => state in s.coverage) : [];
  const parts: string[] = [];
  if (!state) parts.push('The state could not be determined for this location, so state-held layers were not assessed.');
  else if (!here.length) parts.push(`No source is held for ${state}.`);
  for (const s of here) {
    const extent = s.coverage[state!];
    parts.push(`${s.title} (${s.custodian}): ${extent === 'complete' ? 'complete' : 'partial'} coverage for ${state}${extent === 'partial' ? ', so a miss proves nothing' : ''}.${s.notes ? ` ${s.notes}` : ''}`);
  }
  return parts.join(' ');
}

/** Every string in `value` that is a catalogue source id, with the top-level path (two levels) it sits under. */
export function sourceIdsIn(value: unknown, ids: ReadonlySet<string>, path = '', out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  collectSourceIds(value, ids, path, path === '' ? 0 : path.split('.').length, out);
  return out;
}

/** {@link sourceIdsIn} with the path's depth carried along (a payload is walked once per lookup: no splitting per key). */
function collectSourceIds(value: unknown, ids: ReadonlySet<string>, path: string, depth: number, out: Map<string, Set<string>>): void {
  if (typeof value === 'string') {
    if (ids.has(value)) {
      let set = out.get(value);
      if (!set) out.set(value, (set = new Set<string>()));
      set.add(path);
    }
  } else if (Array.isArray(value)) {
    // Coordinate and grid arrays hold numbers only: nothing to find there.
    if (value.length === 0 || typeof value[0] === 'number' || (Array.isArray(value[0]) && typeof value[0][0] === 'number')) return;
    for (const v of value) collectSourceIds(v, ids, path, depth, out);
  } else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k in o) {
      if (k === 'geometry' || k === 'coordinates' || k === 'values' || !Object.hasOwn(o, k)) continue;
      if (depth >= 2) collectSourceIds(o[k], ids, path, depth, out);
      else collectSourceIds(o[k], ids, path ? `${path}.${k}` : k, depth + 1, out);
    }
  }
}

/** meta.attribution: every source whose data is in the response, with its licence and obligation. */
export function attributionOf(catalogue: Catalogue, used: Map<string, Set<string>>): Record<string, unknown> {
  const sources = [...used.keys()].sort().map((id) => catalogue.sources.find((s) => s.id === id)).filter((s): s is CatalogueSource => !!s);
  const rows = sources.map((s) => ({
    source: s.id,
    paths: [...used.get(s.id)!].sort(),
    attribution: s.attribution,
    licence: s.licence,
    // A mixed-licence source delivers only its deliverable rows, which carry an attribution obligation.
    obligation_status: s.obligation_status === 'withheld' ? 'attribution_required' : s.obligation_status,
  }));
  return {
    sources: rows,
    source_inventory_complete: true,
    obligations_complete_in_response: true,
    sources_requiring_licence_schedule: rows.filter((r) => r.obligation_status === 'schedule_required').map((r) => r.source),
    rule: 'Every source whose data appears in this response is listed with its attribution text and licence. Show the attribution with the data; pass the licence schedule on for sources listed in sources_requiring_licence_schedule.',
  };
}

/** meta.source_currency: per source used, when it was last fetched, how, and when it is pulled again. */
export function sourceCurrencyOf(catalogue: Catalogue, used: Iterable<string>, daRecords: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const id of [...used].sort()) {
    const s = catalogue.sources.find((x) => x.id === id);
    if (s) out[id] = { last_fetched_at: s.currency.last_fetched_at, established: s.currency.established, repull: s.currency.repull };
  }
  out.da_records = { last_fetched_at: daRecords, established: 'latest last_fetched_at over the DA records held', repull: 'daily' };
  return out;
}

/** Credit strings (the attribution text) for a set of source ids. */
export function creditsOf(catalogue: Catalogue, ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort().map((id) => catalogue.sources.find((s) => s.id === id)?.attribution).filter((a): a is string => !!a);
}

/** Attribution text of the sources feeding a path in a state (surfaces credits). */
export function pathCredits(catalogue: Catalogue, path: PayloadPath, state: StateCode | null): string[] {
  return creditsOf(catalogue, sourcesFor(catalogue, path, state).map((s) => s.id));
}
