/**
 * Cost and value bands of a DA (spec 2.3 `cost_band`, `estimated_value_band`). `cost_band` is the band of the
 * published cost of works (null when the council does not publish it). `estimated_value_band` is that band
 * when a cost is published, else a typical cost of works for the category and its size (dwellings, lots):
 * dwelling figures follow typical Australian construction costs in 2025 (about $450k for a new detached
 * dwelling, $350k per dwelling for units); where nothing supports a band it is `unknown`.
 */
import type { DaCategory } from './categories.js';
import { RESIDENTIAL_CATEGORIES } from './categories.js';

/** The bands, lower edges in dollars. */
export const COST_BANDS: { band: string; min: number }[] = [
  { band: 'under_100k', min: 0 },
  { band: '100k_500k', min: 100_000 },
  { band: '500k_1m', min: 500_000 },
  { band: '1m_5m', min: 1_000_000 },
  { band: '5m_plus', min: 5_000_000 },
];

/** The band of a published cost; null when none is published (null, or 0 meaning "not stated"). */
export function costBand(cost: number | null): string | null {
  if (cost === null || !Number.isFinite(cost) || cost <= 0) return null;
  let band = COST_BANDS[0].band;
  for (const b of COST_BANDS) if (cost >= b.min) band = b.band;
  return band;
}

/** Typical cost of works by category, dollars (per dwelling where noted). */
const TYPICAL: Partial<Record<DaCategory, number>> = {
  new_dwelling: 450_000, dual_occupancy: 800_000, secondary_dwelling: 160_000, alterations_additions: 180_000, demolition: 35_000,
  swimming_pool: 70_000, tree_works: 2_000, signage: 15_000, subdivision: 20_000, change_of_use: 80_000, retail: 250_000,
  commercial: 2_500_000, industrial: 1_500_000, childcare: 2_000_000, education: 4_000_000, health_medical: 300_000,
  tourism_hospitality: 400_000, community_infrastructure: 900_000,
};
const PER_DWELLING: Partial<Record<DaCategory, number>> = { multi_unit_residential: 350_000, mixed_use: 380_000 };

/** The estimated value band (see the module comment); never null. */
export function estimatedValueBand(r: { category: DaCategory; cost: number | null; dwellings: number | null }): string {
  const published = costBand(r.cost);
  if (published) return published;
  const per = PER_DWELLING[r.category];
  if (per) return r.dwellings ? costBand(per * r.dwellings)! : 'unknown';
  const typical = TYPICAL[r.category];
  return typical ? costBand(typical)! : 'unknown';
}

/** Whether an application is residential (any residential category). */
export function residentialFlag(categories: readonly DaCategory[]): boolean {
  return categories.some((c) => RESIDENTIAL_CATEGORIES.has(c));
}
