/** The 21 DA categories (DESIGN.md), childcare pipeline stages and works types. */
export const DA_CATEGORIES = [
  'new_dwelling', 'dual_occupancy', 'multi_unit_residential', 'alterations_additions', 'secondary_dwelling', 'subdivision', 'demolition',
  'swimming_pool', 'tree_works', 'signage', 'change_of_use', 'commercial', 'retail', 'industrial', 'mixed_use', 'childcare', 'education',
  'health_medical', 'tourism_hospitality', 'community_infrastructure', 'other',
] as const;
/** One of {@link DA_CATEGORIES}. */
export type DaCategory = (typeof DA_CATEGORIES)[number];

/** Categories that make an application residential. */
export const RESIDENTIAL_CATEGORIES: ReadonlySet<DaCategory> = new Set(['new_dwelling', 'dual_occupancy', 'multi_unit_residential', 'alterations_additions', 'secondary_dwelling', 'swimming_pool', 'mixed_use']);

/** Childcare pipeline stages (DESIGN.md). */
export const CHILDCARE_STAGES = ['under_assessment', 'advertised', 'approved', 'refused', 'withdrawn', 'unknown'] as const;
export type ChildcareStage = (typeof CHILDCARE_STAGES)[number];

/** Childcare works types (DESIGN.md). */
export const CHILDCARE_WORKS_TYPES = ['new_centre', 'extension', 'change_of_use', 'alterations', 'other'] as const;
export type ChildcareWorksType = (typeof CHILDCARE_WORKS_TYPES)[number];

/** Display names of the categories (the original service's filter accepts these as well as the slugs). */
export const CATEGORY_NAMES: Record<DaCategory, string> = {
  new_dwelling: 'New Dwelling',
  dual_occupancy: 'Dual Occupancy',
  multi_unit_residential: 'Multi-Unit Residential',
  alterations_additions: 'Renovation / Extension',
  secondary_dwelling: 'Granny Flat / Secondary Dwelling',
  subdivision: 'Subdivision',
  demolition: 'Demolition',
  swimming_pool: 'Swimming Pool / Spa',
  tree_works: 'Tree Works',
  signage: 'Signage',
  change_of_use: 'Change of Use',
  commercial: 'Commercial',
  retail: 'Retail',
  industrial: 'Industrial',
  mixed_use: 'Mixed Use',
  childcare: 'Childcare',
  education: 'Education',
  health_medical: 'Health / Medical',
  tourism_hospitality: 'Tourism / Hospitality',
  community_infrastructure: 'Community / Infrastructure',
  other: 'Other',
};

const fold = (s: string) => s.trim().toLowerCase().replace(/\s*\/\s*/g, '/').replace(/[\s_-]+/g, ' ');
const BY_TEXT = new Map<string, DaCategory>(DA_CATEGORIES.flatMap((c) => [[fold(c), c], [fold(CATEGORY_NAMES[c]), c]]));

/** The category a slug or display name names (case and spacing ignored), or null. */
export function categoryOf(text: string): DaCategory | null {
  return BY_TEXT.get(fold(text)) ?? null;
}
