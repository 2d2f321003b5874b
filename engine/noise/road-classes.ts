/**
 * The four road classes of the noise model and the traffic a road of each class is assumed to carry when its
 * own volume, heavy share or speed is unknown (crowd-sourced networks usually have none of them).
 *
 * The defaults are engineering values, flagged in every output that uses them, never silent:
 * - volumes sit inside the bands commonly used for the Australian functional road hierarchy (local streets
 *   up to about 2,000-3,000 vehicles/day, collectors about 3,000-10,000, arterials above 10,000, urban
 *   motorways 40,000 and more; cf. Austroads Guide to Traffic Management Part 4 and state road hierarchy
 *   guidelines; the bands were not checked against the primary texts here);
 * - speeds are typical posted limits: the default urban limit of 50 km/h (Australian Road Rules r. 25) for
 *   local and collector streets, 60 km/h for urban arterials, 100 km/h for motorways;
 * - heavy shares are typical of urban counts by class.
 * Half-widths place CoRTN's source line: the nearside carriageway edge is this far from the centreline.
 * A road with class defaults typically carries +-3 dB of extra uncertainty (a factor of 2 in volume).
 */
import { invalidArgument } from '../errors.js';

/** The road classes, loudest first. */
export const ROAD_CLASSES = ['motorway', 'arterial', 'collector', 'local'] as const;
/** One of {@link ROAD_CLASSES}. */
export type RoadClass = (typeof ROAD_CLASSES)[number];

/** Traffic assumed for a class when a road's own data are missing. */
export interface RoadClassDefaults {
  /** Annual average daily traffic, vehicles/day. */
  aadt: number;
  /** Share of heavy vehicles, 0-1. */
  heavyShare: number;
  /** Mean traffic speed, km/h. */
  speedKmh: number;
  /** Centreline to nearside carriageway edge, metres (places the CoRTN source line). */
  halfWidthM: number;
}

/** Class defaults (see the module comment for where the numbers come from). */
export const ROAD_CLASS_DEFAULTS: Readonly<Record<RoadClass, Readonly<RoadClassDefaults>>> = Object.freeze({
  motorway: Object.freeze({ aadt: 60_000, heavyShare: 0.08, speedKmh: 100, halfWidthM: 11 }),
  arterial: Object.freeze({ aadt: 20_000, heavyShare: 0.05, speedKmh: 60, halfWidthM: 7 }),
  collector: Object.freeze({ aadt: 5_000, heavyShare: 0.03, speedKmh: 50, halfWidthM: 5.5 }),
  local: Object.freeze({ aadt: 1_000, heavyShare: 0.02, speedKmh: 50, halfWidthM: 3.5 }),
});

/** True when `value` is one of the road classes. */
export function isRoadClass(value: unknown): value is RoadClass {
  return typeof value === 'string' && (ROAD_CLASSES as readonly string[]).includes(value);
}

/** The defaults of a class; INVALID_ARGUMENT for an unknown class. */
export function roadClassDefaults(roadClass: string): Readonly<RoadClassDefaults> {
  if (!isRoadClass(roadClass)) throw invalidArgument('road_class', `road_class must be one of ${ROAD_CLASSES.join(', ')}, got ${JSON.stringify(roadClass)}`);
  return ROAD_CLASS_DEFAULTS[roadClass];
}
