/* eslint-disable */
/**
 * The property payloads (engine/property/schema.ts): their TypeScript types, generated from those JSON Schemas by scripts/gen-payload-types.ts
 * with json-schema-to-typescript. Do not edit: change the schema and rerun `npx tsx scripts/gen-payload-types.ts`
 * (test/engine/property/payload-types.test.ts fails until you do). Objects the schema leaves open (a
 * publisher's native `properties`) are open (`[k: string]: unknown`); every object it closes is closed here,
 * so reading a field a response does not have fails to compile.
 */

/**
 * One of  `COMPASS_8` .
 */
export type Compass8 = "N" | "NE" | "E" | "SE" | "S" | "SW" | "W" | "NW";
/**
 * Where a feature's traffic came from.
 */
export type TrafficBasis = "counter" | "attribute" | "default";
/**
 * The two model paths.
 */
export type NoiseModelPath = "transfer" | "physics";
/**
 * One of  `LEVELS` .
 */
export type Level = "very_low" | "low" | "moderate" | "high" | "very_high" | "unknown";
/**
 * AIDR 2017 / ARR hazard vulnerability classes.
 */
export type HazardClass = "H1" | "H2" | "H3" | "H4" | "H5" | "H6";
/**
 * One of  `OFFICIAL_LAYER_VALUES` .
 */
export type OfficialLayer = "hit" | "checked_no_hit" | "checked_partial_coverage" | "none";
/**
 * Per-state coverage of an overlay source, from the catalogue: complete, partial, or none held.
 */
export type OverlayCoverage = "complete" | "partial" | "none";
/**
 * Status of one input in `coverage` (spec 2.6).
 */
export type BushfireCoverageStatus = "returned" | "unavailable" | "not_integrated";
/**
 * Status of the preliminary (indicative) BAL in the delivery contract.
 */
export type PreliminaryBalStatus =
  | "indicative_screening"
  | "indicative_screening_coordinate_only"
  | "not_computed_vegetation_unavailable"
  | "not_computed_vegetation_not_integrated"
  | "method_1_not_applicable";
/**
 * One of  `BAL_BANDS` .
 */
export type BalBand = "BAL-LOW" | "BAL-12.5" | "BAL-19" | "BAL-29" | "BAL-40" | "BAL-FZ";
/**
 * One of  `SLOPE_CLASSES` .
 */
export type SlopeClass =
  "upslope_or_flat" | "downslope_0_5" | "downslope_5_10" | "downslope_10_15" | "downslope_15_20" | "downslope_over_20";
/**
 * One of  `VEGETATION_CLASSES` .
 */
export type VegetationClass =
  "forest" | "woodland" | "shrubland" | "scrub" | "mallee_mulga" | "rainforest" | "grassland" | "low_threat";
/**
 * One of  `TABLE_FDIS` .
 */
export type TableFdi = 100 | 80 | 50 | 40;
/**
 * `official_zone_status` values (the flood score's `official_layer` vocabulary plus `unavailable`).
 */
export type OfficialZoneStatus = "hit" | "checked_no_hit" | "checked_partial_coverage" | "none" | "unavailable";
/**
 * Whether an input answered.
 */
export type UnavailableLayerStatus = "unavailable" | "not_integrated";
/**
 * One of  `WALK_CATEGORIES` .
 */
export type WalkCategory =
  "grocery" | "cafe_restaurant" | "pharmacy" | "health" | "park" | "library_community" | "school" | "public_transport";
/**
 * How a check answered.
 */
export type CheckStatus = "answered" | "degraded" | "not_integrated";
/**
 * A Position is an array of coordinates.
 */
export type Position = number[];
/**
 * `epa_status` values.
 */
export type EpaStatus =
  "site_at_subject" | "sites_nearby" | "checked_clear" | "checked_partial_coverage" | "not_integrated" | "unavailable";
/**
 * Coverage of a state's register.
 */
export type RegisterCoverage = "complete" | "partial" | "not_integrated";
/**
 * GDAL-order transform whose cell centres are the nodes (row 0 north).
 *
 * @minItems 6
 * @maxItems 6
 */
export type GeoTransform = [number, number, number, number, number, number];
/**
 * What a land-cover class does to neighbourhood heat.
 */
export type HeatDriverRole = "cooling" | "heat_source" | "neutral";
/**
 * GDAL geotransform of the grid in `crs`.
 *
 * @minItems 6
 * @maxItems 6
 */
export type GeoTransform1 = [number, number, number, number, number, number];
/**
 * Either form of the layer.
 */
export type ContoursLayer = ContoursAvailable | ContoursUnavailable;

export type PropertyPayload = {
  query: {
    address: string | null;
    lat: number;
    lng: number;
  };
  resolved: {
    address: string | null;
    point: {
      lat: number;
      lng: number;
    };
    candidates: {
      [k: string]: unknown;
    }[];
    match_confidence: number | null;
    match_warnings: ("state_mismatch" | "postcode_mismatch" | "locality_unverified" | "low_text_match")[];
    match_note: string;
    parcel: null | {
      pfi: string | null;
      spi: string | null;
      lot: string | null;
      plan: string | null;
      lga: string | null;
      source?: string;
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    };
  };
  development_applications?: {
    on_parcel?: DaItem[];
    nearby_300m?: DaItem[];
  };
  planning?: {
    zone?: PlanningItem[];
    overlay?: PlanningItem[];
    heritage?: PlanningItem[];
    easement?: PlanningItem[];
    growth_area?: PlanningItem[];
    zones_nearby?: PlanningItem[];
  };
  hazards?: {
    flood?: {
      source: string;
      state: string;
      kind?: string;
      code?: string | null;
      label?: string | null;
      verified?: boolean;
      response_path?: string;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    bushfire?: LayerItem[];
    contamination?: LayerItem[];
  };
  environment?: {
    protected_areas?: LayerItem[];
    epbc_mnes?: LayerItem[];
    aboriginal_heritage?: LayerItem[];
    soils?: LayerItem[];
    bioregions?: LayerItem[];
    contaminated_nearby?: LayerItem[];
    historical_business_nearby?: LayerItem[];
    soil_regional?: LayerItem[];
    threatened_species?: LayerItem[];
    landfill?: LayerItem[];
    landfill_nearby?: LayerItem[];
    groundwater_restricted?: LayerItem[];
    groundwater_vulnerability?: LayerItem[];
    licensed_activity?: LayerItem[];
    licensed_activity_nearby?: LayerItem[];
  };
  poi?: {
    schools_500m?: LayerItem[];
    school_catchments?: {
      feature_type: string;
      school_name: string | null;
      catchment_type: string | null;
      school_type: string | null;
      school_sector: string | null;
      year_levels: string | null;
      school_location: null | {
        lat: number;
        lng: number;
        source: string;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    /**
     * @maxItems 0
     */
    childcare_500m?: [];
    childcare_500m_status?: "withheld_pending_publisher_consent";
  };
  transport?: {
    rail_station?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    rail_line?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    pt_stop?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    airport?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
  };
  utilities?: {
    power?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    gas?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    oil?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    water_main?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    sewer_main?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
  };
  administrative?: {
    lga?: LayerItem[];
    electorate?: LayerItem[];
  };
  public_housing?: {
    sa2?: LayerItem[];
    sa1?: LayerItem[];
  };
  other_layers?: {
    sa2_approval?: LayerItem[];
  };
  /**
   * Screening scores by key, each with its level, components and provenance (only those asked for and computed).
   */
  scores?: {
    noise?: NoiseScore;
    flood?: FloodScore;
    bushfire?: BushfireScore;
    heat_island?: HeatIslandScore;
    solar?: SolarScore;
    walkability?: WalkabilityScore;
    view_quality?: ViewQualityScore;
    contamination?: ContaminationScore;
    aircraft_noise?: AircraftNoiseScore;
  };
  /**
   * Computed surfaces by layer (with include_surfaces).
   */
  surfaces?: {
    noise?: NoiseSurface;
    heat?: HeatSurface;
    contours?: ContoursLayer;
  };
  meta: {
    coverage_status: {
      [k: string]: {
        status: "data_returned" | "checked_clear" | "unavailable" | "not_assessed";
        feature_count: number;
        lookup_complete: boolean;
      };
    };
    coverage_notes: {
      [k: string]: string;
    };
    components_status: {
      [k: string]: "ok" | "failed" | "not_run";
    };
    common_core: {
      version: "1.0";
      planning_fields: string[];
      school_catchment_fields: string[];
    };
    licensed_components: string[];
    product_contract?: {
      name: string;
      included_components: string[];
      schema_version: string;
      geometry_policy: string;
    };
    attribution: {
      sources: {
        source: string;
        paths: string[];
        attribution: string;
        licence: string;
        obligation_status: "none" | "attribution_required" | "schedule_required" | "share_alike" | "withheld";
      }[];
      source_inventory_complete: boolean;
      obligations_complete_in_response: boolean;
      sources_requiring_licence_schedule: string[];
      rule: string;
    };
    geometry: {
      [k: string]: string;
    };
    noise_sources?: string[];
    amenity_sources?: {
      sources: string[];
      openstreetmap_categories: string[];
    };
    surfaces?: {
      attribution: {
        [k: string]: string[];
      };
      delivered_layers: ("noise" | "heat" | "contours")[];
      unavailable: {
        [k: string]: {
          [k: string]: unknown;
        };
      };
    };
    zones: {
      nearby_search_radius_m: number | null;
    };
    as_at: {
      [k: string]: string;
    };
    source_currency: {
      [k: string]: {
        [k: string]: unknown;
      };
    };
    api: {
      major_version: "v1";
      score_model_version: "v1";
    };
    not_charged_reason?: string;
    documentation?: {
      version: string;
      hash: string;
    };
  };
  usage?: {
    unique_addresses_this_period: number;
    period_quota: number;
    billing_period_key: string;
    period_kind: "calendar" | "anchored";
    resets_at: string;
    charged: boolean;
    unique_addresses_this_month: number;
    monthly_quota: number;
    billing_month: string;
  };
  completeness: "full" | "partial";
  degraded_components?: string[];
};
export type DaItem = {
  id: number;
  ref: string;
  address: string;
  suburb: string;
  state: string;
  council: string;
  description: string;
  /**
   * @minItems 1
   */
  categories: [string, ...string[]];
  category: string;
  status: string;
  lodged: string;
  lat: number;
  lng: number;
  distance_km: number;
  residential: boolean;
  cost?: number;
  cost_band: string | null;
  estimated_value_band: string;
  council_url: string;
  council_url_type: "application_record" | "search_entry";
  last_fetched_at: string;
};
export type PlanningItem = {
  source: string;
  state: string | null;
  core: {
    feature_type: string | null;
    code: string | null;
    name: string | null;
    description: string | null;
    scheme: string | null;
  };
  parcel_share?: number | null;
  distance_m?: number;
  direction?: "N" | "NE" | "E" | "SE" | "S" | "SW" | "W" | "NW";
  geometry_clip_radius_m?: number;
  properties: {
    [k: string]: unknown;
  };
  geometry?: {
    type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
    [k: string]: unknown;
  };
  geometry_omitted?: string;
};
export type LayerItem = {
  source: string;
  state: string | null;
  distance_km?: number;
  lat?: number;
  lng?: number;
  properties: {
    [k: string]: unknown;
  };
  geometry?: {
    type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
    [k: string]: unknown;
  };
  geometry_omitted?: string;
};
/**
 * The `scores.noise` object.
 */
export type NoiseScore = {
  /**
   * When the sources were looked up (meta.as_at `scores.noise.sources`).
   */
  as_at: string;
  components: {
    aircraft: NumberComponent;
    rail: NumberComponent;
    road: NumberComponent;
    tram: NumberComponent;
  };
  confidence_basis: string;
  confidence_half_width_db: number;
  /**
   * [low, high] Lden, dB.
   */
  confidence_range_db: [number, number] | null;
  /**
   * Features within range whose traffic took class or mode defaults.
   */
  defaults_used: {
    count: number;
    note: string | null;
  };
  /**
   * 8-point compass direction of the dominant contribution (null for aircraft or nothing).
   */
  direction: Compass8 | null;
  dominant_road: DominantRoad | null;
  dominant_source: DominantSource | null;
  /**
   * Modelled Lden at the subject, dB, by `lden_source`.
   */
  lden_db: number | null;
  lden_source: NoiseModelPath;
  level: Level;
  measured_validation: MeasuredValidation;
  model: {
    crs: string;
    ground_cover: number;
    max_distance_m: number;
    method: string;
    /**
     * The physics path's propagation: `cortn` (the default) or `cnossos` (CNOSSOS-EU per octave band; docs/noise-cnossos.md).
     */
    physics_method?: "cortn" | "cnossos";
    receiver_height_m: number;
  };
  /**
   * Why that path answered.
   */
  path_reason: string;
  /**
   * Physics-path period levels of road, rail and tram (ANEF gives no period split), dB.
   */
  periods_db: {
    ld: number | null;
    le: number | null;
    ln: number | null;
    path: "physics";
  };
  /**
   * The physics path's Lden of every source, always shown, dB.
   */
  physics_lden_db: number | null;
  /**
   * 0-100, 100 = loudest (null when no source is modelled within range).
   */
  score: number | null;
  search_radius_m: number;
  /**
   * Catalogue source ids of every record used (for meta.noise_sources and attribution).
   */
  source_ids: string[];
  sources: NoiseSourceRow[];
  /**
   * The transfer relation used (transfer path only). It is calibrated on road noise and applied to the physics road Lden (`physics_road_lden_db` -> `road_lden_db`); rail, tram and aircraft are energy-summed onto it unscaled, so `lden_db` is the energy sum of the four components.
   */
  transfer: {
    a: number;
    b: number;
    counter_distance_m: number;
    counter_id: string;
    counter_source: string;
    fit: "offset" | "linear";
    loo_rmse_db: number | null;
    n_pairs: number;
    /**
     * The relation's input: physics road Lden at the subject, dB.
     */
    physics_road_lden_db: number | null;
    /**
     * The relation's output: calibrated road Lden, dB (= components.road.value).
     */
    road_lden_db: number | null;
  } | null;
};
/**
 * One input of a score, with its provenance.
 */
export type NumberComponent = {
  /**
   * What the value does not tell you, in one sentence.
   */
  caveat: string;
  /**
   * Band of this component's contribution to the score (see  `levelOf` ).
   */
  level: "very_low" | "low" | "moderate" | "high" | "very_high" | "unknown";
  /**
   * Spatial resolution of the data behind the value, metres (e.g. 5 for the 5 m DEM, 1000 for 1 km LST); null when not gridded.
   */
  resolution: number | null;
  /**
   * Source id from the dataset catalogue; null when the input was unavailable.
   */
  source: string | null;
  /**
   * Unit of `value` (e.g. "m", "dB", "mm", "km2", "count", "share"); null for unitless labels.
   */
  unit: string | null;
  /**
   * The input's value in `unit` (null when unavailable).
   */
  value: number | null;
};
/**
 * The loudest crowd-sourced road (reported only when no counter is in range).
 */
export type DominantRoad = {
  closest_point: ClosestPoint;
  defaulted: string[];
  direction: Compass8;
  distance_m: number;
  lden_db: number | null;
  name: string;
  road_class: string | null;
  road_id: string;
  source: string;
  traffic_basis: TrafficBasis;
};
/**
 * A point with its lon/lat.
 */
export type ClosestPoint = {
  lat: number;
  lng: number;
};
/**
 * The loudest contribution at the subject.
 */
export type DominantSource = {
  closest_point: ClosestPoint | null;
  crowd_sourced: boolean;
  direction: Compass8 | null;
  /**
   * True distance to its closest approach, metres (null for aircraft).
   */
  distance_m: number | null;
  id: string;
  kind: "road" | "rail" | "tram" | "aircraft";
  /**
   * Lden of this source alone at the subject, dB (physics path).
   */
  lden_db: number | null;
  name: string;
  source: string;
};
/**
 * The `measured_validation` block of scores.noise.
 */
export type MeasuredValidation = {
  /**
   * Mean of predicted minus measured, dB.
   */
  bias_db: number | null;
  max_abs_error_db: number | null;
  mean_abs_error_db: number | null;
  method: string;
  /**
   * Loggers compared.
   */
  n: number;
  /**
   * Set when there is nothing to validate against.
   */
  note: string | null;
  paths: NoiseModelPathShares;
  /**
   * State or territory the loggers are from (null when unknown).
   */
  state: string | null;
};
/**
 * Predictions per path.
 */
export type NoiseModelPathShares = {
  physics: number;
  transfer: number;
};
/**
 * One measured road or rail source near the subject.
 */
export type NoiseSourceRow = {
  aadt: number | null;
  /**
   * True for the few rows listed from just beyond `search_radius_m`.
   */
  beyond_search_radius: boolean;
  closest_point: ClosestPoint;
  counter_id: string | null;
  /**
   * Fields that took class or mode defaults (flagged, never silent).
   */
  defaulted: string[];
  direction: Compass8;
  distance_m: number;
  heavy_share: number | null;
  id: string;
  kind: "road" | "rail" | "tram";
  /**
   * Lden of this source alone at the subject, dB (null beyond the model's range).
   */
  lden_db: number | null;
  name: string;
  road_class: string | null;
  services_day: number | null;
  source: string;
  speed_kmh: number;
  traffic_basis: TrafficBasis;
};
/**
 * scores.flood.
 */
export type FloodScore = {
  caveat: string;
  completeness: "full" | "partial";
  components: {
    design_rainfall: NumberComponent;
    hand: NumberComponent;
    official_overlay: TextComponent;
    study_depth: NumberComponent;
    water_distance: NumberComponent;
  };
  /**
   * Inputs whose lookup failed.
   */
  degraded_components: string[];
  /**
   * Official 1 % AEP modelled depth, metres: only where a study raster covers the address.
   */
  flood_depth?: {
    aep: "1%";
    resolution_m: number;
    source: string;
    value_m: number;
  };
  /**
   * H1-H6 hazard class from the study, as evidence only (never converted to metres).
   */
  hazard_class?: {
    note: string;
    source: string;
    value: HazardClass;
  };
  level: Level;
  method: {
    /**
     * Half-width of the HAND analysis that answered, metres (before its buffer).
     */
    analysis_half_width_m: number | null;
    burned_watercourses: boolean;
    channel_threshold_km2: number | null;
    /**
     * The floor applied, if any.
     */
    floor: number | null;
    /**
     * The indicative 1 % AEP flood height above the nearest drainage, metres (terrain term).
     */
    indicative_flood_height_m: number | null;
    sub_scores: FloodEvidenceWeights;
    weights: FloodWeights;
  };
  /**
   * The channel cell the subject drains to, from the HAND analysis.
   */
  nearest_drainage: NearestDrainage | null;
  official_layer: OfficialLayer;
  official_layer_note: string | null;
  overlay_basis: OverlayBasis;
  /**
   * 0-100, 100 most flood-prone; null when no input was available.
   */
  score: number | null;
};
/**
 * One input of a score, with its provenance.
 */
export type TextComponent = {
  /**
   * What the value does not tell you, in one sentence.
   */
  caveat: string;
  /**
   * One of  `LEVELS` .
   */
  level: "very_low" | "low" | "moderate" | "high" | "very_high" | "unknown";
  /**
   * Spatial resolution of the data behind the value, metres (e.g. 5 for the 5 m DEM, 1000 for 1 km LST); null when not gridded.
   */
  resolution: number | null;
  /**
   * Source id from the dataset catalogue; null when the input was unavailable.
   */
  source: string | null;
  /**
   * Unit of `value` (e.g. "m", "dB", "mm", "km2", "count", "share"); null for unitless labels.
   */
  unit: string | null;
  /**
   * The input's value in `unit` (null when unavailable).
   */
  value: string | null;
};
/**
 * Weighted sub-scores that were available, 0-100.
 */
export type FloodEvidenceWeights = {
  overlay?: number;
  study?: number;
  terrain?: number;
  water?: number;
};
/**
 * The four sub-scores' weights.
 */
export type FloodWeights = {
  overlay: number;
  study: number;
  terrain: number;
  water: number;
};
/**
 * The nearest drainage of the subject: the channel cell its flow path reaches first.
 */
export type NearestDrainage = {
  /**
   * Bearing from the subject, degrees clockwise from north.
   */
  bearing_deg: number;
  /**
   * True when its catchment reaches the edge of the analysed area: the area is then a lower bound.
   */
  catchment_truncated: boolean;
  /**
   * `mapped` when the cell lies on a burned-in mapped watercourse, else `modelled`.
   */
  channel_source: "mapped" | "modelled";
  compass: Compass8;
  /**
   * Catchment of the drainage cell, km2.
   */
  contributing_area_km2: number;
  /**
   * Straight-line distance from the subject, metres.
   */
  distance_m: number;
  /**
   * Its elevation (filled surface), metres.
   */
  elevation_m: number;
  lat: number;
  /**
   * Centre of the drainage cell, degrees.
   */
  lon: number;
};
/**
 * Which overlays the flood score rests on.
 */
export type OverlayBasis = {
  /**
   * The sources checked for the subject's state.
   */
  sources: {
    coverage: OverlayCoverage;
    source: string;
    used_in_score: boolean;
    verified: boolean;
  }[];
  /**
   * `verified_statewide`: a verified source covers the whole state; `verified_partial`: verified sources cover part of it; `unverified_only`: only unverified sources are held (not used in the score); `no_source`.
   */
  status: "verified_statewide" | "verified_partial" | "unverified_only" | "no_source";
};
/**
 * `scores.bushfire`.
 */
export type BushfireScore = {
  caveat: string;
  components: {
    fire_history: NumberComponent;
    official_overlay: TextComponent;
    terrain_slope: NumberComponent;
    vegetation_fuel: NumberComponent;
  };
  coverage: {
    fire_history: BushfireCoverageStatus;
    official_overlay: BushfireCoverageStatus;
    terrain_slope: BushfireCoverageStatus;
    vegetation_fuel: BushfireCoverageStatus;
  };
  delivery_contract: {
    bal_derived_from_score: false;
    official_and_modelled_kept_separate: true;
    preliminary_bal: {
      included: boolean;
      status: PreliminaryBalStatus;
    };
    subject_identity: {
      address: string | null;
      kind: "resolved_address_on_parcel" | "resolved_address_not_on_parcel" | "coordinate_only";
      note: string;
      parcel_id: string | null;
      resolved_address_on_parcel: boolean;
    };
  };
  disclaimer: string;
  indicative_bal: IndicativeBal | null;
  label: string;
  level: Level;
  official_zone_status: OfficialZoneStatus;
  overlay_basis: {
    hits: {
      category:
        "bushfire_management_overlay" | "bushfire_prone_area" | "bush_fire_prone_land" | "mapped_bushfire_prone";
      properties: OpenProperties;
      source: string;
    }[];
    kind: "official_mapping" | "no_official_mapping_held" | "official_lookup_unavailable";
    note: string;
    source: string | null;
    state: string | null;
    state_coverage: "complete" | "partial" | null;
  };
  /**
   * Modelled 0-100 exposure; null when the vegetation input did not answer.
   */
  score: number | null;
  sources: string[];
};
/**
 * The indicative BAL (spec 2.6 `indicative_bal`).
 */
export type IndicativeBal = {
  assumptions: string[];
  bal: BalBand;
  confidence: "low" | "moderate" | "high";
  /**
   * The vegetation that sets the BAL; null when no classified vegetation is within 100 m.
   */
  determining_vegetation: {
    distance_m: number;
    effective_slope_deg: number | null;
    slope_class: SlopeClass;
    source: string;
    veg_class: VegetationClass;
  } | null;
  fdi: TableFdi;
  fdi_basis: string;
  method: "AS 3959-2009 Method 1";
  /**
   * Lower and upper band over the distance and slope tolerances.
   *
   * @minItems 2
   * @maxItems 2
   */
  range: [BalBand, BalBand];
  table: string;
};
export type OpenProperties = {
  [k: string]: unknown;
};
/**
 * `scores.heat_island`.
 */
export type HeatIslandScore = {
  /**
   * lst_c minus the regional mean, degrees C.
   */
  anomaly_c: number | null;
  baseline_cells: number;
  caveat: string;
  components: {
    cooling_cover_share: NumberComponent;
    heat_source_share: NumberComponent;
    land_surface_temperature: NumberComponent;
    regional_baseline: NumberComponent;
  };
  land_cover_role: "explanatory_only";
  level: Level;
  /**
   * Neighbourhood LST, degrees C.
   */
  lst_c: number | null;
  method_note: string;
  /**
   * Regional mean LST, degrees C.
   */
  regional_mean_lst_c: number | null;
  /**
   * 0-100, higher is hotter than the region; null when LST did not answer.
   */
  score: number | null;
  sources: string[];
  status: "computed" | UnavailableLayerStatus | "no_lst_at_subject" | "insufficient_regional_baseline";
};
/**
 * `scores.solar`.
 */
export type SolarScore = {
  caveat: string;
  components: {
    dni: NumberComponent;
    ghi: NumberComponent;
    optimum_tilt: NumberComponent;
    pvout: NumberComponent;
  };
  dni_kwh_m2_day: number | null;
  ghi_kwh_m2_day: number | null;
  level: Level;
  method_note: string;
  optimum_tilt_deg: number | null;
  pvout_kwh_kwp_day: number | null;
  /**
   * 0-100, higher is more resource; null when neither PVOUT nor GHI answered.
   */
  score: number | null;
  /**
   * Which layer the score rests on.
   */
  score_basis: "pvout" | "ghi" | null;
  sources: string[];
};
/**
 * `scores.walkability`.
 */
export type WalkabilityScore = {
  adjustments: {
    barrier_penalty_m: number;
    crossing_tolerance_m: number;
    regional_gradient: number | null;
    slope_factor: number;
  };
  category_scores: WalkCategoryScores;
  caveat: string;
  components: {
    major_water_barrier: NumberComponent;
    motorway_barrier: NumberComponent;
    regional_slope: NumberComponent;
  };
  coverage: {
    amenities: {
      degraded_categories: WalkCategory[];
      sets: {
        name: string;
        reason: string | null;
        sources: string[];
        status: CheckStatus;
      }[];
      status: CheckStatus;
    };
    crossing_points: {
      reason: string | null;
      source: string | null;
      status: CheckStatus;
    };
    major_water_check: {
      penalised_amenities: number;
      reason: string | null;
      source: string | null;
      status: CheckStatus;
    };
    motorway_check: {
      penalised_amenities: number;
      reason: string | null;
      source: string | null;
      status: CheckStatus;
    };
    regional_slope: {
      reason: string | null;
      source: string | null;
      status: CheckStatus;
    };
  };
  delivery_contract: {
    cache_policy: "long_lived" | "do_not_pin";
    /**
     * False when any check degraded: the long-lived score cache must not keep this result.
     */
    cacheable: boolean;
    degraded_checks: string[];
    geometry: "included" | "omitted";
    straight_line_only: true;
  };
  disclaimer: string;
  level: Level;
  /**
   * Categories drawing on the crowd-sourced dataset in this result.
   */
  osm_amenity_categories: WalkCategory[];
  scenarios: WalkScenario[];
  /**
   * 0-100, higher is more walkable; null when no amenity data answered.
   */
  score: number | null;
  screening_contract: {
    adjustments: string[];
    bands: {
      band_m: number;
      minutes: number;
    }[];
    categories: WalkCategory[];
    distance_decay: string;
    method: "straight_line_distance_bands";
    not_included: string[];
    scenario_count: 24;
    walking_speed_m_per_min: number;
    weighting: string;
  };
  sources: string[];
  walking_areas?: WalkingAreas;
};
export type WalkCategoryScores = {
  cafe_restaurant: CategoryScore;
  grocery: CategoryScore;
  health: CategoryScore;
  library_community: CategoryScore;
  park: CategoryScore;
  pharmacy: CategoryScore;
  public_transport: CategoryScore;
  school: CategoryScore;
};
/**
 * A category's score and its evidence.
 */
export type CategoryScore = {
  /**
   * Counted amenities whose straight line was penalised for a barrier.
   */
  barrier_penalised: number;
  component: NumberComponent;
  /**
   * Amenities that earned points (at most the number of rank weights).
   */
  counted: number;
  /**
   * True when a counted or banded amenity of the category came from the crowd-sourced dataset.
   */
  crowd_sourced: boolean;
  level: Level;
  /**
   * Adjusted metres to the best-placed amenity, else null.
   */
  nearest_adjusted_m: number | null;
  nearest_id?: string | null;
  /**
   * Index of the nearest amenity in the amenity index (for naming it on the main thread).
   */
  nearest_index: number | null;
  /**
   * Straight-line metres to the nearest amenity of the category (within 2,400 m), else null.
   */
  nearest_m: number | null;
  /**
   * Name and id of the nearest amenity when labels are at hand.
   */
  nearest_name?: string | null;
  /**
   * Rank weights applied to the nearest amenities.
   */
  rank_weights: number[];
  /**
   * 0-100; null when the category's data did not answer.
   */
  score: number | null;
  /**
   * The category's maximum points (sum of its rank weights).
   */
  weight: number;
};
/**
 * One of the 24 scenarios.
 */
export type WalkScenario = {
  band_m: number;
  category: WalkCategory;
  /**
   * Amenities of the category within the band, straight-line.
   */
  count: number;
  /**
   * e.g. `grocery_400m`.
   */
  id: string;
  /**
   * True when at least one amenity is reachable within the band; null when the category's data did not answer.
   */
  met: boolean | null;
  minutes: number;
  /**
   * Those whose adjusted distance (slope, barriers) also stays within the band.
   */
  reachable_count: number;
};
/**
 * The walking-area polygons, with their method note as a foreign member of the collection.
 */
export type WalkingAreas = {
  /**
   * Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections. The value of the bbox member is an array of length 2*n where n is the number of dimensions represented in the contained geometries, with all axes of the most southwesterly point followed by all axes of the more northeasterly point. The axes order of a bbox follows the axes order of geometries. https://tools.ietf.org/html/rfc7946#section-5
   */
  bbox?: [number, number, number, number] | [number, number, number, number, number, number];
  features: PolygonFeature[];
  method_note: string;
  /**
   * Specifies the type of GeoJSON object.
   */
  type: "FeatureCollection";
};
/**
 * A feature object which contains a geometry and associated properties.
 */
export type PolygonFeature = {
  /**
   * Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections.
   */
  bbox?: [number, number, number, number] | [number, number, number, number, number, number];
  geometry: Polygon;
  /**
   * A value that uniquely identifies this feature in a https://tools.ietf.org/html/rfc7946#section-3.2.
   */
  id?: string | number;
  /**
   * Properties associated with this feature.
   */
  properties: {
    band_m: number;
    minutes: number;
  };
  /**
   * Specifies the type of GeoJSON object.
   */
  type: "Feature";
};
/**
 * The feature's geometry
 */
export type Polygon = {
  /**
   * Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections.
   */
  bbox?: [number, number, number, number] | [number, number, number, number, number, number];
  coordinates: Position[][];
  /**
   * Specifies the type of GeoJSON object.
   */
  type: "Polygon";
};
/**
 * `scores.view_quality`.
 */
export type ViewQualityScore = {
  caveat: string;
  components: {
    ground_elevation: NumberComponent;
    open_horizon: NumberComponent;
    relative_elevation: NumberComponent;
  };
  horizon: {
    directions: number;
    max_horizon_angle_deg: number;
    mean_horizon_angle_deg: number;
    min_distance_m: number;
    observer_height_m: number;
    open_angle_deg: number;
    radius_m: number;
  } | null;
  level: Level;
  method_note: string;
  open_horizon_share: number | null;
  relative_elevation_share: number | null;
  /**
   * 0-100, higher is more open; null when the DEM did not answer.
   */
  score: number | null;
  sources: string[];
  /**
   * `computed`, or why not.
   */
  status: "computed" | UnavailableLayerStatus | "no_elevation_at_subject";
};
/**
 * `scores.contamination`.
 */
export type ContaminationScore = {
  caveat: string;
  components: {
    nearest_register_site: NumberComponent;
  };
  epa_status: EpaStatus;
  level: Level;
  note: string;
  register_coverage: RegisterCoverage | "unavailable";
  /**
   * 0-100 exposure; null when the register was not checked completely (partial, not integrated, unavailable).
   */
  score: number | null;
  search_radius_m: number;
  /**
   * Sites within the radius, nearest first; null when the register was not checked (never an empty list then).
   */
  sites: ContaminationHit[] | null;
  sources: string[];
  state: string | null;
};
/**
 * A site in the result.
 */
export type ContaminationHit = {
  distance_m: number;
  lat: number;
  lon: number;
  name: string;
  /**
   * Register name (e.g. "EPA Victoria Priority Sites Register").
   */
  register: string;
  site_id: string;
  source: string;
  state: string;
  /**
   * Publisher-native status (e.g. "Notified", "Remediated", "Regulated under CLM Act").
   */
  status: string;
};
/**
 * `scores.aircraft_noise`.
 */
export type AircraftNoiseScore = {
  airport: string | null;
  /**
   * Upper edge, only for the supported bands 15-20 ... 35-40.
   */
  anef_max: number | null;
  /**
   * Lower edge of the band used.
   */
  anef_min: number | null;
  /**
   * AS 2021 building site acceptability for a house at the ANEF here (null outside every contour).
   */
  as2021_house_acceptability: "acceptable" | "conditionally_acceptable" | "unacceptable" | null;
  caveat: string;
  components: {
    anef_band: NumberComponent;
  };
  /**
   * Every band containing the subject, highest first.
   */
  contours: AnefContour[] | null;
  level: Level;
  /**
   * 0-100 exposure; 0 outside contours of a complete state; null when not checked.
   */
  score: number | null;
  /**
   * The contributing contour dataset.
   */
  source: string | null;
  sources: string[];
  status: "inside_contour" | "outside_contours" | "checked_partial_coverage" | "not_integrated" | "unavailable";
};
/**
 * One ANEF band polygon.
 */
export type AnefContour = {
  airport: string;
  anef_max: number | null;
  anef_min: number;
  source: string;
};
/**
 * The `surfaces.noise` object.
 */
export type NoiseSurface = {
  /**
   * The physics path's propagation: `cortn` (CoRTN, the default) or `cnossos` (CNOSSOS-EU per octave band).
   */
  physics_method?: "cortn" | "cnossos";
  /**
   * What that method does and leaves out.
   */
  physics_method_note?: string;
  cells: number;
  /**
   * CRS of `transform`.
   */
  crs: string;
  height: number;
  /**
   * Modelled Lden per node, row-major, dB (null where nothing is modelled in range).
   */
  lden_db: (number | null)[];
  /**
   * `transfer` or `physics` when every node took that path, else `mixed`. Spec section 2.7 says only that `model_path` "states which model path produced nodes (transfer and physics are not blended silently)"; it names no closed set of values. A grid whose nodes took different paths has no single path to state, and naming the majority would hide the others, so `mixed` says so and `node_paths` gives each node's path (no node value is itself a blend of the two). `scores.noise.lden_source` stays `transfer` | `physics`.
   */
  model_path: NoiseModelPath | "mixed";
  model_path_note: string;
  /**
   * Path of each node.
   */
  node_paths: NoiseModelPath[];
  /**
   * Node positions, row-major.
   */
  nodes: {
    lat: number[];
    lng: number[];
  };
  /**
   * 0-100 score per node (100 = loudest).
   */
  score: (number | null)[];
  spacing_m: number;
  /**
   * The subject's node.
   */
  subject: {
    col: number;
    row: number;
  };
  transform: GeoTransform;
  width: number;
};
/**
 * `surfaces.heat`.
 */
export type HeatSurface = {
  caveat: string;
  class_legend: HeatLegendEntry[];
  cooling_cover_share: number;
  /**
   * Share of the window inside the land-cover footprint (a legend class).
   */
  covered_share: number;
  grid: HeatGrid;
  heat_driver_role: HeatDriverRoles;
  heat_source_share: number;
  neutral_share: number;
  note: string;
  resolution_m: number;
  source: string;
  /**
   * Share of the window with no land-cover class (outside the footprint, no data or an unknown code).
   */
  uncovered_share: number;
};
/**
 * One row of `class_legend`.
 */
export type HeatLegendEntry = {
  /**
   * Cells of this class in the window.
   */
  cells: number;
  code: number;
  heat_driver_role: HeatDriverRole;
  label: string;
  name: string;
  /**
   * Share of the window.
   */
  share: number;
};
/**
 * Class codes on the window grid (run-length encoded, row 0 north; 0 where not covered).
 */
export type HeatGrid = {
  /**
   * Cell size, metres.
   */
  cell_size_m: number;
  /**
   * The window's projected CRS (EPSG code string).
   */
  crs: string;
  /**
   * How `runs` encodes the cells: run-length pairs.
   */
  encoding: "rle";
  height: number;
  no_data: number;
  /**
   * Cell order once decoded: row-major, northern row first, western column first.
   */
  order: "row_major_north_first";
  /**
   * `[code, count, code, count, ...]`; the counts sum to `width * height`.
   */
  runs: number[];
  transform: GeoTransform1;
  width: number;
};
/**
 * Role by class name.
 */
export type HeatDriverRoles = {
  [k: string]: HeatDriverRole;
};
/**
 * The contours layer (spec §2.7), with its lines as a GeoJSON FeatureCollection.
 */
export type ContoursAvailable = {
  available: true;
  /**
   * `partial` when the window is only partly inside the source's footprint (lines stop at its boundary).
   */
  coverage?: "partial";
  /**
   * Share of the window with data, 0-1 (3 decimals), with `coverage`.
   */
  covered_fraction?: number;
  features: NoiseContourCollection;
  /**
   * Spacing used, metres.
   */
  interval_m: number;
  /**
   * Why `interval_m` is what it is: `requested`, `auto`, `raised_to_floor` or `widened_to_fit` (see `INTERVAL_SOURCES` in interval.ts). `widened_to_fit` also covers a request rounded up to a multiple of a contour-line dataset's spacing (15 m on 10 m lines gives 20 m), besides one with too many levels.
   */
  interval_source: "requested" | "auto" | "raised_to_floor" | "widened_to_fit";
  /**
   * Elevations of the bands actually delivered, metres, ascending.
   */
  levels: number[];
  /**
   * What the dataset holds, metres.
   */
  native_interval_m: number;
  /**
   * Only when truncated: lines dropped for the per-feature limit or the byte budget (not the line cap).
   */
  segments_dropped?: number;
  /**
   * Catalogue id of the one source used.
   */
  source: string;
  source_name: string;
  /**
   * True when lines were left out for size.
   */
  truncated: boolean;
  /**
   * Only when truncated: the drops, whether the full elevation range is still spanned, the remedy.
   */
  truncated_note?: string;
};
/**
 * The lines, lon/lat (RFC 7946), each with its `elevation` in metres; high ground on the right.
 */
export type NoiseContourCollection = {
  /**
   * Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections.
   */
  bbox?: [number, number, number, number] | [number, number, number, number, number, number];
  features: NoiseContourFeature[];
  /**
   * Specifies the type of GeoJSON object.
   */
  type: "FeatureCollection";
};
/**
 * A feature object which contains a geometry and associated properties.
 */
export type NoiseContourFeature = {
  /**
   * Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections.
   */
  bbox?: [number, number, number, number] | [number, number, number, number, number, number];
  /**
   * The feature's geometry
   */
  geometry: {
    coordinates: [number, number][];
    type: "LineString";
  };
  /**
   * A value that uniquely identifies this feature in a https://tools.ietf.org/html/rfc7946#section-3.2.
   */
  id?: string | number;
  /**
   * Properties associated with this feature.
   */
  properties: {
    elevation: number;
  };
  /**
   * Specifies the type of GeoJSON object.
   */
  type: "Feature";
};
/**
 * The contours layer when it could not be produced (echoed in `meta.surfaces.unavailable.contours`).
 */
export type ContoursUnavailable = {
  available: false;
  /**
   * Plain-English explanation.
   */
  note: string;
  /**
   * `outside_coverage` (the DEM has no data in the window), `no_lines_in_window` (the state dataset has no lines there) or `source_not_configured` (the applicable source is missing).
   */
  reason: "outside_coverage" | "no_lines_in_window" | "source_not_configured";
  /**
   * Source ids consulted (one at most: sources are never substituted).
   */
  services_tried: string[];
  /**
   * The source that applies to this address (null when none is configured).
   */
  source: string | null;
  source_name: string | null;
};

export type CorePayload = {
  query: {
    address: string | null;
    lat: number;
    lng: number;
  };
  resolved: {
    address: string | null;
    point: {
      lat: number;
      lng: number;
    };
    candidates: {
      [k: string]: unknown;
    }[];
    match_confidence: number | null;
    match_warnings: ("state_mismatch" | "postcode_mismatch" | "locality_unverified" | "low_text_match")[];
    match_note: string;
    parcel: null | {
      pfi: string | null;
      spi: string | null;
      lot: string | null;
      plan: string | null;
      lga: string | null;
      source?: string;
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    };
  };
  development_applications?: {
    on_parcel?: DaItem[];
    nearby_300m?: DaItem[];
  };
  planning?: {
    zone?: PlanningItem[];
    overlay?: PlanningItem[];
    heritage?: PlanningItem[];
    easement?: PlanningItem[];
    growth_area?: PlanningItem[];
    zones_nearby?: PlanningItem[];
  };
  hazards?: {
    flood?: {
      source: string;
      state: string;
      kind?: string;
      code?: string | null;
      label?: string | null;
      verified?: boolean;
      response_path?: string;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    bushfire?: LayerItem[];
    contamination?: LayerItem[];
  };
  environment?: {
    protected_areas?: LayerItem[];
    epbc_mnes?: LayerItem[];
    aboriginal_heritage?: LayerItem[];
    soils?: LayerItem[];
    bioregions?: LayerItem[];
    contaminated_nearby?: LayerItem[];
    historical_business_nearby?: LayerItem[];
    soil_regional?: LayerItem[];
    threatened_species?: LayerItem[];
    landfill?: LayerItem[];
    landfill_nearby?: LayerItem[];
    groundwater_restricted?: LayerItem[];
    groundwater_vulnerability?: LayerItem[];
    licensed_activity?: LayerItem[];
    licensed_activity_nearby?: LayerItem[];
  };
  poi?: {
    schools_500m?: LayerItem[];
    school_catchments?: {
      feature_type: string;
      school_name: string | null;
      catchment_type: string | null;
      school_type: string | null;
      school_sector: string | null;
      year_levels: string | null;
      school_location: null | {
        lat: number;
        lng: number;
        source: string;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    /**
     * @maxItems 0
     */
    childcare_500m?: [];
    childcare_500m_status?: "withheld_pending_publisher_consent";
  };
  transport?: {
    rail_station?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    rail_line?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    pt_stop?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    airport?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
  };
  utilities?: {
    power?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    gas?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    oil?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    water_main?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
    sewer_main?: {
      source: string;
      state: string | null;
      distance_km: number;
      lat?: number;
      lng?: number;
      properties: {
        [k: string]: unknown;
      };
      geometry?: {
        type: "Point" | "MultiPoint" | "LineString" | "MultiLineString" | "Polygon" | "MultiPolygon";
        [k: string]: unknown;
      };
      geometry_omitted?: string;
    }[];
  };
  administrative?: {
    lga?: LayerItem[];
    electorate?: LayerItem[];
  };
  public_housing?: {
    sa2?: LayerItem[];
    sa1?: LayerItem[];
  };
  meta: {
    coverage_status: {
      [k: string]: {
        status: "data_returned" | "checked_clear" | "unavailable" | "not_assessed";
        feature_count: number;
        lookup_complete: boolean;
      };
    };
    coverage_notes: {
      [k: string]: string;
    };
    components_status: {
      [k: string]: "ok" | "failed" | "not_run";
    };
    common_core: {
      version: "1.0";
      planning_fields: string[];
      school_catchment_fields: string[];
    };
    licensed_components: string[];
    product_contract: {
      name: string;
      included_components: string[];
      schema_version: string;
      geometry_policy: string;
    };
    attribution: {
      sources: {
        source: string;
        paths: string[];
        attribution: string;
        licence: string;
        obligation_status: "none" | "attribution_required" | "schedule_required" | "share_alike" | "withheld";
      }[];
      source_inventory_complete: boolean;
      obligations_complete_in_response: boolean;
      sources_requiring_licence_schedule: string[];
      rule: string;
    };
    geometry: {
      [k: string]: string;
    };
    noise_sources?: string[];
    amenity_sources?: {
      sources: string[];
      openstreetmap_categories: string[];
    };
    surfaces?: {
      attribution: {
        [k: string]: string[];
      };
      delivered_layers: ("noise" | "heat" | "contours")[];
      unavailable: {
        [k: string]: {
          [k: string]: unknown;
        };
      };
    };
    zones: {
      nearby_search_radius_m: number | null;
    };
    as_at: {
      [k: string]: string;
    };
    source_currency: {
      [k: string]: {
        [k: string]: unknown;
      };
    };
    api: {
      major_version: "v1";
      score_model_version: "v1";
    };
    not_charged_reason?: string;
    documentation?: {
      version: string;
      hash: string;
    };
  };
  usage?: {
    unique_addresses_this_period: number;
    period_quota: number;
    billing_period_key: string;
    period_kind: "calendar" | "anchored";
    resets_at: string;
    charged: boolean;
    unique_addresses_this_month: number;
    monthly_quota: number;
    billing_month: string;
  };
  completeness: "full" | "partial";
  degraded_components?: string[];
};
