/**
 * The closed set of payload paths a catalogue source may feed: the blocks and items of spec section 2 that
 * the engine fills from data, plus the inputs of the scores and surfaces (`scores.noise.sources` and the
 * like). A catalogue naming any other path is rejected, so a typo cannot silently orphan a source.
 */

export const PAYLOAD_PATHS = [
  // resolved (2.2)
  'resolved.address',
  'resolved.parcel',
  // development applications (2.3)
  'development_applications',
  // planning (2.4)
  'planning.zone',
  'planning.zones_nearby',
  'planning.overlay',
  'planning.heritage',
  'planning.easement',
  'planning.growth_area',
  // hazards (2.1)
  'hazards.flood',
  'hazards.bushfire',
  'hazards.contamination',
  // environment (2.1)
  'environment.protected_areas',
  'environment.epbc_mnes',
  'environment.aboriginal_heritage',
  'environment.soils',
  'environment.bioregions',
  'environment.contaminated_nearby',
  'environment.historical_business_nearby',
  'environment.soil_regional',
  'environment.threatened_species',
  'environment.landfill',
  'environment.landfill_nearby',
  'environment.groundwater_restricted',
  'environment.groundwater_vulnerability',
  'environment.licensed_activity',
  'environment.licensed_activity_nearby',
  // poi (2.5)
  'poi.schools_500m',
  'poi.school_catchments',
  // transport, utilities (2.1)
  'transport.rail_station',
  'transport.rail_line',
  'transport.pt_stop',
  'transport.airport',
  'utilities.power',
  'utilities.gas',
  'utilities.oil',
  'utilities.water_main',
  'utilities.sewer_main',
  // administrative, public housing, other layers (2.1)
  'administrative.lga',
  'administrative.electorate',
  // State and territory boundaries (ABS STE): they locate a point's state where no council area does; no block.
  'administrative.state',
  'public_housing.sa2',
  'public_housing.sa1',
  'other_layers.sa2_approval',
  // score inputs (2.6)
  'scores.noise.roads',
  'scores.noise.sources',
  'scores.noise.rail',
  'scores.noise.validation',
  'scores.flood.terrain',
  'scores.flood.water',
  'scores.flood.rainfall',
  'scores.flood.study_depth',
  'scores.flood.hazard_class',
  'scores.bushfire.vegetation',
  'scores.bushfire.fire_history',
  'scores.heat_island',
  'scores.solar',
  'scores.walkability.amenities',
  'scores.walkability.crossings',
  'scores.walkability.barriers',
  'scores.walkability.water',
  // The DEM the context scores read once: view quality, and the slope of bushfire and walkability.
  'scores.view_quality',
  'scores.contamination',
  'scores.aircraft_noise',
  // surfaces (2.7)
  'surfaces.noise',
  'surfaces.heat',
  'surfaces.contours',
  // childcare site analysis (da-and-childcare 2.3): suburb census context, a suburb fact
  'childcare.suburb_demographics',
] as const;

/** One of {@link PAYLOAD_PATHS}. */
export type PayloadPath = (typeof PAYLOAD_PATHS)[number];

const SET: ReadonlySet<string> = new Set(PAYLOAD_PATHS);

/** True when `p` is a known payload path. */
export function isPayloadPath(p: unknown): p is PayloadPath {
  return typeof p === 'string' && SET.has(p);
}

/** The payload paths under a block or dotted prefix (`'environment'` -> every environment.* path). */
export function pathsUnder(prefix: string): PayloadPath[] {
  return PAYLOAD_PATHS.filter((p) => p === prefix || p.startsWith(`${prefix}.`));
}
