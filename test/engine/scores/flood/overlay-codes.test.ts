import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyFloodOverlay, normaliseOverlayCode } from '../../../../engine/scores/flood/overlay-codes.js';
import { realdata } from '../../../helpers/realdata.js';
import { needsRealdata } from '../../../helpers/skip.js';

describe('flood overlay classification', () => {
  it('tells Victorian flood controls from built-form and other overlays by code', () => {
    expect(classifyFloodOverlay({ ZONE_CODE: 'LSIO1' })).toMatchObject({ kind: 'flood_control', code: 'LSIO' });
    expect(classifyFloodOverlay({ ZONE_CODE: 'SBO2' })).toMatchObject({ kind: 'overland_flow', code: 'SBO' });
    expect(classifyFloodOverlay({ ZONE_CODE: 'FO' })).toMatchObject({ kind: 'floodway', code: 'FO' });
    expect(classifyFloodOverlay({ ZONE_CODE: 'RFO' })).toMatchObject({ kind: 'floodway', code: 'RFO' });
    // BFO4 ends in "FO4" but is the Built Form Overlay, not a floodway.
    expect(classifyFloodOverlay({ ZONE_CODE: 'BFO4', ZONE_DESCR: 'BUILT FORM OVERLAY - SCHEDULE 4' })).toMatchObject({ kind: 'not_flood', code: 'BFO' });
    expect(classifyFloodOverlay({ ZONE_CODE: 'HO12' }).kind).toBe('not_flood');
    expect(classifyFloodOverlay({ ZONE_CODE: 'DDO6' }).kind).toBe('not_flood');
  });

  it('reads NSW, QLD and SA publishers\' own fields', () => {
    expect(classifyFloodOverlay({ LAY_CLASS: 'Flood Planning Area' }).kind).toBe('flood_control');
    expect(classifyFloodOverlay({ OVL2_DESC: 'Flood hazard' }).kind).toBe('flood_control');
    expect(classifyFloodOverlay({ OVL2_DESC: 'Overland flow' }).kind).toBe('overland_flow');
    expect(classifyFloodOverlay({ code: 'FLOOD_EVIDENCE' })).toMatchObject({ kind: 'flood_evidence', code: 'FLOOD_EVIDENCE' });
    expect(classifyFloodOverlay({ name: 'Hazards (Flooding - Evidence Required)' }).kind).toBe('flood_evidence');
    // An opaque code whose description says flood is a flood control; a built-form description never is.
    expect(classifyFloodOverlay({ OVL_CODE: 'OM-08', OVL2_DESC: 'Flood hazard' })).toMatchObject({ kind: 'flood_control', code: 'OM-08' });
    expect(classifyFloodOverlay({ name: 'Built form (flood-resilient design)' }).kind).toBe('not_flood');
    expect(classifyFloodOverlay({ LAY_CLASS: 'Heritage' }).kind).toBe('not_flood');
    expect(classifyFloodOverlay(null).kind).toBe('not_flood');
  });

  it('drops schedule numbers from codes', () => {
    expect(normaliseOverlayCode('lsio1')).toBe('LSIO');
    expect(normaliseOverlayCode('SBO 2')).toBe('SBO');
    expect(normaliseOverlayCode('DDO(12)')).toBe('DDO');
    expect(normaliseOverlayCode('FLOOD_EVIDENCE')).toBe('FLOOD_EVIDENCE');
  });

  const bendigo = realdata('zones/bendigo_vicplan_overlays_2024.geojson');
  it('classifies the real Greater Bendigo overlay layer: SBO and FO flood, nothing else', (ctx) => {
    needsRealdata(ctx, bendigo, 'zones/bendigo_vicplan_overlays_2024.geojson');
    const doc = JSON.parse(readFileSync(bendigo!, 'utf8')) as { features: { properties: Record<string, unknown> }[] };
    const kinds = new Map<string, number>();
    for (const f of doc.features) {
      const c = classifyFloodOverlay(f.properties);
      const base = normaliseOverlayCode(String(f.properties.ZONE_CODE));
      if (c.kind !== 'not_flood') expect(['SBO', 'FO']).toContain(base);
      kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
    }
    // PROVENANCE.md: SBO 59, FO 10 (five of them from the layer named RFO).
    expect(kinds.get('overland_flow')).toBe(59);
    expect(kinds.get('floodway')).toBe(10);
    expect(kinds.get('not_flood')).toBe(doc.features.length - 69);
  });
});
