/**
 * Billing periods (spec 2.9 and 8): one unique address per key per period, the period computed in
 * Australia/Melbourne time. Two kinds of key:
 * - `calendar` (legacy): the Melbourne calendar month; key `YYYYMM`;
 * - `anchored`: monthly periods starting at Melbourne midnight on the effective date's day of the month
 *   (clamped to the month's last day: an effective date on the 31st starts February's period on the 28th
 *   or 29th); key `YYYYMMDD` of the period's first day.
 * Melbourne's daylight-saving changes happen at 02:00 and 03:00, so every local midnight exists exactly once.
 */

/** The time zone billing periods are computed in. */
export const BILLING_TIME_ZONE = 'Australia/Melbourne';

/** How a key's billing periods are laid out (declared with the keys, in the store's contract). */
export type { PeriodKind } from '../store/store.js';
import type { PeriodKind } from '../store/store.js';

/** One billing period. */
export interface BillingPeriod {
  /** `YYYYMM` (calendar) or `YYYYMMDD` (anchored). */
  key: string;
  /** The instant the period starts (Melbourne midnight). */
  start: Date;
  /** The instant the next period starts: when usage resets. */
  resetsAt: Date;
  /** `resetsAt` as RFC 3339 with Melbourne's UTC offset at that instant, e.g. 2026-12-01T00:00:00+11:00. */
  resetsAtText: string;
}

/** A local calendar date. */
interface LocalDate {
  y: number;
  m: number; // 1-12
  d: number;
}

const formatter = new Intl.DateTimeFormat('en-AU', {
  timeZone: BILLING_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Melbourne's wall-clock fields at `ms`. */
function localFields(ms: number): { y: number; m: number; d: number; h: number; mi: number; s: number } {
  const f: Record<string, number> = {};
  for (const p of formatter.formatToParts(new Date(ms))) if (p.type !== 'literal') f[p.type] = Number(p.value);
  return { y: f.year, m: f.month, d: f.day, h: f.hour, mi: f.minute, s: f.second };
}

/** Melbourne's offset from UTC at `ms`, in milliseconds (+10 h standard, +11 h daylight time). */
export function melbourneOffsetMs(ms: number): number {
  const l = localFields(ms);
  const asUtc = Date.UTC(l.y, l.m - 1, l.d, l.h, l.mi, l.s);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant Melbourne's local date `y-m-d` begins. */
export function melbourneMidnight(y: number, m: number, d: number): Date {
  const wall = Date.UTC(y, m - 1, d);
  // Two refinements: the offset at the first guess may differ from the offset at midnight by an hour.
  let t = wall - melbourneOffsetMs(wall);
  t = wall - melbourneOffsetMs(t);
  return new Date(t);
}

/** Melbourne's local date at `at`. */
export function melbourneDate(at: Date): LocalDate {
  const l = localFields(at.getTime());
  return { y: l.y, m: l.m, d: l.d };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function addMonths(y: number, m: number, n: number): { y: number; m: number } {
  const i = y * 12 + (m - 1) + n;
  return { y: Math.floor(i / 12), m: (i % 12) + 1 };
}

/** `at` as RFC 3339 in Melbourne local time with its offset. */
export function melbourneIso(at: Date): string {
  const off = melbourneOffsetMs(at.getTime());
  const l = localFields(at.getTime());
  const sign = off >= 0 ? '+' : '-';
  const a = Math.abs(off) / 60_000;
  return `${l.y}-${pad(l.m)}-${pad(l.d)}T${pad(l.h)}:${pad(l.mi)}:${pad(l.s)}${sign}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

/** Parses `YYYY-MM-DD` strictly (a real calendar date), or null. */
export function parseIsoDate(text: string): LocalDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return { y, m: mo, d };
}

function period(key: string, start: LocalDate, next: LocalDate): BillingPeriod {
  const resetsAt = melbourneMidnight(next.y, next.m, next.d);
  return { key, start: melbourneMidnight(start.y, start.m, start.d), resetsAt, resetsAtText: melbourneIso(resetsAt) };
}

/**
 * The billing period containing `at`. `effectiveDate` (YYYY-MM-DD) is required for anchored keys and ignored
 * for calendar keys.
 */
export function billingPeriod(at: Date, kind: PeriodKind, effectiveDate?: string | null): BillingPeriod {
  const today = melbourneDate(at);
  if (kind === 'calendar') {
    const n = addMonths(today.y, today.m, 1);
    return period(`${today.y}${pad(today.m)}`, { y: today.y, m: today.m, d: 1 }, { y: n.y, m: n.m, d: 1 });
  }
  const anchor = effectiveDate ? parseIsoDate(effectiveDate) : null;
  if (!anchor) throw new RangeError(`an anchored billing period needs an effective date as YYYY-MM-DD, got ${JSON.stringify(effectiveDate)}`);
  const dayIn = (y: number, m: number) => Math.min(anchor.d, daysInMonth(y, m));
  let s = { y: today.y, m: today.m };
  if (today.d < dayIn(s.y, s.m)) s = addMonths(s.y, s.m, -1);
  const n = addMonths(s.y, s.m, 1);
  const start = { y: s.y, m: s.m, d: dayIn(s.y, s.m) };
  return period(`${start.y}${pad(start.m)}${pad(start.d)}`, start, { y: n.y, m: n.m, d: dayIn(n.y, n.m) });
}

/**
 * Remembers the last period per key kind so a request inside it costs a comparison, not a time-zone
 * conversion.
 */
export class BillingPeriodCache {
  private readonly last = new Map<string, BillingPeriod>();

  /** The period containing `at` (see {@link billingPeriod}). */
  get(at: Date, kind: PeriodKind, effectiveDate?: string | null): BillingPeriod {
    const id = kind === 'calendar' ? 'calendar' : `anchored:${effectiveDate ?? ''}`;
    const t = at.getTime();
    const p = this.last.get(id);
    if (p && t >= p.start.getTime() && t < p.resetsAt.getTime()) return p;
    const fresh = billingPeriod(at, kind, effectiveDate);
    if (this.last.size > 10_000) this.last.clear();
    this.last.set(id, fresh);
    return fresh;
  }
}

/**
 * True while `at` is inside an onboarding window that runs through the end of `until` (YYYY-MM-DD,
 * inclusive, Melbourne time): nothing is metered then.
 */
export function inOnboarding(at: Date, until: string | null | undefined): boolean {
  if (!until) return false;
  const d = parseIsoDate(until);
  if (!d) return false;
  const next = nextDay(d);
  return at.getTime() < melbourneMidnight(next.y, next.m, next.d).getTime();
}

function nextDay(d: LocalDate): LocalDate {
  const t = new Date(Date.UTC(d.y, d.m - 1, d.d + 1));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}
