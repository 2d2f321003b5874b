/* eslint-disable */
/**
 * The childcare responses (engine/childcare/childcare-schemas.ts): their TypeScript types, generated from those JSON Schemas by scripts/gen-payload-types.ts
 * with json-schema-to-typescript. Do not edit: change the schema and rerun `npx tsx scripts/gen-payload-types.ts`
 * (test/engine/property/payload-types.test.ts fails until you do). Objects the schema leaves open (a
 * publisher's native `properties`) are open (`[k: string]: unknown`); every object it closes is closed here,
 * so reading a field a response does not have fails to compile.
 */

export type ChildcareFeedResponse = {
  data: {
    id: number;
    council_reference: string;
    council_name: string;
    state: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
    address: string;
    address_suburb: string;
    address_postcode: string | null;
    description: string;
    trade_category:
      | "new_dwelling"
      | "dual_occupancy"
      | "multi_unit_residential"
      | "alterations_additions"
      | "secondary_dwelling"
      | "subdivision"
      | "demolition"
      | "swimming_pool"
      | "tree_works"
      | "signage"
      | "change_of_use"
      | "commercial"
      | "retail"
      | "industrial"
      | "mixed_use"
      | "childcare"
      | "education"
      | "health_medical"
      | "tourism_hospitality"
      | "community_infrastructure"
      | "other";
    trade_category_name: string;
    /**
     * Every category the description matches, the primary (trade_category) first.
     *
     * @minItems 1
     */
    categories: [
      (
        | "new_dwelling"
        | "dual_occupancy"
        | "multi_unit_residential"
        | "alterations_additions"
        | "secondary_dwelling"
        | "subdivision"
        | "demolition"
        | "swimming_pool"
        | "tree_works"
        | "signage"
        | "change_of_use"
        | "commercial"
        | "retail"
        | "industrial"
        | "mixed_use"
        | "childcare"
        | "education"
        | "health_medical"
        | "tourism_hospitality"
        | "community_infrastructure"
        | "other"
      ),
      ...(
        | "new_dwelling"
        | "dual_occupancy"
        | "multi_unit_residential"
        | "alterations_additions"
        | "secondary_dwelling"
        | "subdivision"
        | "demolition"
        | "swimming_pool"
        | "tree_works"
        | "signage"
        | "change_of_use"
        | "commercial"
        | "retail"
        | "industrial"
        | "mixed_use"
        | "childcare"
        | "education"
        | "health_medical"
        | "tourism_hospitality"
        | "community_infrastructure"
        | "other"
      )[]
    ];
    sub_category:
      | (
          | "new_dwelling"
          | "dual_occupancy"
          | "multi_unit_residential"
          | "alterations_additions"
          | "secondary_dwelling"
          | "subdivision"
          | "demolition"
          | "swimming_pool"
          | "tree_works"
          | "signage"
          | "change_of_use"
          | "commercial"
          | "retail"
          | "industrial"
          | "mixed_use"
          | "childcare"
          | "education"
          | "health_medical"
          | "tourism_hospitality"
          | "community_infrastructure"
          | "other"
        )
      | null;
    application_type:
      | "development_application"
      | "complying_development"
      | "construction_certificate"
      | "modification"
      | "subdivision_certificate"
      | "review";
    land_use: ("residential" | "commercial" | "industrial" | "mixed" | "community") | null;
    building_type: string | null;
    is_residential: boolean;
    lodgement_date: string;
    /**
     * The council's own status text ('' when it publishes none).
     */
    status: string;
    status_group: "pending" | "advertised" | "approved" | "rejected" | "other";
    decision_date: string | null;
    decision_status: ("approved" | "refused" | "withdrawn" | "lapsed") | null;
    on_notice_from: string | null;
    on_notice_to: string | null;
    cost_of_development: number | null;
    value_band: "under_100k" | "100k_500k" | "500k_1m" | "1m_5m" | "5m_plus" | "unknown";
    value_band_basis: "published_cost" | "typical_cost_for_category" | "none";
    number_of_dwellings: number | null;
    lot_count: number | null;
    storeys: number | null;
    applicant_name: string | null;
    latitude: number | null;
    longitude: number | null;
    geocoded: boolean;
    info_url: string;
    info_url_type: "application_record" | "search_entry";
    data_source: string;
    date_fetched: string;
    /**
     * When the record was last seen at its council (best effort; not a deletion stream or a change cursor).
     */
    observed_at: string;
    childcare_pipeline_stage: "under_assessment" | "advertised" | "approved" | "refused" | "withdrawn" | "unknown";
    childcare_works_type: "new_centre" | "extension" | "change_of_use" | "alterations" | "other";
  }[];
  meta: {
    pages: {
      page: number;
      per_page: number;
      total: number;
      total_pages: number;
      next: string | null;
    };
    query: {
      [k: string]: unknown;
    };
    order: string;
    as_at: string | null;
    product: "childcare_market_intelligence";
    version: "v1";
    notices: {
      attribution: string[];
      licences: {
        source: string;
        licence: string;
      }[];
      keep: string;
    };
    data_boundaries: string[];
  };
};

export type ChildcareAnalysisResponse = {
  data: {
    scope: {
      product: "childcare_market_intelligence";
      version: "v1";
      states: ("VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT")[];
      since: string | null;
      as_at: string | null;
      /**
       * The circle or polygon of a site analysis; null for a whole-state analysis.
       */
      catchment: {
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    };
    headline: {
      total: number;
      under_assessment: number;
      advertised: number;
      approved: number;
      refused: number;
    };
    /**
     * Every month from the first lodgement to the last, zero months included.
     */
    trend: {
      month: string;
      total: number;
    }[];
    breakdowns: {
      stage: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
      works_type: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
      state: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
      council: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
      suburb: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
    };
    coverage: {
      records: number;
      geocoded_pct: number | null;
      council_reference_pct: number | null;
      status_present_pct: number | null;
      geojson_truncated: boolean;
      freshness: {
        latest_fetched: string | null;
        store_as_at: string | null;
      };
      states: {
        state: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
        records: number;
        councils: number;
        geocoded_pct: number | null;
        last_updated: string | null;
      }[];
      councils: {
        council: string;
        state: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
        records: number;
        geocoded_pct: number | null;
        status_present_pct: number | null;
        last_updated: string | null;
      }[];
    };
    demand_signals: {
      all_development: number;
      subdivisions: number;
      lots: number;
      dwellings: number;
      scope: "catchment" | "state";
      note: string;
    };
    geojson: {
      type: "FeatureCollection";
      crs_note: string;
      features: {
        type: "Feature";
        geometry: {
          type: "Point";
          /**
           * @minItems 2
           * @maxItems 2
           */
          coordinates: [unknown, unknown];
        };
        properties: {
          id: number;
          council_reference: string;
          council_name: string;
          state: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
          address: string;
          lodgement_date: string;
          status: string;
          council_url: string;
          council_url_type: "application_record" | "search_entry";
          childcare_pipeline_stage:
            "under_assessment" | "advertised" | "approved" | "refused" | "withdrawn" | "unknown";
          childcare_works_type: "new_centre" | "extension" | "change_of_use" | "alterations" | "other";
          rank: number;
        };
      }[];
      total_features: number;
      truncated: boolean;
    };
    notices: {
      attribution: string[];
      licences: {
        source: string;
        licence: string;
      }[];
      keep: string;
      data_boundaries: string[];
    };
  };
  meta: {
    product: "childcare_market_intelligence";
    version: "v1";
    data_boundaries: string[];
  };
};

export type ChildcareSiteResponse = {
  data: {
    scope: {
      product: "childcare_market_intelligence";
      version: "v1";
      states: ("VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT")[];
      since: string | null;
      as_at: string | null;
      /**
       * The circle or polygon of a site analysis; null for a whole-state analysis.
       */
      catchment: {
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    };
    headline: {
      total: number;
      under_assessment: number;
      advertised: number;
      approved: number;
      refused: number;
    };
    /**
     * Every month from the first lodgement to the last, zero months included.
     */
    trend: {
      month: string;
      total: number;
    }[];
    breakdowns: {
      stage: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
      works_type: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
      state: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
      council: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
      suburb: {
        key: string;
        count: number;
        share: number;
        state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      }[];
    };
    coverage: {
      records: number;
      geocoded_pct: number | null;
      council_reference_pct: number | null;
      status_present_pct: number | null;
      geojson_truncated: boolean;
      freshness: {
        latest_fetched: string | null;
        store_as_at: string | null;
      };
      states: {
        state: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
        records: number;
        councils: number;
        geocoded_pct: number | null;
        last_updated: string | null;
      }[];
      councils: {
        council: string;
        state: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
        records: number;
        geocoded_pct: number | null;
        status_present_pct: number | null;
        last_updated: string | null;
      }[];
    };
    demand_signals: {
      all_development: number;
      subdivisions: number;
      lots: number;
      dwellings: number;
      scope: "catchment" | "state";
      note: string;
    };
    geojson: {
      type: "FeatureCollection";
      crs_note: string;
      features: {
        type: "Feature";
        geometry: {
          type: "Point";
          /**
           * @minItems 2
           * @maxItems 2
           */
          coordinates: [unknown, unknown];
        };
        properties: {
          id: number;
          council_reference: string;
          council_name: string;
          state: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
          address: string;
          lodgement_date: string;
          status: string;
          council_url: string;
          council_url_type: "application_record" | "search_entry";
          childcare_pipeline_stage:
            "under_assessment" | "advertised" | "approved" | "refused" | "withdrawn" | "unknown";
          childcare_works_type: "new_centre" | "extension" | "change_of_use" | "alterations" | "other";
          rank: number;
        };
      }[];
      total_features: number;
      truncated: boolean;
    };
    notices: {
      attribution: string[];
      licences: {
        source: string;
        licence: string;
      }[];
      keep: string;
      data_boundaries: string[];
    };
    schools: {
      available: boolean;
      count?: number;
      reason?: "coverage_gap" | "not_held";
      note: string;
      attribution?: string[];
      features?: {
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    };
    suburb_context: {
      available: boolean;
      scope?: "suburb";
      suburb?: string | null;
      state?: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
      [k: string]: unknown;
    };
  };
  meta: {
    product: "childcare_market_intelligence";
    version: "v1";
    data_boundaries: string[];
  };
};
