/**
 * The content of a childcare report (issue 19): the site analysis `data` object (the one `/site-analysis`
 * returns) laid out as a list of blocks that the HTML and PDF renderers both draw, so the two formats say the
 * same thing and every number is read from the analysis, never computed again.
 *
 * Order: title, subject and date; the headline; the map; the monthly trend; breakdowns; the pipeline list;
 * demand signals; open schools; suburb context (labelled a suburb fact); coverage and freshness; the data
 * boundaries; attribution and licence notices.
 */
import { STAGE_STYLE } from './report-map.js';

/** A table cell: text, or text with a link. */
export type Cell = string | { text: string; href: string };

/** One block of the report. */
export type Block =
  | { kind: 'title'; title: string; subtitle: string; lines: string[] }
  | { kind: 'headline'; items: { label: string; value: number }[] }
  | { kind: 'map' }
  /** A section's heading; `notices` marks the closing notices (data boundaries, attribution and licences). */
  | { kind: 'heading'; text: string; notices?: boolean }
  | { kind: 'para'; text: string; muted?: boolean }
  /** `widths`: each column's share of the width (tables that share them line up); default by content. */
  | { kind: 'table'; columns: string[]; rows: Cell[][]; numeric?: boolean[]; widths?: number[] }
  | { kind: 'bars'; bars: { label: string; value: number }[] }
  | { kind: 'list'; items: string[] };

/** What the report is about, for its title and file name. */
export interface ReportSubject {
  state: string;
  /** The circle, or null for a polygon. */
  circle: { lat: number; lng: number; radius_km: number } | null;
  suburb: string | null;
  /** When the report was made (ISO timestamp). */
  generatedAt: string;
}

/** A council link as data gives it, kept only when it is an http or https URL (a `javascript:` or `file:` link is text). */
export function safeLink(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 2000) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The column shares of every breakdown table (name, count, share). */
export const BREAKDOWN_WIDTHS = [0.64, 0.18, 0.18];

/**
 * The longest text of each kind a report shows: a field past it is cut, with an ellipsis, before layout. A
 * report lays text out by measuring it, and an unbroken run far wider than its column costs more than linear
 * time to break (100,000 characters took over 30 s); cut to these widths every field lays out in a few lines,
 * whatever a record or a request holds. The JSON and CSV keep the text whole.
 */
export const TEXT_LIMITS = { reference: 60, address: 160, suburb: 80, council: 100, name: 120, short: 60, note: 600 } as const;

/** `v` as text of at most `max` characters (an ellipsis where it was cut). */
export function clip(v: unknown, max: number): string {
  const s = String(v ?? '');
  return s.length > max ? `${s.slice(0, max - 1)}\u2026` : s;
}

/** How many pipeline rows the report lists (the CSV export has every row). */
export const PIPELINE_ROWS = 40;

type Data = Record<string, any>;

const fmt = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const label = (key: string) => STAGE_STYLE[key]?.label ?? key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The subject line: the circle or the polygon, and the state. */
export function subjectLine(s: ReportSubject, data: Data): string {
  if (s.circle) return `${s.circle.radius_km} km around ${s.circle.lat.toFixed(5)}, ${s.circle.lng.toFixed(5)} (${s.state})`;
  const c = data.scope?.catchment ?? {};
  return `Polygon catchment of ${c.vertices ?? '?'} vertices${c.rings > 1 ? ` and ${c.rings - 1} hole${c.rings > 2 ? 's' : ''}` : ''} (${s.state})`;
}

/** The blocks of a report of `data` (a site analysis). */
export function reportBlocks(data: Data, subject: ReportSubject, mapAttribution: readonly string[]): Block[] {
  const h = data.headline ?? {};
  const total: number = h.total ?? 0;
  const blocks: Block[] = [];
  blocks.push({
    kind: 'title',
    title: 'Childcare development pipeline',
    subtitle: subjectLine(subject, data),
    lines: [
      ...(subject.suburb ? [`Suburb: ${clip(subject.suburb, TEXT_LIMITS.suburb)}`] : []),
      `Data as at ${String(data.scope?.as_at ?? 'unknown').slice(0, 10)}; lodged ${data.scope?.since ? `since ${data.scope.since}` : 'at any date'}; report made ${subject.generatedAt.slice(0, 16).replace('T', ' ')} UTC.`,
      'Counts are of development applications in the tracked pipeline, not of operating centres.',
    ],
  });
  blocks.push({ kind: 'headline', items: [{ label: 'Childcare DAs', value: total }, { label: 'Under assessment', value: h.under_assessment ?? 0 }, { label: 'Advertised', value: h.advertised ?? 0 }, { label: 'Approved', value: h.approved ?? 0 }, { label: 'Refused', value: h.refused ?? 0 }] });
  blocks.push({ kind: 'map' });
  if (total === 0) blocks.push({ kind: 'para', text: 'No childcare development applications were found in this catchment for this period. The sections below still describe the area: its other development, schools and suburb.' });

  blocks.push({ kind: 'heading', text: 'Monthly trend' });
  const trend: { month: string; total: number }[] = data.trend ?? [];
  if (trend.length) blocks.push({ kind: 'bars', bars: trend.map((t) => ({ label: t.month, value: t.total })) });
  else blocks.push({ kind: 'para', text: 'No lodgements to chart.', muted: true });

  blocks.push({ kind: 'heading', text: 'Breakdowns' });
  const b = data.breakdowns ?? {};
  // Every breakdown table has the same columns in the same places: the name, the count, the share.
  const breakdown = (title: string, rows: { key: string; count: number; share: number }[] = [], limit = Infinity, named = (k: string) => k): Block => ({
    kind: 'table',
    columns: [title, 'DAs', 'Share'],
    rows: rows.slice(0, limit).map((r) => [clip(named(r.key), TEXT_LIMITS.council), fmt(r.count), pct(r.share)]),
    numeric: [false, true, true],
    widths: BREAKDOWN_WIDTHS,
  });
  blocks.push(breakdown('Pipeline stage', b.stage, Infinity, label));
  blocks.push(breakdown('Works type', b.works_type, Infinity, label));
  if ((b.council ?? []).length) blocks.push(breakdown('Council', b.council, 10));
  if ((b.suburb ?? []).length) blocks.push(breakdown('Suburb', b.suburb, 10));

  blocks.push({ kind: 'heading', text: 'Pipeline' });
  const features: { properties: Data }[] = data.geojson?.features ?? [];
  if (features.length) {
    blocks.push({
      kind: 'table',
      columns: ['Reference', 'Address', 'Stage', 'Works type', 'Lodged', 'Council'],
      rows: features.slice(0, PIPELINE_ROWS).map(({ properties: p }) => {
        // A link is labelled by what it opens: the application's own record on its reference, the council's
        // register (where the reference must be searched) on the council's name.
        const href = safeLink(p.council_url);
        const ref = clip(p.council_reference, TEXT_LIMITS.reference), council = clip(p.council_name, TEXT_LIMITS.council);
        const record = href !== null && p.council_url_type === 'application_record';
        const register = href !== null && !record;
        return [
          record ? { text: ref, href } : ref,
          clip(p.address, TEXT_LIMITS.address),
          label(String(p.childcare_pipeline_stage ?? 'unknown')),
          label(String(p.childcare_works_type ?? 'other')),
          clip(p.lodgement_date, TEXT_LIMITS.short),
          register ? { text: `${council} register (search ${ref})`, href } : council,
        ];
      }),
    });
    if (features.some(({ properties: p }) => safeLink(p.council_url) !== null)) blocks.push({ kind: 'para', text: 'A linked reference opens the application at its council; a linked council opens its register, where the reference is searched.', muted: true });
    const more = (data.geojson?.total_features ?? features.length) - Math.min(features.length, PIPELINE_ROWS);
    if (more > 0) blocks.push({ kind: 'para', text: `${fmt(more)} more geocoded DAs are in this catchment: the CSV export and the JSON site analysis list every one.`, muted: true });
  } else blocks.push({ kind: 'para', text: 'None in this catchment.', muted: true });

  blocks.push({ kind: 'heading', text: 'Demand signals (all development in the catchment)' });
  const ds = data.demand_signals ?? {};
  blocks.push({ kind: 'table', columns: ['Signal', 'Count'], rows: [['All development applications', fmt(ds.all_development ?? 0)], ['Subdivisions', fmt(ds.subdivisions ?? 0)], ['Lots proposed', fmt(ds.lots ?? 0)], ['Dwellings proposed', fmt(ds.dwellings ?? 0)]], numeric: [false, true] });
  if (ds.note) blocks.push({ kind: 'para', text: ds.note, muted: true });

  blocks.push({ kind: 'heading', text: 'Open schools' });
  const sc = data.schools ?? {};
  if (sc.available) {
    const fs: { properties: Data }[] = sc.features?.features ?? [];
    if (fs.length) blocks.push({ kind: 'table', columns: ['School', 'Type', 'Sector'], rows: fs.map(({ properties: p }) => [clip(p.name, TEXT_LIMITS.name), clip(p.school_type, TEXT_LIMITS.short), clip(p.school_sector, TEXT_LIMITS.short)]) });
    else blocks.push({ kind: 'para', text: 'No open school lies in this catchment.', muted: true });
    if (sc.note) blocks.push({ kind: 'para', text: sc.note, muted: true });
  } else blocks.push({ kind: 'para', text: sc.note ?? 'Open-school points are not available here.' });

  blocks.push({ kind: 'heading', text: 'Suburb context (a suburb fact, not a catchment statistic)' });
  const sub = data.suburb_context ?? {};
  if (sub.available) {
    const money = (v: number | null) => (v === null || v === undefined ? 'n/a' : `$${fmt(v)}`);
    blocks.push({
      kind: 'table',
      columns: [`${clip(sub.suburb, TEXT_LIMITS.suburb)} (${sub.state}), Census ${sub.census?.year ?? ''}`, 'Value'],
      rows: [
        ['Persons', fmt(sub.population?.persons ?? 0)],
        ['Children aged 0-4', `${fmt(sub.children_0_4?.persons ?? 0)} (${pct(sub.children_0_4?.share ?? 0)})`],
        ['Median age', String(sub.median_age ?? 'n/a')],
        ['Median household income, weekly', money(sub.median_household_income_weekly)],
        ['Median rent, weekly', money(sub.median_rent_weekly)],
        ['Average household size', String(sub.average_household_size ?? 'n/a')],
      ],
      numeric: [false, true],
    });
  } else blocks.push({ kind: 'para', text: clip(sub.message ?? 'No suburb census context is held.', TEXT_LIMITS.note), muted: true });
  if (sub.note) blocks.push({ kind: 'para', text: sub.note, muted: true });

  blocks.push({ kind: 'heading', text: 'Coverage and freshness' });
  const cov = data.coverage ?? {};
  blocks.push({
    kind: 'table',
    columns: ['Measure', 'Value'],
    rows: [
      ['Records in this report', fmt(cov.records ?? 0)],
      ['Geocoded', `${cov.geocoded_pct ?? 0}%`],
      ['With a council reference', `${cov.council_reference_pct ?? 0}%`],
      ['With a status', `${cov.status_present_pct ?? 0}%`],
      ['Latest record fetched', String(cov.freshness?.latest_fetched ?? 'n/a')],
      ['Store as at', String(cov.freshness?.store_as_at ?? 'n/a')],
    ],
    numeric: [false, true],
  });

  blocks.push({ kind: 'heading', text: 'Data boundaries', notices: true });
  blocks.push({ kind: 'list', items: data.notices?.data_boundaries ?? [] });

  blocks.push({ kind: 'heading', text: 'Attribution and licences', notices: true });
  const notices = [...(data.notices?.attribution ?? []), ...(data.notices?.licences ?? []).map((l: { source: string; licence: string }) => `${l.source}: ${l.licence}`), ...mapAttribution.map((a) => `Map: ${a}`), ...(sub.attribution ? [`Suburb context: ${sub.attribution}`] : []), ...(sc.attribution ?? []).map((a: string) => `Schools: ${a}`)];
  blocks.push({ kind: 'list', items: notices.map((n: string) => clip(n, TEXT_LIMITS.note)) });
  blocks.push({ kind: 'para', text: data.notices?.keep ?? 'Keep these attribution and licence notices with any output shown to customers.', muted: true });
  return blocks;
}

/** The report's file name: `childcare-report-<state>-<yyyy-mm-dd>.<ext>`. */
export function reportFilename(subject: ReportSubject, format: 'pdf' | 'html'): string {
  return `childcare-report-${subject.state.toLowerCase()}-${subject.generatedAt.slice(0, 10)}.${format}`;
}
