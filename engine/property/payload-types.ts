/* eslint-disable */
/**
 * The property payloads (engine/property/schema.ts): their TypeScript types, generated from those JSON Schemas by scripts/gen-payload-types.ts
 * with json-schema-to-typescript. Do not edit: change the schema and rerun `npx tsx scripts/gen-payload-types.ts`
 * (test/engine/property/payload-types.test.ts fails until you do). Objects the schema leaves open (a
 * publisher's native `properties`) are open (`[k: string]: unknown`); every object it closes is closed here,
 * so reading a field a response does not have fails to compile.
 */

import type { Compass8, TrafficBasis, NoiseModelPath, Level, HazardClass, OfficialLayer, OverlayCoverage, BushfireCoverageStatus, PreliminaryBalStatus, BalBand, SlopeClass, VegetationClass, TableFdi, OfficialZoneStatus, UnavailableLayerStatus, WalkCategory, CheckStatus, Position, EpaStatus, GeoTransform, HeatDriverRole, GeoTransform1, ContoursLayer, NoiseScore, NumberComponent, DominantRoad, ClosestPoint, DominantSource, MeasuredValidation, NoiseModelPathShares, NoiseSourceRow, FloodScore, TextComponent, FloodEvidenceWeights, FloodWeights, NearestDrainage, OverlayBasis, BushfireScore, IndicativeBal, OpenProperties, HeatIslandScore, SolarScore, WalkabilityScore, WalkCategoryScores, CategoryScore, WalkScenario, WalkingAreas, PolygonFeature, Polygon, ViewQualityScore, ContaminationScore, ContaminationHit, AircraftNoiseScore, NoiseSurface, HeatSurface, HeatLegendEntry, HeatGrid, HeatDriverRoles, ContoursAvailable, NoiseContourCollection, NoiseContourFeature, ContoursUnavailable } from '../scores/score-types.generated.js';

/**
 * Coverage of a state's register.
 */
export type RegisterCoverage = "complete" | "partial" | "not_integrated";
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
 * One ANEF band polygon.
 */
export type AnefContour = {
  airport: string;
  anef_max: number | null;
  anef_min: number;
  source: string;
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
