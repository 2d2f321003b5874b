/**
 * Which planning-overlay features are flood controls. Overlay sources mix flood controls with everything
 * else (a Victorian planning-overlay layer holds LSIO and SBO next to heritage, design and built-form
 * overlays), so each feature is classified from its publisher-native properties:
 *
 * - a code field (`ZONE_CODE`, `OVERLAY_CODE`, `code`, ...), normalised by dropping the schedule number
 *   (LSIO1 -> LSIO, BFO4 -> BFO), decides when the code is known: flood codes below, anything else is not
 *   a flood control (so the Built Form Overlay BFO4 is never read as a Floodway Overlay FO);
 * - otherwise a description field (`LAY_CLASS`, `OVL2_DESC`, `ZONE_DESCR`, `name`, ...) is matched for flood
 *   words ("Flood Planning Area", "Flood hazard", "Overland flow", "Floodway").
 *
 * The South Australian Planning and Design Code's "Hazards (Flooding - Evidence Required)" overlay
 * (`FLOOD_EVIDENCE`) is its own kind: it triggers a request for flood evidence with a development
 * application and says nothing about severity (spec 2.6), so it is never scored.
 */

/** Kinds of flood overlay, most severe first; `not_flood` for everything else. */
export type FloodOverlayKind = 'floodway' | 'flood_control' | 'overland_flow' | 'flood_evidence' | 'not_flood';

/** A feature's classification. */
export interface FloodOverlayClass {
  kind: FloodOverlayKind;
  /** The normalised code when the feature carries one (e.g. `LSIO`), else null. */
  code: string | null;
  /** A readable name of the control (e.g. "Land Subject to Inundation Overlay"), else null. */
  label: string | null;
}

/** Known flood-control codes (Victoria Planning Provisions clauses 37.03, 44.03-44.05, 44.07, and SA's code). */
export const FLOOD_CODES: Readonly<Record<string, { kind: FloodOverlayKind; label: string }>> = {
  FO: { kind: 'floodway', label: 'Floodway Overlay' }, // VPP 44.03
  RFO: { kind: 'floodway', label: 'Rural Floodway Overlay' }, // VPP 44.07
  UFZ: { kind: 'floodway', label: 'Urban Floodway Zone' }, // VPP 37.03
  LSIO: { kind: 'flood_control', label: 'Land Subject to Inundation Overlay' }, // VPP 44.04
  SBO: { kind: 'overland_flow', label: 'Special Building Overlay' }, // VPP 44.05: urban overland flow
  FLOOD_EVIDENCE: { kind: 'flood_evidence', label: 'Hazards (Flooding - Evidence Required) Overlay' }, // SA P&D Code
  FLOOD_GENERAL: { kind: 'flood_control', label: 'Hazards (Flooding - General) Overlay' }, // SA P&D Code
  FLOODING: { kind: 'flood_control', label: 'Hazards (Flooding) Overlay' }, // SA P&D Code
};

/** Property names holding an overlay code, in the order they are tried (matched case-insensitively). */
export const CODE_FIELDS = ['ZONE_CODE', 'OVERLAY_CODE', 'OVL_CODE', 'SCHEME_CODE', 'CODE'] as const;
/** Property names holding a description, in the order they are tried (matched case-insensitively). */
export const DESCRIPTION_FIELDS = ['LAY_CLASS', 'OVL2_DESC', 'OVL_DESC', 'OVL1_DESC', 'ZONE_DESCR', 'ZONE_DESC', 'OVERLAY_NAME', 'NAME', 'DESCRIPTION', 'LABEL'] as const;

function field(props: Record<string, unknown>, names: readonly string[]): string | null {
  const keys = Object.keys(props);
  for (const name of names) {
    const k = keys.find((key) => key.toUpperCase() === name);
    const v = k === undefined ? undefined : props[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return null;
}

/** The code without its schedule number: "LSIO1" -> "LSIO", "BFO4" -> "BFO", "SBO 2" -> "SBO". */
export function normaliseOverlayCode(code: string): string {
  const c = code.trim().toUpperCase();
  const m = /^([A-Z][A-Z_]*?)\s*\(?\d+\)?$/.exec(c);
  return m ? m[1] : c;
}

/** Classifies one overlay feature from its properties (see the file comment). */
export function classifyFloodOverlay(properties: Record<string, unknown> | null | undefined): FloodOverlayClass {
  const props = properties ?? {};
  const rawCode = field(props, CODE_FIELDS);
  if (rawCode !== null) {
    const code = normaliseOverlayCode(rawCode);
    const known = FLOOD_CODES[code];
    if (known) return { kind: known.kind, code, label: known.label };
    // A code the table does not list is a flood control only if its description says so (some
    // publishers use opaque codes such as "OM-08" with a "Flood hazard" description).
    const described = fromDescription(field(props, DESCRIPTION_FIELDS));
    if (described) return { ...described, code };
    return { kind: 'not_flood', code, label: null };
  }
  return fromDescription(field(props, DESCRIPTION_FIELDS)) ?? { kind: 'not_flood', code: null, label: null };
}

function fromDescription(text: string | null): FloodOverlayClass | null {
  if (!text) return null;
  if (/built\s*form/i.test(text)) return null;
  if (!/flood|inundation|overland\s*flow/i.test(text)) return null;
  if (/evidence/i.test(text)) return { kind: 'flood_evidence', code: null, label: text };
  if (/floodway/i.test(text)) return { kind: 'floodway', code: null, label: text };
  if (/overland\s*flow/i.test(text)) return { kind: 'overland_flow', code: null, label: text };
  return { kind: 'flood_control', code: null, label: text };
}

/** True for kinds that are flood controls or evidence triggers (everything but `not_flood`). */
export function isFloodOverlay(kind: FloodOverlayKind): boolean {
  return kind !== 'not_flood';
}
