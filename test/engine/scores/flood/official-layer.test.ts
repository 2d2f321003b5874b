import { describe, expect, it } from 'vitest';
import type { FloodOverlayHit } from '../../../../engine/scores/flood/flood-overlays.js';
import { officialLayer, type OverlaySourceInfo } from '../../../../engine/scores/flood/official-layer.js';

const VIC: OverlaySourceInfo = { source: 'vic_overlays', name: 'Victorian planning overlays', state: 'VIC', coverage: 'complete', verified: true, response_path: 'a planning permit may be required: contact the council' };
const QLD_PARTIAL: OverlaySourceInfo = { source: 'bcc_flood', state: 'QLD', coverage: 'partial', verified: true, response_path: 'request a flood search from the council' };
const NSW_UNVERIFIED: OverlaySourceInfo = { source: 'nsw_epi_flood', state: 'NSW', coverage: 'complete', verified: false, response_path: 'ask the council for a section 10.7 certificate' };
const SA: OverlaySourceInfo = { source: 'sa_code_overlays', state: 'SA', coverage: 'complete', verified: true, response_path: 'supply flood evidence with the development application' };

function hit(source: string, state: string, kind: FloodOverlayHit['kind'], verified: boolean, code: string | null, label: string | null, response_path: string): FloodOverlayHit {
  return { source, state, kind, code, label, verified, response_path, properties: {} };
}

describe('official_layer', () => {
  it('is hit when a verified overlay covers the address, and the note names it and its response path', () => {
    const r = officialLayer('VIC', [VIC], [hit('vic_overlays', 'VIC', 'flood_control', true, 'LSIO', 'Land Subject to Inundation Overlay', VIC.response_path)]);
    expect(r.official_layer).toBe('hit');
    expect(r.official_layer_note).toMatch(/Land Subject to Inundation Overlay \(LSIO\)/);
    expect(r.official_layer_note).toMatch(/planning permit may be required/);
    expect(r.overlay_basis).toEqual({ status: 'verified_statewide', sources: [{ source: 'vic_overlays', coverage: 'complete', verified: true, used_in_score: true }] });
  });

  it('is checked_no_hit when a verified statewide overlay misses', () => {
    const r = officialLayer('vic', [VIC, SA], []);
    expect(r.official_layer).toBe('checked_no_hit');
    expect(r.official_layer_note).toBeNull();
    expect(r.overlay_basis.sources.map((s) => s.source)).toEqual(['vic_overlays']);
  });

  it('is checked_partial_coverage when the state\'s mapping is partial or unverified, and a miss proves nothing', () => {
    const q = officialLayer('QLD', [VIC, QLD_PARTIAL], []);
    expect(q.official_layer).toBe('checked_partial_coverage');
    expect(q.overlay_basis.status).toBe('verified_partial');
    expect(q.official_layer_note).toMatch(/partial; the absence of a hit proves nothing/);
    const n = officialLayer('NSW', [NSW_UNVERIFIED], []);
    expect(n.official_layer).toBe('checked_partial_coverage');
    expect(n.overlay_basis.status).toBe('unverified_only');
    expect(n.overlay_basis.sources[0].used_in_score).toBe(false);
  });

  it('is none when no overlay source is published for the state', () => {
    const r = officialLayer('WA', [VIC, QLD_PARTIAL, SA], []);
    expect(r.official_layer).toBe('none');
    expect(r.overlay_basis).toEqual({ status: 'no_source', sources: [] });
    expect(r.official_layer_note).toMatch(/No flood overlay source is published for WA/);
  });

  it('names intersecting mapped evidence with response paths whenever it is not hit', () => {
    // An unverified overlay hit and a flood-study depth intersect; no verified overlay covers the address.
    const r = officialLayer(
      'NSW',
      [NSW_UNVERIFIED],
      [hit('nsw_epi_flood', 'NSW', 'flood_control', false, null, 'Flood Planning Area', NSW_UNVERIFIED.response_path)],
      [{ source: 'nsw_study_parramatta', name: 'Parramatta River flood study', finding: 'modelled 1 % AEP flood depth 0.40 m', response_path: 'ask the council for flood information' }],
    );
    expect(r.official_layer).toBe('checked_partial_coverage');
    expect(r.official_layer_note).toMatch(/Mapped flood evidence intersects the address/);
    expect(r.official_layer_note).toMatch(/Flood Planning Area, a flood control in nsw_epi_flood \(not verified\): ask the council for a section 10\.7 certificate/);
    expect(r.official_layer_note).toMatch(/Parramatta River flood study \(nsw_study_parramatta\): modelled 1 % AEP flood depth 0\.40 m; ask the council for flood information/);
    const statewide = officialLayer('VIC', [VIC], [], [{ source: 'study', name: 'A study', finding: 'flood hazard class H2' }]);
    expect(statewide.official_layer).toBe('checked_no_hit');
    expect(statewide.official_layer_note).toMatch(/A study \(study\): flood hazard class H2/);
  });

  it('reports the SA evidence-required control as a hit with a neutral note', () => {
    const r = officialLayer('SA', [SA], [hit('sa_code_overlays', 'SA', 'flood_evidence', true, 'FLOOD_EVIDENCE', 'Hazards (Flooding - Evidence Required) Overlay', SA.response_path)]);
    expect(r.official_layer).toBe('hit');
    expect(r.official_layer_note).toMatch(/neutral trigger, not a flood severity/);
    expect(r.official_layer_note).toMatch(/supply flood evidence/);
  });

  it('counts the SA evidence control as a hit even though it is not score-bearing (unverified), and a miss proves nothing', () => {
    // As in the sample world: PlanSA's statewide control is held but not verified as score-bearing flood mapping.
    const unverified: OverlaySourceInfo = { ...SA, verified: false };
    const evidence = hit('sa_code_overlays', 'SA', 'flood_evidence', false, 'FLOOD_EVIDENCE', 'Hazards (Flooding - Evidence Required) Overlay', SA.response_path);
    const r = officialLayer('SA', [unverified], [evidence]);
    expect(r.official_layer).toBe('hit');
    expect(r.overlay_basis.status).toBe('unverified_only');
    expect(r.overlay_basis.sources[0].used_in_score).toBe(false);
    expect(r.official_layer_note).toMatch(/neutral trigger, not a flood severity/);
    // An unverified flood control (not an evidence control) is still no hit.
    const control = { ...evidence, kind: 'flood_control' as const };
    expect(officialLayer('SA', [unverified], [control]).official_layer).toBe('checked_partial_coverage');
    // A statewide evidence control that is absent is not a statewide score-bearing overlay: not checked_no_hit.
    const miss = officialLayer('SA', [unverified], []);
    expect(miss.official_layer).toBe('checked_partial_coverage');
    expect(miss.official_layer_note).toMatch(/not verified as score-bearing flood mapping; the absence of a hit proves nothing/);
  });

  it('ends each sentence once when the catalogue\'s response paths are whole sentences (no "..")', () => {
    // Catalogue response paths end with a full stop; the note joins them into its own sentences.
    const vic = { ...VIC, response_path: 'Contact the council planning team.' };
    const nsw = { ...NSW_UNVERIFIED, response_path: 'Ask the council for a section 10.7 certificate. ' };
    const study = { source: 's', name: 'A study', finding: 'modelled 1 % AEP flood depth 0.40 m', response_path: 'Ask the council for flood information.' };
    const notes = [
      officialLayer('VIC', [vic], [hit(vic.source, 'VIC', 'flood_control', true, 'LSIO', 'Land Subject to Inundation Overlay', vic.response_path)], [study]).official_layer_note,
      officialLayer('NSW', [nsw], [hit(nsw.source, 'NSW', 'flood_control', false, null, 'Flood Planning Area', nsw.response_path)], [study]).official_layer_note,
    ];
    expect(notes[0]).toBe(
      'Mapped flood overlay covers the address: Land Subject to Inundation Overlay (LSIO), a flood control in Victorian planning overlays: Contact the council planning team. ' +
        'Other mapped flood evidence: A study (s): modelled 1 % AEP flood depth 0.40 m; Ask the council for flood information.',
    );
    expect(notes[1]).toMatch(/: Ask the council for a section 10\.7 certificate; A study \(s\): modelled 1 % AEP flood depth 0\.40 m; Ask the council for flood information\. Overlay mapping held for NSW is not verified/);
    for (const n of notes) expect(n).not.toContain('..');
  });

  it('never reports a failed overlay lookup as a clear miss', () => {
    const r = officialLayer('VIC', [VIC], [], [], { lookupFailed: true });
    expect(r.official_layer).toBe('checked_partial_coverage');
    expect(r.official_layer_note).toMatch(/lookup for VIC failed/);
  });
});
