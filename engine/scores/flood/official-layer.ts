/**
 * `official_layer`, `official_layer_note` and `overlay_basis` of scores.flood (spec 2.6 and 1: a mapped
 * layer is authoritative over the score).
 *
 * For the subject's state, from the overlay sources the catalogue lists for it:
 * - `hit`: a feature of a verified source covers the address, or an evidence-required control of any source
 *   held for the state does (spec 2.6: "an official overlay or evidence control covers the address"; the SA
 *   control is not score-bearing, so its source need not be verified, and the note calls it a neutral trigger);
 * - `checked_no_hit`: no hit, and a verified source with complete (statewide) coverage was checked;
 * - `checked_partial_coverage`: no hit, and the sources held cover the state only partly, are not verified or
 *   are not score-bearing (a statewide evidence control says nothing where it is absent), so a miss proves
 *   nothing;
 * - `none`: no overlay source is held for the state.
 * A failed overlay lookup is reported as `checked_partial_coverage` with a note (the closed enumeration has no
 * "unavailable", and a lookup that did not run must never read as `checked_no_hit`).
 * Whenever mapped flood evidence intersects the address but the value is not `hit` (an unverified overlay,
 * a flood-study raster with depth or a hazard class), the note names those layers and their response paths.
 */
import type { FloodOverlayHit, OverlayCoverage } from './flood-overlays.js';

/** The closed `official_layer` values (spec 2.6). */
export const OFFICIAL_LAYER_VALUES = ['hit', 'checked_no_hit', 'checked_partial_coverage', 'none'] as const;
/** One of {@link OFFICIAL_LAYER_VALUES}. */
export type OfficialLayer = (typeof OFFICIAL_LAYER_VALUES)[number];

/** What an overlay source is, without its features. */
export interface OverlaySourceInfo {
  source: string;
  name?: string;
  state: string;
  coverage: OverlayCoverage;
  verified: boolean;
  response_path: string;
}

/** Mapped flood evidence other than overlays that intersects the address (flood-study rasters). */
export interface OtherFloodEvidence {
  source: string;
  /** Readable name, e.g. "Brisbane City Council flood study (1 % AEP depth)". */
  name: string;
  response_path?: string | null;
  /** What was found, e.g. "modelled 1 % AEP depth 0.42 m". */
  finding: string;
}

/** Which overlays the flood score rests on. */
export interface OverlayBasis {
  /**
   * `verified_statewide`: a verified source covers the whole state; `verified_partial`: verified sources cover
   * part of it; `unverified_only`: only unverified sources are held (not used in the score); `no_source`.
   */
  status: 'verified_statewide' | 'verified_partial' | 'unverified_only' | 'no_source';
  /** The sources checked for the subject's state. */
  sources: { source: string; coverage: OverlayCoverage; verified: boolean; used_in_score: boolean }[];
}

/** The official-layer block of scores.flood. */
export interface OfficialLayerResult {
  official_layer: OfficialLayer;
  official_layer_note: string | null;
  overlay_basis: OverlayBasis;
}

const KIND_TEXT: Record<FloodOverlayHit['kind'], string> = {
  floodway: 'a floodway',
  flood_control: 'a flood control',
  overland_flow: 'an overland-flow control',
  flood_evidence: 'an evidence-required flood control',
};

/**
 * A catalogue text (a response path, a finding) as a clause to join into a sentence: without its closing
 * full stop, which the sentence adds once (catalogue response paths are whole sentences, and joining them
 * as they are gave "planning team..").
 */
export function asClause(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

function describeHit(h: FloodOverlayHit, names: Map<string, string>): string {
  const what = h.label ?? h.code ?? 'flood overlay';
  return `${what}${h.code && h.label ? ` (${h.code})` : ''}, ${KIND_TEXT[h.kind]} in ${names.get(h.source) ?? h.source}${h.verified ? '' : ' (not verified)'}: ${asClause(h.response_path)}`;
}

/** Decides `official_layer` for a subject in `state` (see the file comment). */
export function officialLayer(
  state: string,
  sources: readonly OverlaySourceInfo[],
  hits: readonly FloodOverlayHit[],
  other: readonly OtherFloodEvidence[] = [],
  options: { lookupFailed?: boolean } = {},
): OfficialLayerResult {
  const st = state.trim().toUpperCase();
  const inState = sources.filter((s) => s.state.trim().toUpperCase() === st && s.coverage !== 'none');
  const names = new Map(sources.map((s) => [s.source, s.name ?? s.source]));
  const verified = inState.filter((s) => s.verified);
  const verifiedIds = new Set(verified.map((s) => s.source));
  const inStateIds = new Set(inState.map((s) => s.source));
  const officialHits = hits.filter(
    (h) => (h.verified && verifiedIds.has(h.source)) || (h.kind === 'flood_evidence' && inStateIds.has(h.source)),
  );
  const otherHits = hits.filter((h) => !officialHits.includes(h));

  const status: OverlayBasis['status'] = verified.some((s) => s.coverage === 'complete')
    ? 'verified_statewide'
    : verified.length > 0
      ? 'verified_partial'
      : inState.length > 0
        ? 'unverified_only'
        : 'no_source';
  const overlay_basis: OverlayBasis = {
    status,
    // One row per source: a source split into many files (a state's layer in map sheets) is listed once.
    sources: [...new Map(inState.map((s) => [s.source, { source: s.source, coverage: s.coverage, verified: s.verified, used_in_score: s.verified }])).values()],
  };

  let value: OfficialLayer;
  // A failed overlay lookup checked nothing: never report it as a clear miss.
  if (options.lookupFailed) value = 'checked_partial_coverage';
  else if (officialHits.length > 0) value = 'hit';
  else if (status === 'verified_statewide') value = 'checked_no_hit';
  else if (inState.length > 0) value = 'checked_partial_coverage';
  else value = 'none';

  const notes: string[] = [];
  if (value === 'hit') {
    notes.push(`Mapped flood overlay covers the address: ${officialHits.map((h) => describeHit(h, names)).join('; ')}.`);
    if (officialHits.every((h) => h.kind === 'flood_evidence')) {
      notes.push('The evidence-required control asks for flood information with a development application; it is a neutral trigger, not a flood severity, and does not raise the score.');
    }
  }
  const evidence = [...otherHits.map((h) => describeHit(h, names)), ...other.map((o) => `${o.name} (${o.source}): ${asClause(o.finding)}${o.response_path ? `; ${asClause(o.response_path)}` : ''}`)];
  if (value !== 'hit' && evidence.length > 0) {
    notes.push(`Mapped flood evidence intersects the address although no verified overlay covers it: ${evidence.join('; ')}.`);
  } else if (value === 'hit' && evidence.length > 0) {
    notes.push(`Other mapped flood evidence: ${evidence.join('; ')}.`);
  }
  if (options.lookupFailed) {
    notes.push(`The flood overlay lookup for ${st} failed; retry before treating the absence of a hit as meaningful.`);
  } else if (value === 'checked_partial_coverage') {
    const why = verified.length > 0 ? 'partial' : 'not verified as score-bearing flood mapping';
    notes.push(`Overlay mapping held for ${st} is ${why}; the absence of a hit proves nothing.`);
  } else if (value === 'none') {
    notes.push(`No flood overlay source is published for ${st}.`);
  }
  return { official_layer: value, official_layer_note: notes.length ? notes.join(' ') : null, overlay_basis };
}
