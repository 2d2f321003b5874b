/**
 * Validation and defaults of the property options (spec section 4 and section 8 limits). The server parses
 * query strings into these types; the engine checks ranges again so library callers get the same errors:
 * `INVALID_ARGUMENT` naming the parameter.
 */
import { validateComponents } from './components.js';
import { invalidArgument } from '../../errors.js';
import { FULL_LICENCE, SURFACE_LAYERS, type PropertyLicence, type PropertyOptions, type PropertySubject, type SurfaceLayer } from './contract.js';

/** Limits of spec section 8. */
export const LIMITS = {
  addressMaxLength: 200,
  schoolRadius: { min: 100, max: 5000, default: 500 },
  nearbyZoneRadius: { min: 50, max: 2000, default: 200 },
  contourInterval: { min: 0, max: 200, default: 5 },
  noiseCells: [5, 7, 9] as const,
  daRadiusM: 300,
  geometryClipM: 1500,
} as const;

/** Options with every default applied. */
export interface ResolvedOptions {
  components: string[] | null;
  school_radius_m: number;
  include_geometry: boolean;
  include_surfaces: boolean;
  surfaces: SurfaceLayer[];
  noise_cells: 5 | 7 | 9;
  /** The noise model's physics path: `cortn` (default) or `cnossos`. */
  noise_method: 'cortn' | 'cnossos';
  contour_interval_m: number;
  /** True when the caller gave contour_interval_m (so the contour interval is "requested", not "auto"). */
  contour_interval_requested: boolean;
  include_nearby_zones: boolean;
  nearby_zone_radius_m: number;
  licence: PropertyLicence;
  variant: 'full' | 'core';
  signal?: AbortSignal;
  now: Date;
}

function intInRange(name: string, v: number | undefined, r: { min: number; max: number; default: number }): number {
  if (v === undefined) return r.default;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < r.min || v > r.max) throw invalidArgument(name, `${name} must be a whole number from ${r.min} to ${r.max}, got ${String(v)}`);
  return v;
}

/** Checks the subject (DESIGN.md: an address or both lat and lng, never a mix). */
export function validateSubject(subject: PropertySubject | Record<string, unknown>): PropertySubject {
  const s = subject as Record<string, unknown>;
  const hasAddress = s.address !== undefined && s.address !== null;
  const hasLat = s.lat !== undefined && s.lat !== null;
  const hasLng = s.lng !== undefined && s.lng !== null;
  if (hasAddress && (hasLat || hasLng)) throw invalidArgument('address', 'pass either address or both lat and lng, not both', { reason: 'invalid_subject' });
  if (hasLat !== hasLng) throw invalidArgument(hasLat ? 'lng' : 'lat', 'pass both lat and lng, or use address', { reason: 'invalid_subject' });
  if (!hasAddress && !hasLat) throw invalidArgument('address', 'pass an address or both lat and lng', { reason: 'invalid_subject' });
  if (hasAddress) {
    if (typeof s.address !== 'string' || s.address.trim() === '') throw invalidArgument('address', 'address must be non-empty text');
    if (s.address.length > LIMITS.addressMaxLength) throw invalidArgument('address', `address must be at most ${LIMITS.addressMaxLength} characters, got ${s.address.length}`);
    return { address: s.address };
  }
  const lat = s.lat as number, lng = s.lng as number;
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) throw invalidArgument('lat', `lat must be a number from -90 to 90, got ${String(s.lat)}`);
  if (typeof lng !== 'number' || !Number.isFinite(lng) || lng < -180 || lng > 180) throw invalidArgument('lng', `lng must be a number from -180 to 180, got ${String(s.lng)}`);
  return { lat, lng };
}

/** Applies defaults and checks every option; throws INVALID_ARGUMENT naming the parameter. */
export function resolveOptions(o: PropertyOptions = {}): ResolvedOptions {
  const school_radius_m = intInRange('school_radius_m', o.school_radius_m, LIMITS.schoolRadius);
  const nearby_zone_radius_m = intInRange('nearby_zone_radius_m', o.nearby_zone_radius_m, LIMITS.nearbyZoneRadius);
  const cells = o.noise_cells ?? 7;
  if (!(LIMITS.noiseCells as readonly number[]).includes(cells)) throw invalidArgument('noise_cells', `noise_cells must be 5, 7 or 9, got ${String(o.noise_cells)}`);
  const method = o.noise_method ?? 'cortn';
  if (method !== 'cortn' && method !== 'cnossos') throw invalidArgument('noise_method', `noise_method must be cortn or cnossos, got ${JSON.stringify(String(o.noise_method).slice(0, 40))}`);
  const interval = o.contour_interval_m ?? LIMITS.contourInterval.default;
  if (typeof interval !== 'number' || !Number.isFinite(interval) || interval <= LIMITS.contourInterval.min || interval > LIMITS.contourInterval.max) {
    throw invalidArgument('contour_interval_m', `contour_interval_m must be a number above 0 and at most 200, got ${String(o.contour_interval_m)}`);
  }
  const surfaces = o.surfaces ?? [...SURFACE_LAYERS];
  for (const s of surfaces) if (!(SURFACE_LAYERS as readonly string[]).includes(s)) throw invalidArgument('surfaces', `surfaces takes ${SURFACE_LAYERS.join(', ')}, got ${JSON.stringify(String(s).slice(0, 60))}`);
  if (surfaces.length === 0) throw invalidArgument('surfaces', 'surfaces must name at least one of noise, heat, contours');
  const variant = o.variant ?? 'full';
  if (variant !== 'full' && variant !== 'core') throw invalidArgument('variant', `variant must be full or core, got ${String(variant)}`);
  if (o.components) validateComponents(o.components);
  return {
    components: o.components ?? null,
    school_radius_m,
    include_geometry: !!o.include_geometry,
    include_surfaces: !!o.include_surfaces,
    surfaces: [...new Set(surfaces)],
    noise_cells: cells as 5 | 7 | 9,
    noise_method: method,
    contour_interval_m: interval,
    contour_interval_requested: o.contour_interval_m !== undefined,
    include_nearby_zones: !!o.include_nearby_zones,
    nearby_zone_radius_m,
    licence: o.licence ?? FULL_LICENCE,
    variant,
    signal: o.signal,
    now: o.now ?? new Date(),
  };
}
