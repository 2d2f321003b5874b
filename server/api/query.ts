/**
 * Query strings of the property endpoints (spec section 4), parsed strictly: every parameter is known,
 * given at most once and of its type, or the request is refused with 422 naming it. Ranges and enumerations
 * are checked by the engine's own validation (engine/property/kit/options.ts), so the HTTP API and the library
 * refuse the same values with the same messages.
 */
import type { PropertyOptions, SurfaceLayer } from '../../engine/entry/property.js';
import { booleanText, DECIMAL } from '../http/query-values.js';
import { ApiError, badParameter } from '../http/api-error.js';

/** Parameters of `GET /api/v1/property`, in the order of spec section 4. */
export const PROPERTY_PARAMETERS = ['address', 'lat', 'lng', 'components', 'school_radius_m', 'include_geometry', 'include_surfaces', 'surfaces', 'noise_cells', 'noise_method', 'contour_interval_m', 'include_nearby_zones', 'nearby_zone_radius_m'] as const;

/** Parameters of the full endpoint that /core does not take: it never returns scores or surfaces. */
export const FULL_ONLY_PARAMETERS = ['include_surfaces', 'surfaces', 'noise_cells', 'noise_method', 'contour_interval_m'] as const;

/** The parsed query of a property request. */
export interface PropertyQuery {
  /** The subject as given (checked by the engine's validateSubject). */
  subject: { address?: string; lat?: number; lng?: number };
  options: PropertyOptions;
  /** A canonical form of the parsed query (the response cache's key); the variant is not in it. */
  canonical: string;
}

const INTEGER = /^[+-]?\d{1,9}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const shownName = (n: string) => (n.length > 60 ? `${n.slice(0, 60)}...` : n);

/**
 * Percent-decodes one query component strictly (RFC 3986 section 2.1, UTF-8 per the WHATWG URL standard):
 * `+` is a space, every `%` starts two hex digits, the bytes are valid UTF-8, and nothing outside printable
 * ASCII arrives unencoded. Returns null when the component breaks any of these (the caller names it).
 */
export function strictDecode(component: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[^\x20-\x7e]/.test(component)) return null;
  const text = component.replace(/\+/g, ' ');
  if (!text.includes('%')) return text;
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return null;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%') {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i));
  }
  try {
    return UTF8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/**
 * Decodes a raw query string (the part after `?`) into one value per name, strictly: a malformed percent
 * escape, bytes that are not UTF-8 or raw non-ASCII characters are refused (422 naming the parameter, not
 * turned into U+FFFD), and a name given twice is refused. `+` is a space (application/x-www-form-urlencoded).
 */
export function decodeQuery(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!raw) return out;
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const name = strictDecode(rawName);
    if (name === null) throw badParameter(shownName(rawName), `a parameter name is not valid percent-encoded UTF-8: ${JSON.stringify(shownName(rawName))}`);
    const value = strictDecode(eq < 0 ? '' : part.slice(eq + 1));
    if (value === null) throw badParameter(shownName(name), `${shownName(name)} is not valid percent-encoded UTF-8 (every % needs two hex digits, the bytes must be UTF-8, and non-ASCII characters must be percent-encoded)`);
    if (out.has(name)) throw badParameter(shownName(name), `${shownName(name)} was given more than once; give it once`, 'duplicate_parameter');
    out.set(name, value);
  }
  return out;
}

/** Refuses every parameter not in `allowed` (spec: unknown parameters are rejected, not ignored). */
export function rejectUnknown(params: Map<string, string>, allowed: readonly string[], endpoint: string, hints: Record<string, string> = {}): void {
  for (const name of params.keys()) {
    if (allowed.includes(name)) continue;
    const shown = name.length > 60 ? `${name.slice(0, 60)}...` : name;
    const takes = allowed.length ? `it takes ${allowed.join(', ')}` : 'it takes no parameters';
    throw badParameter(shown, `${JSON.stringify(shown)} is not a parameter of ${endpoint}${hints[name] ? ` (${hints[name]})` : ''}; ${takes}`, 'unknown_parameter');
  }
}


function number(name: string, v: string, integer: boolean): number {
  if (!(integer ? INTEGER : DECIMAL).test(v)) {
    throw badParameter(name, `${name} must be ${integer ? 'a whole number' : 'a number'}, got ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`);
  }
  return Number(v);
}

function boolean(name: string, v: string): boolean {
  const b = booleanText(v);
  if (b === undefined) throw badParameter(name, `${name} must be 1, 0, true or false, got ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`);
  return b;
}

function list(name: string, v: string): string[] {
  const items = v.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw badParameter(name, `${name} must be a comma-separated list without empty items, got ${JSON.stringify(v)}`);
  return items;
}

/** Parses the query of `/api/v1/property` (`variant` full) or `/api/v1/property/core`. */
export function parsePropertyQuery(raw: string, variant: 'full' | 'core'): PropertyQuery {
  const params = decodeQuery(raw);
  const endpoint = variant === 'core' ? '/api/v1/property/core' : '/api/v1/property';
  const allowed = variant === 'core' ? PROPERTY_PARAMETERS.filter((p) => !(FULL_ONLY_PARAMETERS as readonly string[]).includes(p)) : PROPERTY_PARAMETERS;
  rejectUnknown(params, allowed, endpoint, variant === 'core' ? Object.fromEntries(FULL_ONLY_PARAMETERS.map((p) => [p, '/core never returns scores or surfaces'])) : {});
  const subject: PropertyQuery['subject'] = {};
  const options: PropertyOptions = { variant };
  for (const [name, v] of params) {
    switch (name) {
      case 'address':
        if (CONTROL.test(v)) throw badParameter('address', 'address must not contain control characters (line breaks, tabs, NUL)');
        subject.address = v;
        break;
      case 'lat':
      case 'lng':
        subject[name] = number(name, v, false);
        break;
      case 'components': {
        const items = list(name, v);
        if (variant === 'core') {
          const scores = items.find((c) => c === 'scores' || c.startsWith('scores.'));
          if (scores) throw badParameter('components', `${scores} is not a component of /api/v1/property/core, which never returns scores; use /api/v1/property`);
        }
        options.components = items;
        break;
      }
      case 'surfaces':
        options.surfaces = list(name, v) as SurfaceLayer[];
        break;
      case 'school_radius_m':
      case 'nearby_zone_radius_m':
        options[name] = number(name, v, true);
        break;
      case 'noise_cells':
        options.noise_cells = number(name, v, true) as 5 | 7 | 9;
        break;
      case 'noise_method':
        options.noise_method = v as 'cortn' | 'cnossos';
        break;
      case 'contour_interval_m':
        options.contour_interval_m = number(name, v, false);
        break;
      case 'include_geometry':
      case 'include_surfaces':
      case 'include_nearby_zones':
        options[name] = boolean(name, v);
        break;
      default:
        throw new ApiError('internal_error', `parameter ${name} is allowed but not parsed`);
    }
  }
  // From parsed values, in a fixed order: `include_geometry=1` and `=true` are one request.
  const parsed: Record<string, unknown> = { ...subject, ...options };
  const canonical = JSON.stringify(PROPERTY_PARAMETERS.map((p) => parsed[p] ?? null));
  return { subject, options, canonical };
}
