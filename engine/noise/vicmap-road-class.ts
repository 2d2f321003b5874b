/**
 * Road class for Vicmap Transport road centrelines, which carry no hierarchy field in the extract the engine
 * has (ROAD_TYPE is the street-type suffix, not a class): the class is inferred from the type, the feature
 * type and the length of the named road in the layer.
 *
 * Rule, first match wins:
 * 1. FTYPE_CODE `tunnel` or `foot_bridge`, or a path-like or pedestrian-space ROAD_TYPE (TRAIL, WALK, PATH,
 *    TRACK, WALKWAY, ARCADE, MALL, CONCOURSE, PLAZA): not a noise source (tunnels radiate nothing at the
 *    surface; paths and pedestrian spaces carry no motor traffic, and a long named concourse or plaza would
 *    otherwise reach rule 5 and take a collector's 5,000 vehicles a day).
 * 2. ROAD_TYPE, RD_TYPE1 or RD_TYPE2 FREEWAY, or a name containing FREEWAY, CITYLINK or TOLLWAY: motorway.
 * 3. RAMP or LINK types (motorway connectors), or HIGHWAY: arterial.
 * 4. A major street type (ROAD, PARADE, BOULEVARD, ESPLANADE, HIGHWAY) whose named road runs at least
 *    1,500 m in the layer: arterial; shorter: collector.
 * 5. Any other type whose named road runs at least 2,000 m: collector.
 * 6. Everything else (short streets, lanes, places, unnamed): local.
 * Each class then takes its {@link ROAD_CLASS_DEFAULTS} traffic, flagged as defaulted.
 */
import type { RoadClass } from './road-classes.js';

const NOT_TRAFFIC = new Set(['TRAIL', 'WALK', 'PATH', 'TRACK', 'WALKWAY', 'ARCADE', 'MALL', 'CONCOURSE', 'PLAZA']);
const MAJOR_TYPES = new Set(['ROAD', 'PARADE', 'BOULEVARD', 'ESPLANADE', 'HIGHWAY']);
const MOTORWAY_NAME = /FREEWAY|CITYLINK|TOLLWAY/;

/** Named roads at least this long (metres, summed over the layer) are arterials when of a major type. */
export const VICMAP_ARTERIAL_MIN_LENGTH_M = 1500;
/** Named roads at least this long (metres) are collectors. */
export const VICMAP_COLLECTOR_MIN_LENGTH_M = 2000;

function upper(v: unknown): string {
  return typeof v === 'string' ? v.toUpperCase() : '';
}

/**
 * The class of one Vicmap road feature, or null when it is not a noise source. `namedLengthM` is the total
 * length in metres of all features sharing its EZI_RDNAME in the layer (0 when unnamed).
 */
export function inferVicmapRoadClass(props: Record<string, unknown>, namedLengthM: number): RoadClass | null {
  const ftype = upper(props.FTYPE_CODE);
  const type = upper(props.ROAD_TYPE);
  const t1 = upper(props.RD_TYPE1);
  const t2 = upper(props.RD_TYPE2);
  const name = upper(props.EZI_RDNAME);
  if (ftype === 'TUNNEL' || ftype === 'FOOT_BRIDGE' || NOT_TRAFFIC.has(type)) return null;
  if (type === 'FREEWAY' || t1 === 'FREEWAY' || t2 === 'FREEWAY' || MOTORWAY_NAME.test(name)) return 'motorway';
  if (type === 'RAMP' || t1 === 'RAMP' || t2 === 'RAMP' || t2 === 'LINK' || type === 'HIGHWAY' || t1 === 'HIGHWAY' || t2 === 'HIGHWAY') return 'arterial';
  const named = name !== '' && name !== 'UNNAMED';
  if (MAJOR_TYPES.has(type)) return named && namedLengthM >= VICMAP_ARTERIAL_MIN_LENGTH_M ? 'arterial' : 'collector';
  if (named && namedLengthM >= VICMAP_COLLECTOR_MIN_LENGTH_M) return 'collector';
  return 'local';
}
