/** Australian states and territories, by their usual abbreviations. */
export const STATES = ['VIC', 'NSW', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const;
/** One of {@link STATES}. */
export type StateCode = (typeof STATES)[number];

const NAMES: Record<StateCode, string> = {
  VIC: 'Victoria',
  NSW: 'New South Wales',
  QLD: 'Queensland',
  WA: 'Western Australia',
  SA: 'South Australia',
  TAS: 'Tasmania',
  ACT: 'Australian Capital Territory',
  NT: 'Northern Territory',
};

/** True when `s` is a state code. */
export function isStateCode(s: unknown): s is StateCode {
  return typeof s === 'string' && (STATES as readonly string[]).includes(s);
}

/** The full name of a state ("Victoria"). */
export function stateName(s: StateCode): string {
  return NAMES[s];
}
