/**
 * Fields of spec 2.1 that councils rarely publish, derived by fixed rules from the classified category and
 * the description: land use, building type and application type. Each is null where the rules cannot tell
 * (a tree removal has no building type; "Demolition of existing structures" has no land use), never guessed.
 */
import type { DaCategory } from './categories.js';

/** Land uses (spec 2.1: residential/commercial/industrial; mixed and community where the category says so). */
export const LAND_USES = ['residential', 'commercial', 'industrial', 'mixed', 'community'] as const;
/** One of {@link LAND_USES}. */
export type LandUse = (typeof LAND_USES)[number];

const LAND_USE_BY_CATEGORY: Partial<Record<DaCategory, LandUse>> = {
  new_dwelling: 'residential', dual_occupancy: 'residential', multi_unit_residential: 'residential', alterations_additions: 'residential',
  secondary_dwelling: 'residential', swimming_pool: 'residential', commercial: 'commercial', retail: 'commercial', tourism_hospitality: 'commercial',
  health_medical: 'commercial', childcare: 'commercial', signage: 'commercial', industrial: 'industrial', mixed_use: 'mixed', education: 'community',
  community_infrastructure: 'community',
};

/** The land use of an application: by category, else from the description's words, else null. */
export function landUse(category: DaCategory, description: string): LandUse | null {
  const byCategory = LAND_USE_BY_CATEGORY[category];
  if (byCategory) return byCategory;
  const d = description.toLowerCase();
  if (/warehouse|industr|factory|depot|workshop/.test(d)) return 'industrial';
  if (/\bshops?\b|office|retail|restaurant|cafe|gym|commercial|business/.test(d)) return 'commercial';
  if (/dwelling|residen|\bhouse\b|townhouse|apartment|\blots?\b|granny flat/.test(d)) return 'residential';
  return null;
}

/** The building type of an application (house, apartment, warehouse and similar), or null. */
export function buildingType(category: DaCategory, description: string): string | null {
  const d = description.toLowerCase();
  switch (category) {
    case 'new_dwelling':
    case 'alterations_additions':
      return /\bunit\b|apartment/.test(d) ? 'apartment' : /dwelling|house|residence/.test(d) || category === 'new_dwelling' ? 'house' : null;
    case 'dual_occupancy':
      return 'dual_occupancy';
    case 'multi_unit_residential':
      return /townhouse|terrace|multi[- ]dwelling/.test(d) ? 'townhouses' : 'apartment';
    case 'secondary_dwelling':
      return 'granny_flat';
    case 'mixed_use':
      return 'mixed_use_building';
    case 'commercial':
      return 'office';
    case 'retail':
      return /supermarket/.test(d) ? 'supermarket' : 'shop';
    case 'industrial':
      return /warehouse|storage|distribution/.test(d) ? 'warehouse' : 'factory';
    case 'childcare':
      return 'childcare_centre';
    case 'education':
      return 'school';
    case 'health_medical':
      return /hospital/.test(d) ? 'hospital' : 'medical_centre';
    case 'tourism_hospitality':
      return /hotel|motel|serviced apartments|short[- ]stay|tourist/.test(d) ? 'accommodation' : 'restaurant';
    case 'community_infrastructure':
      return 'community_building';
    case 'swimming_pool':
      return 'pool';
    case 'signage':
      return 'sign';
    default:
      return null;
  }
}

/** Application types, by the rules of {@link applicationType}. */
export const APPLICATION_TYPES = ['development_application', 'complying_development', 'construction_certificate', 'modification', 'subdivision_certificate', 'review'] as const;
/** One of {@link APPLICATION_TYPES}. */
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

/**
 * The kind of application, from the council reference prefix and the description: NSW complying development
 * (CDC), construction (CC) and subdivision (SC/SWC) certificates; modifications (s4.55, formerly s96, or
 * "amendment to permit"); reviews of a determination (s8.2); else a development application (a VIC, TAS or
 * WA planning permit application, a QLD or SA development application, an NT permit application).
 */
export function applicationType(reference: string, description: string): ApplicationType {
  const ref = reference.trim().toUpperCase();
  const d = description.toLowerCase();
  if (/^CDC\b|^CDC[-/\d]/.test(ref) || /complying development/.test(d)) return 'complying_development';
  if (/^(MOD|DA\.?MOD)[-/\d]|^S4\.?55|^S96/.test(ref) || /modification|s ?4\.55|section 96|\bs ?96\b|amendment to (the )?(planning )?permit|secondary consent/.test(d)) return 'modification';
  if (/^REV[-/\d]|^S8\.?2/.test(ref) || /review of (the )?determination|s ?8\.2 review/.test(d)) return 'review';
  if (/^CC[-/\d]|^PCC[-/\d]/.test(ref) || /^construction certificate/.test(d)) return 'construction_certificate';
  if (/^(SC|SWC)[-/\d]/.test(ref) || /subdivision (works )?certificate/.test(d)) return 'subdivision_certificate';
  return 'development_application';
}
