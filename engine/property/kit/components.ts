/**
 * What a lookup delivers: the blocks (and dotted selectors within them) the caller asked for, intersected with
 * the key's licence. A selector narrows, never expands: `components=scores.noise` on a key without `scores`
 * delivers nothing of scores (spec 4).
 */
import { invalidArgument } from '../../errors.js';
import { SCORE_KEYS } from '../../scores/registry.js';
import { CORE_BLOCKS, PROPERTY_BLOCKS, type PropertyBlock, type PropertyLicence } from './contract.js';

/** Sub-selectors each block accepts after a dot. */
export const BLOCK_SELECTORS: Record<PropertyBlock, readonly string[]> = {
  das: ['on_parcel', 'nearby_300m'],
  poi: ['schools_500m', 'school_catchments', 'childcare_500m'],
  planning: ['zone', 'overlay', 'heritage', 'easement', 'growth_area', 'zones_nearby'],
  hazards: ['flood', 'bushfire', 'contamination'],
  environment: ['protected_areas', 'epbc_mnes', 'aboriginal_heritage', 'soils', 'bioregions', 'contaminated_nearby', 'historical_business_nearby', 'soil_regional', 'threatened_species', 'landfill', 'landfill_nearby', 'groundwater_restricted', 'groundwater_vulnerability', 'licensed_activity', 'licensed_activity_nearby'],
  transport: ['rail_station', 'rail_line', 'pt_stop', 'airport'],
  utilities: ['power', 'gas', 'oil', 'water_main', 'sewer_main'],
  administrative: ['lga', 'electorate'],
  public_housing: ['sa2', 'sa1'],
  scores: SCORE_KEYS,
};

/** The selection: per block, null for the whole block or the set of selected items. */
export type Selection = Map<PropertyBlock, Set<string> | null>;

/** The most items `components` may list (every block and selector is about 60). */
export const MAX_COMPONENT_ITEMS = 100;

const shown = (t: string) => JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}...` : t);

/**
 * Checks every name in `components` whatever the licence (an unknown name is a bad request, never a licence
 * refusal); messages name the first bad item only, cut to 60 characters.
 */
export function validateComponents(requested: readonly string[]): void {
  if (requested.length > MAX_COMPONENT_ITEMS) throw invalidArgument('components', `components lists ${requested.length} items; at most ${MAX_COMPONENT_ITEMS}`);
  for (const raw of requested) {
    const item = raw.trim();
    if (!item) continue;
    const [block, sub, ...rest] = item.split('.');
    if (!Object.prototype.hasOwnProperty.call(BLOCK_SELECTORS, block) || !(PROPERTY_BLOCKS as readonly string[]).includes(block) || rest.length) {
      throw invalidArgument('components', `unknown component ${shown(item)}; blocks are ${PROPERTY_BLOCKS.join(', ')}, with dotted selectors such as scores.noise or hazards.flood`);
    }
    const b = block as PropertyBlock;
    if (sub !== undefined && !BLOCK_SELECTORS[b].includes(sub)) {
      throw invalidArgument('components', `unknown selector ${shown(item)}; ${b} takes ${BLOCK_SELECTORS[b].map((s) => `${b}.${s}`).join(', ')}`);
    }
  }
}

/** Parses `components` and intersects it with the licence (and the core contract for /core). */
export function selectComponents(requested: string[] | null, licence: PropertyLicence, variant: 'full' | 'core'): Selection {
  const allowed = new Set<PropertyBlock>(licence.components.filter((b) => variant === 'full' || CORE_BLOCKS.includes(b)));
  const sel: Selection = new Map();
  if (!requested || requested.length === 0) {
    for (const b of PROPERTY_BLOCKS) if (allowed.has(b)) sel.set(b, null);
    return sel;
  }
  validateComponents(requested);
  for (const raw of requested) {
    const item = raw.trim();
    if (!item) continue;
    const [block, sub] = item.split('.');
    const b = block as PropertyBlock;
    if (!allowed.has(b)) continue; // narrowed away by the licence: never expands it
    if (sub === undefined) sel.set(b, null);
    else if (sel.get(b) !== null) {
      const set = sel.get(b) ?? new Set<string>();
      set.add(sub);
      sel.set(b, set);
    }
  }
  return sel;
}

/** True when `block` (and `item` within it, when given) is selected. */
export function isSelected(sel: Selection, block: PropertyBlock, item?: string): boolean {
  if (!sel.has(block)) return false;
  const s = sel.get(block);
  return s === null || item === undefined || s!.has(item);
}
