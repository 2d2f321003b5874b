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
