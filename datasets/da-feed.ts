/**
 * A synthetic national DA feed at the original service's scale, for the DA benchmark (a million records)
 * and for property tests of the store (a few thousand): 330 councils over the eight states in proportion to
 * their populations, most in the capital's metro area and the rest regional, each with its suburbs,
 * postcodes, reference format and status vocabulary; descriptions written for the 21 categories; lodgement
 * dates from 2019 to the feed's date, denser towards it; about 4% of records without coordinates. Seeded:
 * the same seed gives the same rows. Rows are in the dataset's DA format (engine/da/da-record.ts).
 */
import { STATES, type StateCode } from '../engine/catalogue/states.js';
import { seededRandom, type Random } from '../engine/random/seeded-random.js';

/** Options of {@link syntheticDaRows}. */
export interface DaFeedOptions {
  count: number;
  seed?: number;
  /** The first record's id (default 1). */
  firstId?: number;
  /** The feed's date, YYYY-MM-DD (default 2026-11-20): nothing is lodged after it. */
  asAt?: string;
  /** Councils (default 330). */
  councils?: number;
}

/** Capitals (lon, lat) and each state's share of applications. */
const CAPITALS: Record<StateCode, { lon: number; lat: number; share: number }> = {
  NSW: { lon: 151.2093, lat: -33.8688, share: 0.32 },
  VIC: { lon: 144.9631, lat: -37.8136, share: 0.26 },
  QLD: { lon: 153.0251, lat: -27.4698, share: 0.2 },
  WA: { lon: 115.8605, lat: -31.9505, share: 0.1 },
  SA: { lon: 138.6007, lat: -34.9285, share: 0.07 },
  TAS: { lon: 147.3272, lat: -42.8821, share: 0.025 },
  ACT: { lon: 149.13, lat: -35.2809, share: 0.015 },
  NT: { lon: 130.8456, lat: -12.4634, share: 0.01 },
};

const STATUSES: Record<StateCode, string[]> = {
  VIC: ['Further Information Requested', 'Advertising', 'Permit Issued', 'Refused', 'Withdrawn', 'Lapsed', 'Notice of Decision to Grant', 'Received'],
  NSW: ['Under Assessment', 'On Exhibition', 'Determined - Approved', 'Determined - Refused', 'Withdrawn', 'Deferred Commencement', 'Lodged', 'Approved'],
  QLD: ['Under assessment', 'Public notification', 'Approved', 'Refused', 'Withdrawn', 'Information request', 'Lodged'],
  WA: ['In Progress', 'Advertising', 'Approved', 'Refused', 'Withdrawn', 'Deferred', 'Received'],
  SA: ['Verified', 'Public Notification', 'Planning Consent Granted', 'Refused', 'Withdrawn', 'Lodged'],
  TAS: ['Received', 'Advertised', 'Approved', 'Refused', 'Withdrawn', 'Further information'],
  ACT: ['Under assessment', 'Public notification', 'Approved', 'Refused', 'Withdrawn', 'Reconsideration'],
  NT: ['Lodged', 'Exhibition', 'Development Permit Issued', 'Refused', 'Withdrawn', 'Deferred'],
};

/** Descriptions with their rough share; {n} is a count, {p} a number of places. */
const DESCRIPTIONS: [number, string][] = [
  [10, 'Construction of a double storey dwelling'], [4, 'Construction of a new two storey dwelling with attached garage'], [2, 'Construction of a two storey dwelling with in-ground swimming pool'],
  [7, 'Construction of two double storey dwellings on a lot'], [2, 'Demolition of existing dwelling and construction of an attached dual occupancy'],
  [3, 'Construction of {n} townhouses'], [3, 'Construction of a 4 storey apartment building comprising {n} dwellings and basement car parking'],
  [12, 'Alterations and additions to existing dwelling including rear extension'], [4, 'Ground floor rear extension and first floor addition to existing dwelling'],
  [4, 'Construction of a secondary dwelling (granny flat)'], [6, 'Subdivision of land into {n} lots'], [5, 'Demolition of existing dwelling and outbuildings'],
  [3, 'Installation of an in-ground swimming pool and pool fencing'], [4, 'Removal of two (2) significant trees'], [2, 'Display of illuminated business identification signage'],
  [3, 'Change of use from shop to office'], [2, 'Use and development of a three storey office building with ground floor car parking'], [2, 'Fit-out of a supermarket tenancy'],
  [2, 'Construction of a warehouse and associated car parking'], [1, 'Construction of a five storey mixed use building comprising ground floor retail and {n} dwellings'],
  [2, 'Use and development of a childcare centre ({p} places)'], [1, 'Change of use to a child care centre for {p} children'], [1, 'Extension of existing early learning centre (additional 20 places)'],
  [1, 'Construction of a two storey classroom building (School)'], [2, 'Use of the land as a medical centre (four practitioners)'], [1, 'Use of the premises as a restaurant and bar'],
  [1, 'Construction of a community pavilion and public toilets'], [3, 'Construction of a front fence'], [2, 'Construction of a carport'],
];

const ROOTS = ['Ash', 'Bel', 'Carr', 'Dun', 'Elm', 'Fair', 'Glen', 'Hill', 'Iron', 'Kings', 'Lake', 'Mill', 'North', 'Oak', 'Park', 'Queens', 'River', 'Stone', 'Tall', 'Upper', 'Vale', 'West', 'York', 'Bright', 'Clare', 'Ever'];
const ENDS = ['field', 'wood', 'ton', 'vale', 'ford', 'brook', 'mont', 'side', 'haven', 'bury', 'dale', 'gate', 'ridge'];
const STREETS = ['High Street', 'Station Road', 'Church Street', 'Victoria Street', 'Railway Parade', 'Park Avenue', 'King Street', 'George Street', 'Bay Road', 'Hill Crescent', 'Wattle Grove', 'Banksia Drive'];

interface Council {
  name: string;
  state: StateCode;
  lon: number;
  lat: number;
  /** Spread of its applications, metres. */
  sigma: number;
  weight: number;
  suburbs: { name: string; postcode: string }[];
  refStyle: number;
}

function councils(r: Random, n: number): Council[] {
  const out: Council[] = [];
  const used = new Set<string>();
  for (const state of STATES) {
    const cap = CAPITALS[state];
    const k = Math.max(2, Math.round(n * Math.sqrt(cap.share) / STATES.reduce((s, st) => s + Math.sqrt(CAPITALS[st].share), 0)));
    for (let i = 0; i < k; i++) {
      const metro = i < Math.ceil(k * 0.7);
      let name: string;
      do name = `${r.pick(ROOTS)}${r.pick(ENDS)}`;
      while (used.has(`${state}/${name}`));
      used.add(`${state}/${name}`);
      const dist = metro ? Math.abs(r.normal()) * 12_000 : 80_000 + r.next() * 500_000;
      const bearing = r.next() * 2 * Math.PI;
      const lat = cap.lat + (dist * Math.cos(bearing)) / 111_320;
      const lon = cap.lon + (dist * Math.sin(bearing)) / (111_320 * Math.cos((cap.lat * Math.PI) / 180));
      const pc0 = { NSW: 2000, VIC: 3000, QLD: 4000, WA: 6000, SA: 5000, TAS: 7000, ACT: 2600, NT: 800 }[state] + r.int(900);
      const suburbs = Array.from({ length: 8 + r.int(20) }, (_, j) => ({ name: `${r.pick(ROOTS)}${r.pick(ENDS)}${j % 3 === 0 ? ' Park' : ''}`, postcode: String(pc0 + (j % 6)).padStart(4, '0') }));
      out.push({
        name: r.chance(0.5) ? `${name} City Council` : r.chance(0.5) ? `City of ${name}` : `${name} Shire Council`,
        state, lon, lat, sigma: metro ? 2500 + r.next() * 3000 : 4000 + r.next() * 10_000, weight: cap.share * (metro ? 3 : 1) * (0.5 + r.next()), suburbs, refStyle: r.int(3),
      });
    }
  }
  return out;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** The rows of the feed, generated lazily (a million rows never sit in memory at once). */
export function* syntheticDaRows(options: DaFeedOptions): Generator<Record<string, unknown>> {
  const r = seededRandom(options.seed ?? 767_000);
  const list = councils(r, options.councils ?? 330);
  const totalWeight = list.reduce((s, c) => s + c.weight, 0);
  const descWeight = DESCRIPTIONS.reduce((s, [w]) => s + w, 0);
  const asAt = Date.parse(`${options.asAt ?? '2026-11-20'}T00:00:00Z`);
  const start = Date.parse('2019-01-01T00:00:00Z');
  const days = Math.floor((asAt - start) / 86_400_000);
  const counters = new Map<string, number>();
  const firstId = options.firstId ?? 1;
  for (let i = 0; i < options.count; i++) {
    let w = r.next() * totalWeight;
    const c = list.find((x) => (w -= x.weight) < 0) ?? list[list.length - 1];
    let d = r.next() * descWeight;
    const template = DESCRIPTIONS.find(([x]) => (d -= x) < 0)?.[1] ?? DESCRIPTIONS[0][1];
    const description = template.replace('{n}', String(2 + r.int(30))).replace('{p}', String(40 + 4 * r.int(25)));
    // Denser towards the feed's date: the square root skews days towards the end.
    const day = Math.min(days, Math.floor(Math.sqrt(r.next()) * (days + 1)));
    const lodgedT = start + day * 86_400_000;
    const lodged = new Date(lodgedT).toISOString().slice(0, 10);
    const year = lodged.slice(0, 4);
    const n = (counters.get(`${c.name}/${year}`) ?? 0) + 1;
    counters.set(`${c.name}/${year}`, n);
    const ref = c.refStyle === 0 ? `DA/${n}/${year}` : c.refStyle === 1 ? `${year.slice(2)}/${pad(n, 5)}` : `PLN-${year}-${pad(n, 5)}`;
    const suburb = r.pick(c.suburbs);
    const age = (asAt - lodgedT) / 86_400_000;
    const statuses = STATUSES[c.state];
    const status = age < 60 ? r.pick([statuses[0], statuses[1], statuses[statuses.length - 1]]) : r.pick(statuses);
    const geocoded = !r.chance(0.04);
    const dist = Math.abs(r.normal()) * c.sigma;
    const bearing = r.next() * 2 * Math.PI;
    const lat = c.lat + (dist * Math.cos(bearing)) / 111_320;
    const lng = c.lon + (dist * Math.sin(bearing)) / (111_320 * Math.cos((c.lat * Math.PI) / 180));
    yield {
      id: firstId + i,
      council: c.name,
      council_reference: ref,
      address: `${1 + r.int(300)} ${r.pick(STREETS)}`,
      suburb: suburb.name,
      state: c.state,
      postcode: suburb.postcode,
      description,
      status,
      lodged,
      decided: age > 90 && r.chance(0.5) ? new Date(lodgedT + (30 + r.int(120)) * 86_400_000).toISOString().slice(0, 10) : null,
      cost: r.chance(0.4) ? 1000 * (10 + r.int(2000)) : null,
      lat: geocoded ? Math.round(lat * 1e7) / 1e7 : null,
      lng: geocoded ? Math.round(lng * 1e7) / 1e7 : null,
      council_url: `https://eplanning.example.gov.au/${encodeURIComponent(c.name)}/search`,
      council_url_type: 'search_entry',
      last_fetched_at: new Date(asAt - r.int(5) * 86_400_000).toISOString().replace('.000Z', 'Z'),
      source: 'synthetic_da_feed',
    };
  }
}
