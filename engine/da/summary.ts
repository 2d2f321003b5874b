/**
 * The plain-English summary of one application (spec 2.1 "AI summary", on the single-record endpoint). No
 * language model runs here: the summary is assembled by a fixed template from the record's classified
 * fields (category, counts, cost, council status and its group, dates), and every record says so in
 * `summary_method`. The council's own description is delivered beside it, unedited.
 */
import { stateName } from '../catalogue/states.js';
import { CATEGORY_NAMES, type DaCategory } from './categories.js';
import { daListingItem, type DaRecord } from './da-record.js';

/** `summary_method` of every summary this module writes. */
export const SUMMARY_METHOD = 'template: assembled by fixed rules from the classified fields (category, counts, cost, status, dates); no language model is used';

const WHAT: Record<DaCategory, string> = {
  new_dwelling: 'a new dwelling',
  dual_occupancy: 'a dual occupancy',
  multi_unit_residential: 'a multi-unit residential development',
  alterations_additions: 'alterations and additions',
  secondary_dwelling: 'a secondary dwelling (granny flat)',
  subdivision: 'a subdivision',
  demolition: 'demolition works',
  swimming_pool: 'a swimming pool or spa',
  tree_works: 'tree works',
  signage: 'signage',
  change_of_use: 'a change of use',
  commercial: 'a commercial development',
  retail: 'a retail development',
  industrial: 'an industrial development',
  mixed_use: 'a mixed-use development',
  childcare: 'a childcare centre',
  education: 'an education facility',
  health_medical: 'a health or medical facility',
  tourism_hospitality: 'a tourism or hospitality development',
  community_infrastructure: 'community infrastructure',
  other: 'minor works',
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const longDate = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const money = (n: number) => `$${Math.round(n).toLocaleString('en-AU')}`;
const BAND_TEXT: Record<string, string> = { under_100k: 'under $100,000', '100k_500k': '$100,000 to $500,000', '500k_1m': '$500,000 to $1 million', '1m_5m': '$1 million to $5 million', '5m_plus': 'over $5 million' };

/** The summary of a record (see the module comment). */
export function summarise(r: DaRecord): string {
  const size: string[] = [];
  if (r.dwellings !== null && r.dwellings > 1) size.push(plural(r.dwellings, 'dwelling'));
  if (r.storeys !== null && r.storeys > 0) size.push(plural(r.storeys, 'storey'));
  if (r.lots !== null && r.lots > 0) size.push(`${plural(r.lots, 'lot')}`);
  const also = r.categories.slice(1).map((c) => CATEGORY_NAMES[c].toLowerCase());
  const described = r.description.trim() !== '';
  const what = `${described ? WHAT[r.category] : 'unstated works'}${size.length ? ` (${size.join(', ')})` : ''}${also.length ? `, also involving ${also.join(' and ')}` : ''}`;
  const where = [r.address, [r.suburb, r.state, r.postcode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const sentences = [`An application for ${what} at ${where || `an address in ${stateName(r.state)}`}, lodged with ${r.council} on ${longDate(r.lodged)} (reference ${r.ref}).`];
  if (!described) sentences.push('The council gave no description of the works, so the application is classified as other.');
  if (r.cost !== null && r.cost > 0) sentences.push(`The published cost of works is ${money(r.cost)}.`);
  else if (r.estimated_value_band !== 'unknown') sentences.push(`No cost of works is published; applications of this kind typically cost ${BAND_TEXT[r.estimated_value_band] ?? r.estimated_value_band}.`);
  if (r.status) {
    const decided = r.decided ? `, decided on ${longDate(r.decided)}` : '';
    const group = r.status_group === 'other' ? '' : ` (${r.status_group})`;
    sentences.push(`The council's status is "${r.status}"${group}${decided}.`);
  } else sentences.push('The council publishes no status for it.');
  if (r.public_notice_from && r.public_notice_to) sentences.push(`It was on public notice from ${longDate(r.public_notice_from)} to ${longDate(r.public_notice_to)}.`);
  if (r.lat === null) sentences.push('Its location has not been geocoded.');
  return sentences.join(' ');
}

/** One record with every field of the listing plus its plain-English `summary` and how it was made. */
export function daDetail(r: DaRecord): Record<string, unknown> {
  return { ...daListingItem(r), summary: summarise(r), summary_method: SUMMARY_METHOD };
}
