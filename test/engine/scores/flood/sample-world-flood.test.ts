// scores.flood on every sandbox address of the sample world, through the engine's real lookups (catalogue,
// overlay polygons, study rasters, HAND): every closed official_layer value is reached, each address gets
// the value its data determines, and the notes read as sentences.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../../datasets/sample-world.js';
import { heldExtent } from '../../../../engine/catalogue/coverage.js';
import { openDataStore, type DataStore } from '../../../../engine/data/dataset-store.js';
import type { Engine } from '../../../../engine/runtime/engine.js';
import { studyLibraryOf } from '../../../../engine/property/inputs/domain-inputs.js';
import type { FloodScore } from '../../../../engine/scores/flood/flood-score.js';
import { OFFICIAL_LAYER_VALUES } from '../../../../engine/scores/flood/official-layer.js';
import { classifyFloodOverlay } from '../../../../engine/scores/flood/overlay-codes.js';
import { useSampleEngine, type SandboxAddress } from '../../../helpers/sample-engine.js';

let engine: Engine;
let store: DataStore;
let sandbox: SandboxAddress[];
const flood = new Map<string, FloodScore>();

const opened = useSampleEngine(1);
beforeAll(async () => {
  ({ engine, sandbox } = opened);
  store = await openDataStore(defaultDataDir());
  for (const s of sandbox) {
    const r = await engine.scores(s.lng, s.lat, { state: s.state, only: ['flood'] });
    flood.set(s.address, r.scores.flood as FloodScore);
  }
}, 120_000);

/** The flood overlay kinds of the held overlay features containing the address (from the data, not the engine's lookup). */
function overlayKindsAt(s: (typeof sandbox)[number]): { source: string; kind: string; verified: boolean }[] {
  return store.vectorsFor('hazards.flood', s.state).flatMap((l) =>
    l.polygons!.index
      .containing(s.lng, s.lat)
      .map((i) => ({ source: l.source.id, kind: classifyFloodOverlay(l.features[l.polygons!.featureOf[i]].properties).kind, verified: l.source.options?.flood_verified === true }))
      .filter((h) => h.kind !== 'not_flood'),
  );
}

// The value each sandbox address must get, and the fact of the sample world that decides it (checked below).
const EXPECTED: Record<string, { value: (typeof OFFICIAL_LAYER_VALUES)[number]; why: string }> = {
  '91 Cumberland Grove, Northcote VIC 3070': { value: 'hit', why: 'inside a verified LSIO' },
  '1/91 Harding Road, Northcote VIC 3070': { value: 'checked_no_hit', why: 'outside the verified statewide VIC overlays' },
  '182 Cambridge Avenue, Rosehill NSW 2142': { value: 'hit', why: 'inside the verified NSW Flood Planning Area' },
  '112 Marion Street, Rosehill NSW 2142': { value: 'checked_no_hit', why: 'outside the verified statewide NSW overlays' },
  '10 Mabel Street, Wooloowin QLD 4030': { value: 'hit', why: 'inside a verified (partial) Brisbane flood overlay' },
  '93 Pemberton Street, Wooloowin QLD 4030': { value: 'checked_partial_coverage', why: 'QLD overlays cover the state partly' },
  '121 Hay Street, Bayswater WA 6053': { value: 'none', why: 'no WA flood overlay source' },
  '92 Deane Avenue, Bayswater WA 6053': { value: 'none', why: 'no WA flood overlay source' },
  '2 Brown Street, Windsor Gardens SA 5087': { value: 'hit', why: 'inside the SA evidence-required control (unverified, neutral)' },
  '118 Pottery Street, New Town TAS 7008': { value: 'checked_partial_coverage', why: 'TAS overlays are held but not verified' },
  '90 Scrivener Parade, Lyneham ACT 2602': { value: 'checked_no_hit', why: 'outside the verified statewide ACT overlays' },
  '131 Marrara Street, Rapid Creek NT 0810': { value: 'none', why: 'no NT flood overlay source' },
};

describe('scores.flood official_layer on the sample world', () => {
  it('reaches every closed official_layer value across the sandbox addresses', () => {
    expect(sandbox.map((s) => s.address).sort()).toEqual(Object.keys(EXPECTED).sort());
    const reached = new Set([...flood.values()].map((f) => f.official_layer));
    expect([...reached].sort()).toEqual([...OFFICIAL_LAYER_VALUES].sort());
  });

  it('gives each address the value its overlay data determines', () => {
    for (const s of sandbox) {
      const f = flood.get(s.address)!;
      const want = EXPECTED[s.address];
      expect(f.official_layer, `${s.address}: ${want.why}`).toBe(want.value);
      // The data behind the expectation, read straight from the held layers and the catalogue.
      const kinds = overlayKindsAt(s);
      const extent = heldExtent(store.catalogue, 'hazards.flood', s.state);
      const sources = store.vectorsFor('hazards.flood', s.state);
      if (want.value === 'hit') {
        expect(kinds.some((k) => k.verified || k.kind === 'flood_evidence'), s.address).toBe(true);
      } else if (want.value === 'checked_no_hit') {
        expect(kinds, s.address).toEqual([]);
        expect(extent).toBe('complete');
        expect(sources.some((l) => l.source.options?.flood_verified === true && l.source.coverage[s.state] === 'complete')).toBe(true);
      } else if (want.value === 'checked_partial_coverage') {
        expect(kinds.filter((k) => k.verified), s.address).toEqual([]);
        expect(sources.length).toBeGreaterThan(0);
        expect(sources.some((l) => l.source.options?.flood_verified === true && l.source.coverage[s.state] === 'complete')).toBe(false);
      } else {
        expect(sources).toEqual([]);
        expect(f.overlay_basis).toEqual({ status: 'no_source', sources: [] });
      }
    }
  });

  it('treats the SA evidence control as a neutral hit: no overlay sub-score, no floor', () => {
    const sa = flood.get('2 Brown Street, Windsor Gardens SA 5087')!;
    expect(sa.components.official_overlay).toMatchObject({ value: 'evidence_required', level: 'unknown' });
    expect(sa.method.sub_scores.overlay).toBeUndefined();
    expect(sa.method.floor).toBeNull();
    expect(sa.official_layer_note).toMatch(/neutral trigger, not a flood severity/);
    // A verified hit floors the score at `high` (the mapped layer is authoritative, spec 1).
    for (const a of ['91 Cumberland Grove, Northcote VIC 3070', '182 Cambridge Avenue, Rosehill NSW 2142', '10 Mabel Street, Wooloowin QLD 4030']) {
      expect(flood.get(a)!.score, a).toBeGreaterThanOrEqual(60);
    }
  });

  it('writes notes with one full stop per sentence, and counts the study library from the catalogue', () => {
    const library = studyLibraryOf(store);
    const held = store.rastersFor('scores.flood.study_depth').filter((r) => r.file.layer === 'depth');
    expect(library.depthRasters).toBe(held.length);
    expect(library.states).toEqual([...new Set(held.map((r) => r.file.state))].sort());
    for (const [address, f] of flood) {
      if (f.official_layer_note !== null) {
        expect(f.official_layer_note, address).not.toContain('..');
        expect(f.official_layer_note, address).toMatch(/[^.]\.$/);
      }
      if (f.flood_depth === undefined && f.components.study_depth.value === null) {
        expect(f.components.study_depth.caveat, address).toMatch(new RegExp(`holds ${held.length} study depth rasters?, in ${library.states.join(' and ')};`));
      }
    }
  });
});
