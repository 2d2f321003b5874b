/**
 * Subscription requests (`POST /v1/webhooks`): the body's rules, and which events a subscription hears.
 *
 * Body: `url` (https), `events` (one or both of `da.created`, `da.status_changed`), and optional filters,
 * combined with AND: `state`, `council` (exact, case ignored), `category` (a DA category slug),
 * `status_group`, or a circle `lat`, `lng`, `radius_km` (all three, radius above 0 and at most 50 km).
 * Every mistake is a 422 naming its field; unknown fields are refused too, never ignored.
 */
import { STATES } from '../../engine/entry/data.js';
import { DA_CATEGORIES, DA_EVENT_TYPES, type DaEvent, STATUS_GROUPS } from '../../engine/entry/das.js';
import { distanceMetres } from '../../engine/entry/geo.js';
import { badParameter } from '../http/api-error.js';
import { decimalValue } from '../http/query-values.js';
import type { WebhookEventType, WebhookFilters, WebhookSubscription } from '../store/webhook-store.js';

/** Subscriptions one key may hold. */
export const MAX_SUBSCRIPTIONS_PER_KEY = 25;
/** The largest circle filter, km. */
export const MAX_RADIUS_KM = 50;

const FIELDS = new Set(['url', 'events', 'filters', 'state', 'council', 'category', 'status_group', 'lat', 'lng', 'radius_km']);
const FILTER_FIELDS = ['state', 'council', 'category', 'status_group', 'lat', 'lng', 'radius_km'] as const;

/** A validated subscription request (the URL is checked separately: it needs DNS). */
export interface SubscriptionRequest {
  url: unknown;
  events: WebhookEventType[];
  filters: WebhookFilters;
}

function oneOf(field: string, value: unknown, allowed: readonly string[], normalise: (s: string) => string = (s) => s): string {
  if (typeof value !== 'string' || !allowed.includes(normalise(value))) {
    throw badParameter(field, `${field} must be one of ${allowed.join(', ')}${typeof value === 'string' ? `, not ${JSON.stringify(value.slice(0, 60))}` : ''}`);
  }
  return normalise(value);
}

function number(field: string, value: unknown, min: number, max: number, exclusiveMin = false): number {
  // A JSON number, as documented; a string holding one is still read if it is a plain decimal (never `0x1`).
  const n = typeof value === 'string' ? decimalValue(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n > max || (exclusiveMin ? n <= min : n < min)) {
    throw badParameter(field, `${field} must be a number ${exclusiveMin ? 'above' : 'from'} ${min} ${exclusiveMin ? 'and at most' : 'to'} ${max}`);
  }
  return n;
}

/**
 * Reads a POST /v1/webhooks body (parsed JSON). Filters may be given at the top level or inside `filters`
 * (not both). Throws a 422 ApiError naming the field.
 */
export function parseSubscriptionBody(body: unknown): SubscriptionRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badParameter('body', 'the body must be a JSON object with url and events');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!FIELDS.has(k)) throw badParameter(k, `unknown field ${JSON.stringify(k)}; the fields are ${[...FIELDS].join(', ')}`);
  if (b.events === undefined) throw badParameter('events', `events is required: a list of one or both of ${DA_EVENT_TYPES.join(', ')}`);
  // A list, as documented: a bare string is refused, not taken for a list of one.
  const list = b.events;
  if (!Array.isArray(list) || list.length === 0) throw badParameter('events', `events must be a non-empty list of ${DA_EVENT_TYPES.join(', ')}, such as ["da.created"]${typeof list === 'string' ? `, not the string ${JSON.stringify(list.slice(0, 40))}` : ''}`);
  const events = [...new Set(list.map((e) => oneOf('events', e, DA_EVENT_TYPES)))] as WebhookEventType[];
  let source: Record<string, unknown> = b;
  if (b.filters !== undefined) {
    if (!b.filters || typeof b.filters !== 'object' || Array.isArray(b.filters)) throw badParameter('filters', 'filters must be an object');
    const top = FILTER_FIELDS.filter((f) => b[f] !== undefined);
    if (top.length) throw badParameter(top[0], `give filters either inside "filters" or at the top level, not both (${top[0]})`);
    source = b.filters as Record<string, unknown>;
    for (const k of Object.keys(source)) if (!(FILTER_FIELDS as readonly string[]).includes(k)) throw badParameter(`filters.${k}`, `unknown filter ${JSON.stringify(k)}; the filters are ${FILTER_FIELDS.join(', ')}`);
  }
  const filters: WebhookFilters = {};
  if (source.state !== undefined) filters.state = oneOf('state', source.state, STATES, (s) => s.trim().toUpperCase());
  if (source.council !== undefined) {
    if (typeof source.council !== 'string' || !source.council.trim() || source.council.length > 200) throw badParameter('council', 'council must be a council name (1 to 200 characters)');
    filters.council = source.council.trim();
  }
  if (source.category !== undefined) filters.category = oneOf('category', source.category, DA_CATEGORIES);
  if (source.status_group !== undefined) filters.status_group = oneOf('status_group', source.status_group, STATUS_GROUPS);
  const circle = (['lat', 'lng', 'radius_km'] as const).filter((f) => source[f] !== undefined);
  if (circle.length) {
    if (circle.length < 3) {
      const missing = (['lat', 'lng', 'radius_km'] as const).find((f) => source[f] === undefined)!;
      throw badParameter(missing, `a circle filter needs lat, lng and radius_km together; ${missing} is missing`);
    }
    filters.lat = number('lat', source.lat, -90, 90);
    filters.lng = number('lng', source.lng, -180, 180);
    filters.radius_km = number('radius_km', source.radius_km, 0, MAX_RADIUS_KM, true);
  }
  return { url: b.url, events, filters };
}

/** Whether `sub` hears `event`: its kind, made after the subscription, passing every filter. */
export function subscriptionMatches(sub: WebhookSubscription, event: DaEvent): boolean {
  if (event.seq <= sub.after_event || !sub.events.includes(event.type)) return false;
  const f = sub.filters, d = event.data;
  if (f.state !== undefined && d.state !== f.state) return false;
  if (f.council !== undefined && d.council_name.toLowerCase() !== f.council.toLowerCase()) return false;
  if (f.category !== undefined && d.trade_category !== f.category) return false;
  if (f.status_group !== undefined && d.status_group !== f.status_group) return false;
  if (f.radius_km !== undefined) {
    if (d.latitude === null || d.longitude === null) return false;
    if (distanceMetres(f.lng!, f.lat!, d.longitude, d.latitude) > f.radius_km * 1000) return false;
  }
  return true;
}

/** A subscription as the API shows it: never its secret. */
export function publicSubscription(sub: WebhookSubscription): Record<string, unknown> {
  return {
    id: sub.id,
    url: sub.url,
    events: sub.events,
    filters: sub.filters,
    status: sub.status,
    disabled_reason: sub.disabled_reason,
    created_at: sub.created_at,
  };
}
