/**
 * The eight amenity categories of the walkability screening, how OSM-style tags map onto them, and their
 * rank weights.
 *
 * Weights follow the structure of Walk Score's published methodology (Front Seat, "Walk Score
 * Methodology", white paper last updated 27 Dec 2010): each category counts its nearest few amenities with
 * falling weights by rank (there: grocery 3; coffee 1.25, 0.75; restaurants 0.75, 0.45, 0.25, ...; parks,
 * schools, books, banks 1 each). Our eight categories differ from Walk Score's nine, so the weights below are
 * an adaptation, stated per category:
 * - `grocery`: [3], Walk Score's grocery weight (convenience stores excluded, as Walk Score filters them).
 * - `cafe_restaurant`: Walk Score's coffee (1.25, 0.75) and first restaurant ranks merged: [1.25, 0.75, 0.45, 0.25, 0.25].
 * - `pharmacy`, `health`: [1] each; not Walk Score categories, weighted like its single-amenity errands (banks).
 * - `park`, `school`: [1] each, as Walk Score.
 * - `library_community`: [1], Walk Score's books weight extended to community centres.
 * - `public_transport`: [1, 0.5]; Walk Score leaves transit to a separate Transit Score, we fold it in with a
 *   second stop valued for frequency of choice. Our choice.
 */

/** The eight categories, in the order scenarios and category scores are reported. */
export const WALK_CATEGORIES = ['grocery', 'cafe_restaurant', 'pharmacy', 'health', 'park', 'library_community', 'school', 'public_transport'] as const;
/** One of {@link WALK_CATEGORIES}. */
export type WalkCategory = (typeof WALK_CATEGORIES)[number];

/** Category code stored per indexed point: the position in {@link WALK_CATEGORIES}. */
export const CATEGORY_CODE: Readonly<Record<WalkCategory, number>> = Object.fromEntries(WALK_CATEGORIES.map((c, i) => [c, i])) as Record<WalkCategory, number>;

/** Code of a point that belongs to no category (it is indexed but never counted). */
export const NO_CATEGORY = 255;

/** Weight of the r-th nearest amenity of each category (rank 0 first); see the file comment for the basis. */
export const RANK_WEIGHTS: Readonly<Record<WalkCategory, readonly number[]>> = {
  grocery: [3],
  cafe_restaurant: [1.25, 0.75, 0.45, 0.25, 0.25],
  pharmacy: [1],
  health: [1],
  park: [1],
  library_community: [1],
  school: [1],
  public_transport: [1, 0.5],
};

/** Sum of a category's rank weights (its maximum points). */
export function categoryWeight(c: WalkCategory): number {
  return RANK_WEIGHTS[c].reduce((a, b) => a + b, 0);
}

/** Sum of every category's weight: the points of a perfect score (12.45). */
export const TOTAL_WEIGHT = WALK_CATEGORIES.reduce((s, c) => s + categoryWeight(c), 0);

/** OSM-style tags of an amenity row (empty string or undefined when absent). */
export interface AmenityTags {
  amenity?: string;
  shop?: string;
  leisure?: string;
  healthcare?: string;
}

// Tag values per category (OpenStreetMap wiki, Map features: amenity=*, shop=*, leisure=*, healthcare=*).
const SHOP_GROCERY = new Set(['supermarket', 'greengrocer', 'grocery', 'wholesale_grocery']);
const AMENITY_FOOD = new Set(['cafe', 'restaurant', 'fast_food', 'food_court', 'pub', 'bar', 'ice_cream']);
const AMENITY_HEALTH = new Set(['doctors', 'clinic', 'hospital', 'dentist']);
const HEALTHCARE_HEALTH = new Set(['doctor', 'clinic', 'hospital', 'centre', 'dentist']);
const LEISURE_PARK = new Set(['park', 'playground', 'garden', 'recreation_ground', 'nature_reserve', 'dog_park']);
const AMENITY_COMMUNITY = new Set(['library', 'community_centre', 'social_centre', 'arts_centre', 'townhall']);
const AMENITY_SCHOOL = new Set(['school']);
const AMENITY_TRANSPORT = new Set(['bus_station', 'ferry_terminal']);

/**
 * The category of an amenity from its OSM-style tags, or null when it belongs to none. Checked in a fixed
 * order (a pharmacy with `healthcare=pharmacy` is a pharmacy, not health), so every row has one category.
 */
export function categoriseAmenity(tags: AmenityTags): WalkCategory | null {
  const amenity = norm(tags.amenity);
  const shop = norm(tags.shop);
  const leisure = norm(tags.leisure);
  const healthcare = norm(tags.healthcare);
  if (SHOP_GROCERY.has(shop)) return 'grocery';
  if (amenity === 'pharmacy' || healthcare === 'pharmacy' || shop === 'chemist') return 'pharmacy';
  if (AMENITY_HEALTH.has(amenity) || HEALTHCARE_HEALTH.has(healthcare)) return 'health';
  if (AMENITY_FOOD.has(amenity)) return 'cafe_restaurant';
  if (LEISURE_PARK.has(leisure)) return 'park';
  if (AMENITY_COMMUNITY.has(amenity)) return 'library_community';
  if (AMENITY_SCHOOL.has(amenity)) return 'school';
  if (AMENITY_TRANSPORT.has(amenity)) return 'public_transport';
  return null;
}

function norm(s: string | undefined): string {
  return (s ?? '').trim().toLowerCase();
}
