/**
 * Development applications with council-style text: each council has its own reference format, status
 * vocabulary, link style (a per-application record, or only the register's search page) and publishing habits
 * (costs, decision dates, dwelling counts, applicant names). About 8% are childcare proposals, enough for the
 * childcare analyses. The category each description was written for is kept in eval/ (not a catalogued
 * source) so the classifier can be scored against it.
 */
import type { StateCode } from '../../../engine/catalogue/states.js';
import type { Random } from '../../../engine/random/seeded-random.js';
import type { AddressRecord, TileContext } from '../context.js';
import type { BlockUse } from '../layout.js';
import { AS_AT } from '../sources.js';

interface CouncilStyle {
  ref: (n: number, year: number) => string;
  /** Status words: [under assessment, advertised, approved, refused, withdrawn, other]. */
  statuses: [string, string, string, string, string, string];
  recordLinks: boolean;
  publishesCost: boolean;
  publishesDecisionDate: boolean;
  publishesCounts: boolean;
  publishesApplicant: boolean;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

const STATE_STATUS: Record<StateCode, CouncilStyle['statuses']> = {
  VIC: ['Further Information Requested', 'Advertising', 'Permit Issued', 'Refused', 'Withdrawn', 'Lapsed'],
  NSW: ['Under Assessment', 'On Exhibition', 'Determined - Approved', 'Determined - Refused', 'Withdrawn', 'Deferred Commencement'],
  QLD: ['Under assessment', 'Public notification', 'Approved', 'Refused', 'Withdrawn', 'Information request'],
  WA: ['In Progress', 'Advertising', 'Approved', 'Refused', 'Withdrawn', 'Deferred'],
  SA: ['Verified', 'Public Notification', 'Planning Consent Granted', 'Refused', 'Withdrawn', 'Lodged'],
  TAS: ['Received', 'Advertised', 'Approved', 'Refused', 'Withdrawn', 'Further information'],
  ACT: ['Under assessment', 'Public notification', 'Approved', 'Refused', 'Withdrawn', 'Reconsideration'],
  NT: ['Lodged', 'Exhibition', 'Development Permit Issued', 'Refused', 'Withdrawn', 'Deferred'],
};

function councilStyle(state: StateCode, council: string, which: 0 | 1): CouncilStyle {
  const s = STATE_STATUS[state];
  const base = { statuses: s, publishesCost: ['NSW', 'ACT', 'SA'].includes(state), publishesDecisionDate: ['NSW', 'ACT'].includes(state), publishesCounts: ['NSW', 'ACT'].includes(state), publishesApplicant: state !== 'VIC' };
  const refs: Record<StateCode, [CouncilStyle['ref'], CouncilStyle['ref']]> = {
    VIC: [(n, y) => `MPS/${y}/${n}`, (n, y) => `D/${n}/${y}`],
    NSW: [(n, y) => `DA/${n}/${y}`, (n, y) => `DA${y}/${pad(n, 4)}`],
    // Brisbane-style numbers run on across years (A006700123 in one year is not reused the next).
    QLD: [(n, y) => `A00${6000000 + (y - 2000) * 30000 + n}`, (n, y) => `A00${6000000 + (y - 2000) * 30000 + n}`],
    WA: [(n, y) => `DA${String(y).slice(2)}/${pad(n, 4)}`, (n, y) => `DA-${y}-${pad(n, 4)}`],
    SA: [(n, y) => `${String(y).slice(2)}0${pad(n, 5)}`, (n, y) => `${String(y).slice(2)}0${pad(n + 50000, 5)}`],
    TAS: [(n, y) => `PLN-${String(y).slice(2)}-${n}`, (n, y) => `PLN-${String(y).slice(2)}-${pad(n, 4)}`],
    ACT: [(n, y) => `DA${y}${pad(n, 5)}`, (n, y) => `DA${y}${pad(n, 5)}`],
    NT: [(n, y) => `PA${y}/${pad(n, 4)}`, (n, y) => `PA${y}/${pad(n, 4)}`],
  };
  const recordLinks = ['Merri-bek City Council', 'City of Parramatta Council', 'Cumberland City Council', 'Brisbane City Council', 'ACT Government', 'Hobart City Council'].includes(council);
  return { ...base, ref: refs[state][which], recordLinks };
}

interface Template {
  category: string;
  extra?: string[];
  use: BlockUse[];
  weight: number;
  text: (r: Random) => { description: string; dwellings?: number; storeys?: number; lots?: number; cost: number; places?: number };
}

const RES: BlockUse[] = ['residential_low', 'residential_mid'];
const TEMPLATES: Template[] = [
  { category: 'new_dwelling', use: RES, weight: 10, text: (r) => ({ description: r.pick(['Construction of a double storey dwelling', 'Development of a single dwelling and front fence', 'Construction of a new two storey dwelling with attached garage']), dwellings: 1, storeys: 2, cost: r.range(450, 1100) * 1000 }) },
  { category: 'new_dwelling', extra: ['swimming_pool'], use: RES, weight: 2, text: (r) => ({ description: 'Construction of a two storey dwelling with in-ground swimming pool', dwellings: 1, storeys: 2, cost: r.range(700, 1400) * 1000 }) },
  { category: 'dual_occupancy', use: RES, weight: 8, text: (r) => ({ description: r.pick(['Construction of two double storey dwellings on a lot', 'Demolition of existing dwelling and construction of an attached dual occupancy', 'Dual occupancy (attached) and Torrens title subdivision into 2 lots']), dwellings: 2, storeys: 2, cost: r.range(700, 1300) * 1000 }) },
  { category: 'multi_unit_residential', use: ['residential_mid'], weight: 6, text: (r) => { const n = 3 + r.int(30); const st = n > 8 ? 3 + r.int(4) : 2; return { description: n > 8 ? `Construction of a ${st} storey apartment building comprising ${n} dwellings and basement car parking` : `Construction of ${n} townhouses`, dwellings: n, storeys: st, cost: n * r.range(280, 420) * 1000 }; } },
  { category: 'alterations_additions', use: RES, weight: 16, text: (r) => ({ description: r.pick(['Alterations and additions to existing dwelling including rear extension', 'Ground floor rear extension and first floor addition to existing dwelling', 'Alterations to a dwelling in a Heritage Overlay', 'Internal alterations and new rear deck']), cost: r.range(60, 450) * 1000 }) },
  { category: 'secondary_dwelling', use: RES, weight: 4, text: (r) => ({ description: r.pick(['Construction of a secondary dwelling (granny flat)', 'Small second dwelling at the rear of the existing dwelling']), dwellings: 1, storeys: 1, cost: r.range(120, 220) * 1000 }) },
  { category: 'subdivision', use: RES, weight: 7, text: (r) => { const n = 2 + r.int(3); return { description: `Subdivision of land into ${n} lots`, lots: n, cost: 0 }; } },
  { category: 'demolition', use: RES, weight: 5, text: (r) => ({ description: r.pick(['Demolition of existing dwelling and outbuildings', 'Demolition of a dwelling in a heritage precinct']), cost: r.range(20, 60) * 1000 }) },
  { category: 'swimming_pool', use: RES, weight: 3, text: (r) => ({ description: 'Installation of an in-ground swimming pool and pool fencing', cost: r.range(40, 110) * 1000 }) },
  { category: 'tree_works', use: RES, weight: 4, text: (r) => ({ description: r.pick(['Removal of one (1) tree', 'Removal of two (2) significant trees', 'Pruning of a significant tree']), cost: 0 }) },
  { category: 'signage', use: ['commercial'], weight: 3, text: (r) => ({ description: r.pick(['Display of illuminated business identification signage', 'Display of two internally illuminated signs']), cost: r.range(5, 30) * 1000 }) },
  { category: 'change_of_use', use: ['commercial'], weight: 4, text: (r) => ({ description: r.pick(['Change of use from shop to office', 'Change of use to a gymnasium', 'Change of use from warehouse to indoor recreation facility']), cost: r.range(20, 150) * 1000 }) },
  { category: 'commercial', use: ['commercial'], weight: 3, text: (r) => ({ description: 'Use and development of a three storey office building with ground floor car parking', storeys: 3, cost: r.range(1500, 5000) * 1000 }) },
  { category: 'retail', use: ['commercial'], weight: 3, text: (r) => ({ description: r.pick(['Use of the land as a shop and reduction of the car parking requirement', 'Fit-out of a supermarket tenancy']), cost: r.range(80, 900) * 1000 }) },
  { category: 'industrial', use: ['industrial'], weight: 3, text: (r) => ({ description: r.pick(['Construction of a warehouse and associated car parking', 'Use of the land for light industry (joinery) and buildings and works']), cost: r.range(600, 4000) * 1000 }) },
  { category: 'mixed_use', use: ['commercial'], weight: 2, text: (r) => { const n = 10 + r.int(40); return { description: `Construction of a five storey mixed use building comprising ground floor retail and ${n} dwellings`, dwellings: n, storeys: 5, cost: n * r.range(300, 450) * 1000 }; } },
  { category: 'childcare', use: ['residential_mid', 'commercial'], weight: 8, text: (r) => { const p = 40 + 4 * r.int(30); return { places: p, description: r.pick([`Use and development of a childcare centre (${p} places)`, `Change of use to a child care centre for ${p} children`, `Extension of existing early learning centre (additional ${Math.round(p / 4)} places)`, `Alterations and additions to an existing kindergarten and child care centre`, `Construction of a two storey early learning centre for ${p} children with basement parking`]), storeys: 2, cost: p * r.range(18, 32) * 1000 }; } },
  { category: 'education', use: ['school'], weight: 1, text: (r) => ({ description: 'Construction of a two storey classroom building (School)', storeys: 2, cost: r.range(2000, 8000) * 1000 }) },
  { category: 'health_medical', use: ['commercial'], weight: 2, text: (r) => ({ description: r.pick(['Use of the land as a medical centre (four practitioners)', 'Change of use to a dental clinic']), cost: r.range(90, 600) * 1000 }) },
  { category: 'tourism_hospitality', use: ['commercial'], weight: 1, text: (r) => ({ description: r.pick(['Use of the premises as a restaurant and bar with live music', 'Use and development of serviced apartments']), cost: r.range(100, 900) * 1000 }) },
  { category: 'community_infrastructure', use: ['school', 'commercial'], weight: 1, text: (r) => ({ description: 'Construction of a community pavilion and public toilets', cost: r.range(400, 1500) * 1000 }) },
  { category: 'other', use: RES, weight: 3, text: (r) => ({ description: r.pick(['Construction of a front fence', 'Installation of solar panels on a dwelling in a Heritage Overlay', 'Construction of a carport']), cost: r.range(5, 40) * 1000 }) },
];

const APPLICANTS = ['Urbanline Planning Pty Ltd', 'Creekside Developments Pty Ltd', 'J & M Nguyen', 'Little Learners Group Pty Ltd', 'Meridian Architects', 'S Patel', 'Northern Homes Pty Ltd', 'K Williams', 'Early Years Property Trust', 'Harbourview Planning'];

const dayMs = 86400000;
const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Writes the tile's DA records (JSON lines) and the classifier's evaluation truth. */
export function writeDas(ctx: TileContext): { id: number; category: string; categories: string[] }[] {
  const st = ctx.spec.state;
  const asAt = Date.parse(`${AS_AT}T00:00:00Z`);
  const start = Date.parse('2023-07-01T00:00:00Z');
  const byUse = new Map<BlockUse, AddressRecord[]>();
  const seen = new Set<string>();
  for (const a of ctx.addresses) {
    // One address per lot for DAs (a unit development is one site).
    const key = `${a.lot.street.id}/${a.lot.number}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = byUse.get(a.lot.use) ?? [];
    list.push(a);
    byUse.set(a.lot.use, list);
  }
  const total = TEMPLATES.reduce((s, t) => s + t.weight, 0);
  const pools = new Map(TEMPLATES.map((t) => [t, t.use.flatMap((u) => byUse.get(u) ?? [])]));
  const usedByUse = new Map<BlockUse, AddressRecord[]>();
  const counters = new Map<string, number>();
  const rows: Record<string, unknown>[] = [];
  const truth: { id: number; category: string; categories: string[] }[] = [];
  const count = 280 + ctx.rnd.int(60);
  for (let i = 0; i < count; i++) {
    let w = ctx.rnd.next() * total;
    const t = TEMPLATES.find((x) => (w -= x.weight) < 0) ?? TEMPLATES[0];
    const pool = pools.get(t)!;
    if (!pool.length) continue;
    // Some sites see several applications over the years: they share the address and its coordinates.
    const usedHere = t.use.flatMap((u) => usedByUse.get(u) ?? []);
    const site = usedHere.length && ctx.rnd.chance(0.12) ? ctx.rnd.pick(usedHere) : ctx.rnd.pick(pool);
    const list = usedByUse.get(site.lot.use) ?? [];
    list.push(site);
    usedByUse.set(site.lot.use, list);
    const which = site.council === ctx.spec.councils[0] ? 0 : 1;
    const style = councilStyle(st, site.council, which);
    const lodgedT = start + Math.floor(ctx.rnd.next() * ((asAt - start) / dayMs - 3)) * dayMs;
    const year = new Date(lodgedT).getUTCFullYear();
    const n = (counters.get(`${site.council}/${year}`) ?? 100 + ctx.rnd.int(40)) + 1 + ctx.rnd.int(4);
    counters.set(`${site.council}/${year}`, n);
    const ref = style.ref(n, year);
    const body = t.text(ctx.rnd);
    const ageDays = (asAt - lodgedT) / dayMs;
    // Outcome: recent applications are mostly open; older ones mostly decided.
    let status: string;
    let decidedT: number | null = null;
    const u = ctx.rnd.next();
    if (ageDays < 45 || (ageDays < 200 && u < 0.35)) status = u < 0.2 && ageDays > 14 ? style.statuses[1] : u < 0.3 ? style.statuses[5] : style.statuses[0];
    else {
      status = u < 0.76 ? style.statuses[2] : u < 0.87 ? style.statuses[3] : u < 0.95 ? style.statuses[4] : style.statuses[5];
      decidedT = Math.min(asAt - dayMs, lodgedT + Math.floor(30 + ctx.rnd.next() * 170) * dayMs);
    }
    const advertised = status === style.statuses[1];
    const noticeFrom = advertised ? Math.min(asAt - 2 * dayMs, lodgedT + 14 * dayMs) : null;
    const id = (ctx.tileIndex + 1) * 100000 + i + 1;
    const slug = site.council.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-(city-)?council$|^(city|town)-of-/g, '');
    const fetched = asAt - Math.floor(ctx.rnd.next() * 2 * 86400) * 1000;
    rows.push({
      id,
      council_reference: ref,
      council: site.council,
      address: `${site.lot.number} ${site.lot.street.name}`,
      suburb: site.suburb,
      state: st,
      postcode: site.postcode,
      description: body.description,
      status,
      lodged: isoDate(lodgedT),
      decided: decidedT && (style.publishesDecisionDate || ctx.rnd.chance(0.4)) ? isoDate(decidedT) : null,
      cost: style.publishesCost && body.cost > 0 ? Math.round(body.cost / 100) * 100 : null,
      dwellings: style.publishesCounts ? body.dwellings ?? null : null,
      storeys: style.publishesCounts ? body.storeys ?? null : null,
      lots: body.lots ?? null,
      applicant: style.publishesApplicant ? ctx.rnd.pick(APPLICANTS) : null,
      public_notice_from: noticeFrom ? isoDate(noticeFrom) : null,
      public_notice_to: noticeFrom ? isoDate(noticeFrom + 14 * dayMs) : null,
      // About 4% of the original service's records are not geocoded: every 25th record here has no point
      // (chosen by position, so the random sequence of everything else is unchanged).
      lat: i % 25 === 12 ? null : Math.round(site.lat * 1e7) / 1e7,
      lng: i % 25 === 12 ? null : Math.round(site.lon * 1e7) / 1e7,
      council_url: style.recordLinks ? `https://eplanning.${slug}.example.gov.au/applications/${encodeURIComponent(ref)}` : `https://eplanning.${slug}.example.gov.au/search`,
      council_url_type: style.recordLinks ? 'application_record' : 'search_entry',
      last_fetched_at: new Date(fetched).toISOString().replace('.000Z', 'Z'),
      observed_at: new Date(fetched - Math.floor(ctx.rnd.next() * 3) * dayMs).toISOString().replace('.000Z', 'Z'),
      source: 'sample_da_records',
    });
    truth.push({ id, category: t.category, categories: [t.category, ...(t.extra ?? [])] });
  }
  const path = `${ctx.dir}/da-records.jsonl`;
  ctx.writer.jsonl(path, rows);
  ctx.registry.add('sample_da_records', { path, state: st });
  return truth;
}
