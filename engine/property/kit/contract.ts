/**
 * The contract between the property engine (engine.property) and its callers, the HTTP server above all:
 * the subject, the options of spec section 4, the licence a key carries, and what a lookup returns besides
 * the payload (the billing identity of the address, whether it may be charged, whether it is a sandbox
 * address).
 *
 * Failures are EngineErrors (engine/errors.ts). The server maps them in one table:
 * - `INVALID_ARGUMENT` (details.parameter names it) -> 422 with the parameter;
 * - `NOT_FOUND` with details.reason `address_unresolvable` (details.candidates) -> 422;
 * - `UNAVAILABLE` with details.component `address_resolution` -> 503 `address_resolution_unavailable`;
 * - `UNAVAILABLE` with details.component `development_applications` -> 503 `core_component_unavailable`
 *   (the DA block is never silently degraded: no payload, nothing charged);
 * - `FORBIDDEN` is not an engine code: licence checks that refuse a request (include_geometry without the
 *   geometry licence, a score-only key on /core) are the server's, made before calling the engine with
 *   {@link checkLicence}.
 */
import type { StateCode } from '../../catalogue/states.js';

/** The subject of a lookup: an address, or both coordinates (never a mix: DESIGN.md). */
export type PropertySubject = { address: string } | { lat: number; lng: number };

/** The payload blocks a licence or a `components` parameter can name (spec section 4). */
export const PROPERTY_BLOCKS = ['das', 'poi', 'planning', 'hazards', 'environment', 'transport', 'utilities', 'administrative', 'public_housing', 'scores'] as const;
/** One of {@link PROPERTY_BLOCKS}. */
export type PropertyBlock = (typeof PROPERTY_BLOCKS)[number];

/** The complete explicit Core component set a key needs for /core (every block except scores). */
export const CORE_BLOCKS: readonly PropertyBlock[] = ['das', 'poi', 'planning', 'hazards', 'environment', 'transport', 'utilities', 'administrative', 'public_housing'];

/** The surface layers of spec 2.7. */
export const SURFACE_LAYERS = ['noise', 'heat', 'contours'] as const;
/** One of {@link SURFACE_LAYERS}. */
export type SurfaceLayer = (typeof SURFACE_LAYERS)[number];

/** What a key is licensed for. */
export interface PropertyLicence {
  /** Blocks the key covers (`scores` included or not); dotted selectors narrow within them. */
  components: PropertyBlock[];
  /** The geometry licence: geometry, surfaces and the parcel boundary need it. */
  geometry: boolean;
}

/** A licence with everything (the CLI's default, and keys created with `--components all --geometry`). */
export const FULL_LICENCE: PropertyLicence = { components: [...PROPERTY_BLOCKS], geometry: true };

/** The options of `GET /api/v1/property` (spec section 4), already parsed into types. */
export interface PropertyOptions {
  /** Blocks and dotted selectors (`scores.noise`, `hazards.flood`); intersected with the licence, never expanding it. */
  components?: string[];
  /** Metres, 100-5000, default 500. */
  school_radius_m?: number;
  /** Default false; needs the geometry licence. */
  include_geometry?: boolean;
  /** Default false; needs the geometry licence. */
  include_surfaces?: boolean;
  /** Default all three. */
  surfaces?: SurfaceLayer[];
  /** 5, 7 (default) or 9. */
  noise_cells?: 5 | 7 | 9;
  /** The noise model's physics path for scores.noise and surfaces.noise: `cortn` (default) or `cnossos` (CNOSSOS-EU per octave band). */
  noise_method?: 'cortn' | 'cnossos';
  /** Above 0, at most 200; default 5. */
  contour_interval_m?: number;
  /** Default false. */
  include_nearby_zones?: boolean;
  /** Metres, 50-2000, default 200. */
  nearby_zone_radius_m?: number;
  /** The caller's licence; default {@link FULL_LICENCE}. */
  licence?: PropertyLicence;
  /** `full` (default) or `core` (the score-free closed contract of /core). */
  variant?: 'full' | 'core';
  /** Cancels the lookup (a closed connection). */
  signal?: AbortSignal;
  /** The request time (injectable for tests); default now. */
  now?: Date;
}

/** What `engine.property` returns. */
export interface PropertyResult {
  /** The spec payload, without `usage` (the server's meter adds it). */
  payload: Record<string, unknown>;
  /**
   * The billing identity of the address: one unique address per key per period. Stable for the same address
   * however it was asked for (text variants, or a coordinate resolving to it).
   */
  addressKey: string;
  /** The resolved address's state, when known. */
  state: StateCode | null;
  /** True for the never-metered sandbox addresses. */
  sandbox: boolean;
  /** False when the response must not be charged; `notChargedReason` says why (spec 2.8 `not_charged_reason`). */
  chargeable: boolean;
  notChargedReason?: string;
}

/** A payload ready to be finished per request. */
export interface PayloadBody {
  /** The payload up to the end of meta's last field. */
  prefix: Buffer;
  /** gzip header + raw deflate of `prefix`, sync-flushed. */
  gzPrefix: Buffer;
  /** CRC-32 of `prefix`. */
  crc: number;
  /** True when the engine already set `meta.not_charged_reason` (the server then adds none). */
  engineReason: boolean;
  /** Bytes held. */
  bytes: number;
}

/** A lookup's answer serialised where it was computed: what a server caches and finishes per request. */
export interface PropertyBody {
  body: PayloadBody;
  addressKey: string;
  /** The resolved address (null for a bare coordinate), for the meter's messages. */
  label: string | null;
  sandbox: boolean;
  chargeable: boolean;
  notChargedReason?: string;
  /** Epoch ms after which the answer may not be served from a cache ({@link payloadExpiry}). */
  expiresAt: number;
  /** The payload's `completeness` (only a `full` one is cached). */
  completeness: string;
}

/** Why a licence refuses a request: the server answers 403 with this. */
export interface LicenceRefusal {
  error: 'not_licensed';
  message: string;
  /** What was asked for that the key does not cover. */
  requested: string[];
}

/**
 * Checks a request against a licence before the lookup; null when it is allowed. Refused (the server's 403):
 * any lookup on a key without property components (a DA-listing key); include_geometry or include_surfaces without the geometry licence; /core on a key without the complete Core
 * component set; a `components` list none of whose blocks the key covers (a list that names some covered
 * blocks is narrowed to them instead, spec 4: "intersected with the licence; never expands it").
 */
export function checkLicence(options: Pick<PropertyOptions, 'include_geometry' | 'include_surfaces' | 'variant' | 'licence' | 'components'>): LicenceRefusal | null {
  const licence = options.licence ?? FULL_LICENCE;
  if (!licence.components.length) {
    // A key made for the DA listing alone (and the playground's demo key): no property lookup at all, not
    // a payload of nothing that would still be metered.
    return { error: 'not_licensed', message: 'this key covers no property component (it is a DA-listing key); a key made with `propintel keys create --components all` does', requested: ['property'] };
  }
  if (options.variant === 'core') {
    const absent = CORE_BLOCKS.filter((b) => !licence.components.includes(b));
    if (absent.length) {
      return { error: 'not_licensed', message: `this key does not cover the complete Core component set that /core requires (missing: ${absent.join(', ')})`, requested: [...absent] };
    }
  }
  const geometry: string[] = [];
  if (options.include_geometry && !licence.geometry) geometry.push('include_geometry');
  if (options.include_surfaces && !licence.geometry) geometry.push('include_surfaces');
  if (geometry.length) {
    return { error: 'not_licensed', message: `this key is not licensed for ${geometry.join(' and ')}: geometry and surfaces need the geometry licence`, requested: geometry };
  }
  const asked = (options.components ?? []).map((c) => c.trim().split('.')[0]).filter(Boolean);
  if (asked.length && !asked.some((b) => licence.components.includes(b as PropertyBlock))) {
    const blocks = [...new Set(asked)];
    return { error: 'not_licensed', message: `this key is not licensed for any of the requested components (${blocks.join(', ')}); it covers ${licence.components.join(', ') || 'none'}`, requested: blocks };
  }
  return null;
}

/** A row of `/api/v1/property/sandbox` (DESIGN.md). */
export interface SandboxAddress {
  address: string;
  state: StateCode;
  lat: number;
  lng: number;
  note: string;
}

/** The property service the HTTP server wraps (the engine implements it). */
export interface PropertyService {
  /** One lookup. Throws EngineError as described in the module comment. */
  property(subject: PropertySubject, options?: PropertyOptions): Promise<PropertyResult>;
  /** The sandbox addresses. */
  sandbox(): Promise<SandboxAddress[]>;
  /** A canned sample by name (`sample`, `core`, `walkability`, `flood`, `bushfire`, `context`, `contamination`), or null. */
  sample(name: string): Promise<unknown | null>;
  /**
   * A number that changes whenever data that is never cached (the DA records) changes. A caller holding
   * finished payloads (the server's response cache) keys them on it, so a DA upsert is seen at once.
   */
  dataRevision(): number;
  /**
   * What a lookup of `subject` would be billed as (address key, label, sandbox), resolving only the subject;
   * throws as `property` would for a bad, unresolvable or uncovered subject. Optional: a server without it
   * decides a quota refusal after the lookup.
   */
  identify?(subject: PropertySubject): Promise<{ addressKey: string; label: string | null; sandbox: boolean }>;
  /**
   * One lookup answered as its serialised body (payload-body.ts), made where the lookup ran (an engine thread),
   * with `metaExtra` appended to its meta. Optional: a server without it serialises `property`'s payload itself.
   */
  propertyBody?(subject: PropertySubject, options: PropertyOptions, metaExtra?: Record<string, unknown>): Promise<PropertyBody>;
}
