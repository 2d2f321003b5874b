/**
 * The DA classifier: council description text to the 21 categories. Rules are tried in priority order; the
 * first that matches is the primary category, every match is listed in `categories` (primary first). The
 * order encodes the usual reading of council text: a childcare centre in a change of use is childcare; a
 * dwelling with a pool is a dwelling (and a pool); demolition followed by a dual occupancy is the dual
 * occupancy.
 */
import type { DaCategory } from './categories.js';

/** Counts of three and more as councils write them in words ("three double-storey dwellings"). */
const COUNT_WORDS = 'three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty';

const RULES: [DaCategory, RegExp][] = [
  ['childcare', /child ?care|early learning|kindergarten|long day care|pre-?school/],
  ['health_medical', /medical|dental|clinic|health|hospital|pharmacy|physiotherap/],
  ['tourism_hospitality', /restaurant|\bcafe\b|\bbar\b|hotel|motel|serviced apartments|tourist|short[- ]stay|function centre/],
  ['education', /\bschool\b|classroom|education|\bcollege\b/],
  ['community_infrastructure', /community|pavilion|public toilets|library|sports (ground|field|club)|place of worship/],
  ['mixed_use', /mixed[- ]use|shop ?top housing/],
  ['multi_unit_residential', new RegExp(`apartment|townhouses|residential flat|multi[- ]unit|multi[- ]dwelling|\\b(?:[3-9]|\\d{2,}|${COUNT_WORDS}) (?:[\\w-]+ ){0,2}(?:dwellings|units)\\b`)],
  ['dual_occupancy', /dual occupancy|duplex|semi-detached|\b(?:two|2) (?:[\w-]+ ){0,2}dwellings\b/],
  ['secondary_dwelling', /secondary dwelling|granny flat|second dwelling|ancillary dwelling/],
  ['new_dwelling', /(construction|development|erection) of (a |an )?(new |single |detached )?((double|two|single|three)[- ]storey )?dwelling|new ((two|double|single)[- ]storey )?dwelling|single dwelling/],
  ['subdivision', /subdivi|boundary (re)?alignment/],
  ['demolition', /demoli/],
  ['swimming_pool', /swimming pool|\bspa\b|pool fenc/],
  ['tree_works', /\btrees?\b|pruning|lopping/],
  ['signage', /signage|\bsigns?\b|advertising structure/],
  ['change_of_use', /change of use/],
  ['industrial', /warehouse|industr|factory|joinery|workshop|depot/],
  ['retail', /\bshops?\b|supermarket|retail/],
  ['commercial', /office|commercial/],
  ['alterations_additions', /alteration|addition|extension|renovat/],
];

/** Classifies a description: the primary category and every category that applies (primary first). */
export function classifyDa(description: string): { category: DaCategory; categories: DaCategory[] } {
  const text = description.toLowerCase();
  const categories = RULES.filter(([, re]) => re.test(text)).map(([c]) => c);
  if (!categories.length) return { category: 'other', categories: ['other'] };
  return { category: categories[0], categories };
}
