/* eslint-disable */
/**
 * The DA listing's responses (engine/da/listing-schema.ts): their TypeScript types, generated from those JSON Schemas by scripts/gen-payload-types.ts
 * with json-schema-to-typescript. Do not edit: change the schema and rerun `npx tsx scripts/gen-payload-types.ts`
 * (test/engine/property/payload-types.test.ts fails until you do). Objects the schema leaves open (a
 * publisher's native `properties`) are open (`[k: string]: unknown`); every object it closes is closed here,
 * so reading a field a response does not have fails to compile.
 */

export type DaListResponse = {
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
    observed_at: string | null;
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
  };
};

export type DaNearbyResponse = {
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
    observed_at: string | null;
    distance_km: number;
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
  };
};

export type DaDetailResponse = {
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
    observed_at: string | null;
    summary: string;
    summary_method: string;
  };
};

export type DaCategoriesResponse = {
  /**
   * @minItems 21
   * @maxItems 21
   */
  data: [
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    },
    {
      slug:
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
      name: string;
      count: number;
    }
  ];
  meta: {
    total: number;
    query: {
      [k: string]: unknown;
    };
    as_at: string | null;
  };
};

export type DaCouncilsResponse = {
  data: {
    name: string;
    state: "VIC" | "NSW" | "QLD" | "WA" | "SA" | "TAS" | "ACT" | "NT";
    count: number;
    last_updated: string;
    geocoded_pct: number;
    status_present_pct: number;
  }[];
  meta: {
    total: number;
    query: {
      [k: string]: unknown;
    };
  };
};

export type DaStatsResponse = {
  data: {
    total: number;
    councils: number;
    geocoded: number;
    geocoded_pct: number;
    residential: number;
    by_state: {
      VIC: number;
      NSW: number;
      QLD: number;
      WA: number;
      SA: number;
      TAS: number;
      ACT: number;
      NT: number;
    };
    by_category: {
      new_dwelling: number;
      dual_occupancy: number;
      multi_unit_residential: number;
      alterations_additions: number;
      secondary_dwelling: number;
      subdivision: number;
      demolition: number;
      swimming_pool: number;
      tree_works: number;
      signage: number;
      change_of_use: number;
      commercial: number;
      retail: number;
      industrial: number;
      mixed_use: number;
      childcare: number;
      education: number;
      health_medical: number;
      tourism_hospitality: number;
      community_infrastructure: number;
      other: number;
    };
    by_status_group: {
      pending: number;
      advertised: number;
      approved: number;
      rejected: number;
      other: number;
    };
    lodged: {
      earliest: string | null;
      latest: string | null;
    };
    as_at: string | null;
  };
};
