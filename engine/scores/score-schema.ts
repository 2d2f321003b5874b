/**
 * The JSON Schema of every score and surface (issue 47): one contract for the property payload's `scores` and
 * `surfaces` blocks (engine/property/schema.ts puts these under its `$defs`), the OpenAPI documents (which
 * publish each as a component schema, so a generated client reads `scores.flood.level` as the enum it is) and
 * the library's `Scores` and `Surfaces` types (engine/scores/score-types.generated.ts, generated from this by
 * scripts/gen-payload-types.ts). Each score's module types its own computation; tsc checks that every one
 * satisfies the generated type (score-types.ts), and the conformance suite validates real answers against
 * this schema, so neither side can drift.
 *
 * Which definition each score's block is comes from its descriptor (`schema.ref`, engine/scores/registry.ts);
 * engine/scores/scores-schema.ts assembles the `scores` block from the registry.
 *
 * Change a score: change its module and its definition here, then run `npx tsx scripts/gen-payload-types.ts`.
 */

type Schema = Record<string, unknown>;

/** One input of a score with its provenance (score-kit/component.ts), its value of `valueType` or null. */
function scoreComponent(valueType: 'number' | 'string'): Schema {
  const nullable = (type: string, description: string) => ({ description, type: [type, 'null'] });
  return {
    additionalProperties: false,
    description: 'One input of a score, with its provenance.',
    properties: {
      caveat: { description: 'What the value does not tell you, in one sentence.', type: 'string' },
      level: { $ref: '#/$defs/Level', description: "Band of this component's contribution to the score (see  `levelOf` )." },
      resolution: nullable('number', 'Spatial resolution of the data behind the value, metres (e.g. 5 for the 5 m DEM, 1000 for 1 km LST); null when not gridded.'),
      source: nullable('string', 'Source id from the dataset catalogue; null when the input was unavailable.'),
      unit: nullable('string', 'Unit of `value` (e.g. "m", "dB", "mm", "km2", "count", "share"); null for unitless labels.'),
      value: nullable(valueType, 'The input\'s value in `unit` (null when unavailable).'),
    },
    required: ['value', 'unit', 'level', 'resolution', 'source', 'caveat'],
    type: 'object',
  };
}

/** The types of every score and surface and of their parts, by name (`$ref: '#/$defs/<name>'`). */
export const SCORE_DEFS: Record<string, Schema> = {
  NumberComponent: scoreComponent('number'),
  TextComponent: scoreComponent('string'),
  "AircraftNoiseScore": {
    "additionalProperties": false,
    "description": "`scores.aircraft_noise`.",
    "properties": {
      "airport": {
        "type": [
          "string",
          "null"
        ]
      },
      "anef_max": {
        "description": "Upper edge, only for the supported bands 15-20 ... 35-40.",
        "type": [
          "number",
          "null"
        ]
      },
      "anef_min": {
        "description": "Lower edge of the band used.",
        "type": [
          "number",
          "null"
        ]
      },
      "as2021_house_acceptability": {
        "description": "AS 2021 building site acceptability for a house at the ANEF here (null outside every contour).",
        "enum": [
          "acceptable",
          "conditionally_acceptable",
          "unacceptable",
          null
        ]
      },
      "caveat": {
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "anef_band": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "anef_band"
        ],
        "type": "object"
      },
      "contours": {
        "anyOf": [
          {
            "items": {
              "$ref": "#/$defs/AnefContour"
            },
            "type": "array"
          },
          {
            "type": "null"
          }
        ],
        "description": "Every band containing the subject, highest first."
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "score": {
        "description": "0-100 exposure; 0 outside contours of a complete state; null when not checked.",
        "type": [
          "number",
          "null"
        ]
      },
      "source": {
        "description": "The contributing contour dataset.",
        "type": [
          "string",
          "null"
        ]
      },
      "sources": {
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "status": {
        "enum": [
          "inside_contour",
          "outside_contours",
          "checked_partial_coverage",
          "not_integrated",
          "unavailable"
        ],
        "type": "string"
      }
    },
    "required": [
      "score",
      "level",
      "status",
      "anef_min",
      "anef_max",
      "source",
      "airport",
      "as2021_house_acceptability",
      "contours",
      "components",
      "sources",
      "caveat"
    ],
    "type": "object"
  },
  "AnefContour": {
    "additionalProperties": false,
    "description": "One ANEF band polygon.",
    "properties": {
      "airport": {
        "type": "string"
      },
      "anef_max": {
        "type": [
          "number",
          "null"
        ]
      },
      "anef_min": {
        "type": "number"
      },
      "source": {
        "type": "string"
      }
    },
    "required": [
      "anef_min",
      "anef_max",
      "airport",
      "source"
    ],
    "type": "object"
  },
  "BBox": {
    "anyOf": [
      {
        "items": {
          "type": "number"
        },
        "maxItems": 4,
        "minItems": 4,
        "type": "array"
      },
      {
        "items": {
          "type": "number"
        },
        "maxItems": 6,
        "minItems": 6,
        "type": "array"
      }
    ],
    "description": "Bounding box"
  },
  "BalBand": {
    "description": "One of  `BAL_BANDS` .",
    "enum": [
      "BAL-LOW",
      "BAL-12.5",
      "BAL-19",
      "BAL-29",
      "BAL-40",
      "BAL-FZ"
    ],
    "type": "string"
  },
  "BushfireCoverageStatus": {
    "description": "Status of one input in `coverage` (spec 2.6).",
    "enum": [
      "returned",
      "unavailable",
      "not_integrated"
    ],
    "type": "string"
  },
  "BushfireScore": {
    "additionalProperties": false,
    "description": "`scores.bushfire`.",
    "properties": {
      "caveat": {
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "fire_history": {
            "$ref": "#/$defs/NumberComponent"
          },
          "official_overlay": {
            "$ref": "#/$defs/TextComponent"
          },
          "terrain_slope": {
            "$ref": "#/$defs/NumberComponent"
          },
          "vegetation_fuel": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "official_overlay",
          "vegetation_fuel",
          "terrain_slope",
          "fire_history"
        ],
        "type": "object"
      },
      "coverage": {
        "additionalProperties": false,
        "properties": {
          "fire_history": {
            "$ref": "#/$defs/BushfireCoverageStatus"
          },
          "official_overlay": {
            "$ref": "#/$defs/BushfireCoverageStatus"
          },
          "terrain_slope": {
            "$ref": "#/$defs/BushfireCoverageStatus"
          },
          "vegetation_fuel": {
            "$ref": "#/$defs/BushfireCoverageStatus"
          }
        },
        "required": [
          "official_overlay",
          "vegetation_fuel",
          "terrain_slope",
          "fire_history"
        ],
        "type": "object"
      },
      "delivery_contract": {
        "additionalProperties": false,
        "properties": {
          "bal_derived_from_score": {
            "const": false,
            "type": "boolean"
          },
          "official_and_modelled_kept_separate": {
            "const": true,
            "type": "boolean"
          },
          "preliminary_bal": {
            "additionalProperties": false,
            "properties": {
              "included": {
                "type": "boolean"
              },
              "status": {
                "$ref": "#/$defs/PreliminaryBalStatus"
              }
            },
            "required": [
              "included",
              "status"
            ],
            "type": "object"
          },
          "subject_identity": {
            "additionalProperties": false,
            "properties": {
              "address": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "kind": {
                "enum": [
                  "resolved_address_on_parcel",
                  "resolved_address_not_on_parcel",
                  "coordinate_only"
                ],
                "type": "string"
              },
              "note": {
                "type": "string"
              },
              "parcel_id": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "resolved_address_on_parcel": {
                "type": "boolean"
              }
            },
            "required": [
              "kind",
              "resolved_address_on_parcel",
              "address",
              "parcel_id",
              "note"
            ],
            "type": "object"
          }
        },
        "required": [
          "subject_identity",
          "preliminary_bal",
          "official_and_modelled_kept_separate",
          "bal_derived_from_score"
        ],
        "type": "object"
      },
      "disclaimer": {
        "type": "string"
      },
      "indicative_bal": {
        "anyOf": [
          {
            "$ref": "#/$defs/IndicativeBal"
          },
          {
            "type": "null"
          }
        ]
      },
      "label": {
        "type": "string"
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "official_zone_status": {
        "$ref": "#/$defs/OfficialZoneStatus"
      },
      "overlay_basis": {
        "additionalProperties": false,
        "properties": {
          "hits": {
            "items": {
              "additionalProperties": false,
              "properties": {
                "category": {
                  "enum": [
                    "bushfire_management_overlay",
                    "bushfire_prone_area",
                    "bush_fire_prone_land",
                    "mapped_bushfire_prone"
                  ]
                },
                "properties": {
                  "$ref": "#/$defs/OpenProperties"
                },
                "source": {
                  "type": "string"
                }
              },
              "required": [
                "category",
                "source",
                "properties"
              ],
              "type": "object"
            },
            "type": "array"
          },
          "kind": {
            "enum": [
              "official_mapping",
              "no_official_mapping_held",
              "official_lookup_unavailable"
            ],
            "type": "string"
          },
          "note": {
            "type": "string"
          },
          "source": {
            "type": [
              "string",
              "null"
            ]
          },
          "state": {
            "type": [
              "string",
              "null"
            ]
          },
          "state_coverage": {
            "enum": [
              "complete",
              "partial",
              null
            ],
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "kind",
          "state",
          "state_coverage",
          "source",
          "hits",
          "note"
        ],
        "type": "object"
      },
      "score": {
        "description": "Modelled 0-100 exposure; null when the vegetation input did not answer.",
        "type": [
          "number",
          "null"
        ]
      },
      "sources": {
        "items": {
          "type": "string"
        },
        "type": "array"
      }
    },
    "required": [
      "score",
      "level",
      "label",
      "disclaimer",
      "official_zone_status",
      "overlay_basis",
      "coverage",
      "indicative_bal",
      "delivery_contract",
      "components",
      "sources",
      "caveat"
    ],
    "type": "object"
  },
  "CategoryScore": {
    "additionalProperties": false,
    "description": "A category's score and its evidence.",
    "properties": {
      "barrier_penalised": {
        "description": "Counted amenities whose straight line was penalised for a barrier.",
        "type": "number"
      },
      "component": {
        "$ref": "#/$defs/NumberComponent"
      },
      "counted": {
        "description": "Amenities that earned points (at most the number of rank weights).",
        "type": "number"
      },
      "crowd_sourced": {
        "description": "True when a counted or banded amenity of the category came from the crowd-sourced dataset.",
        "type": "boolean"
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "nearest_adjusted_m": {
        "description": "Adjusted metres to the best-placed amenity, else null.",
        "type": [
          "number",
          "null"
        ]
      },
      "nearest_id": {
        "type": [
          "string",
          "null"
        ]
      },
      "nearest_index": {
        "description": "Index of the nearest amenity in the amenity index (for naming it on the main thread).",
        "type": [
          "number",
          "null"
        ]
      },
      "nearest_m": {
        "description": "Straight-line metres to the nearest amenity of the category (within 2,400 m), else null.",
        "type": [
          "number",
          "null"
        ]
      },
      "nearest_name": {
        "description": "Name and id of the nearest amenity when labels are at hand.",
        "type": [
          "string",
          "null"
        ]
      },
      "rank_weights": {
        "description": "Rank weights applied to the nearest amenities.",
        "items": {
          "type": "number"
        },
        "type": "array"
      },
      "score": {
        "description": "0-100; null when the category's data did not answer.",
        "type": [
          "number",
          "null"
        ]
      },
      "weight": {
        "description": "The category's maximum points (sum of its rank weights).",
        "type": "number"
      }
    },
    "required": [
      "score",
      "level",
      "weight",
      "rank_weights",
      "counted",
      "nearest_m",
      "nearest_adjusted_m",
      "nearest_index",
      "barrier_penalised",
      "crowd_sourced",
      "component"
    ],
    "type": "object"
  },
  "CheckStatus": {
    "description": "How a check answered.",
    "enum": [
      "answered",
      "degraded",
      "not_integrated"
    ],
    "type": "string"
  },
  "ClosestPoint": {
    "additionalProperties": false,
    "description": "A point with its lon/lat.",
    "properties": {
      "lat": {
        "type": "number"
      },
      "lng": {
        "type": "number"
      }
    },
    "required": [
      "lat",
      "lng"
    ],
    "type": "object"
  },
  "Compass8": {
    "description": "One of  `COMPASS_8` .",
    "enum": [
      "N",
      "NE",
      "E",
      "SE",
      "S",
      "SW",
      "W",
      "NW"
    ],
    "type": "string"
  },
  "ContaminationHit": {
    "additionalProperties": false,
    "description": "A site in the result.",
    "properties": {
      "distance_m": {
        "type": "number"
      },
      "lat": {
        "type": "number"
      },
      "lon": {
        "type": "number"
      },
      "name": {
        "type": "string"
      },
      "register": {
        "description": "Register name (e.g. \"EPA Victoria Priority Sites Register\").",
        "type": "string"
      },
      "site_id": {
        "type": "string"
      },
      "source": {
        "type": "string"
      },
      "state": {
        "type": "string"
      },
      "status": {
        "description": "Publisher-native status (e.g. \"Notified\", \"Remediated\", \"Regulated under CLM Act\").",
        "type": "string"
      }
    },
    "required": [
      "distance_m",
      "lat",
      "lon",
      "name",
      "register",
      "site_id",
      "source",
      "state",
      "status"
    ],
    "type": "object"
  },
  "ContaminationScore": {
    "additionalProperties": false,
    "description": "`scores.contamination`.",
    "properties": {
      "caveat": {
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "nearest_register_site": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "nearest_register_site"
        ],
        "type": "object"
      },
      "epa_status": {
        "$ref": "#/$defs/EpaStatus"
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "note": {
        "type": "string"
      },
      "register_coverage": {
        "anyOf": [
          {
            "$ref": "#/$defs/RegisterCoverage"
          },
          {
            "const": "unavailable",
            "type": "string"
          }
        ]
      },
      "score": {
        "description": "0-100 exposure; null when the register was not checked completely (partial, not integrated, unavailable).",
        "type": [
          "number",
          "null"
        ]
      },
      "search_radius_m": {
        "type": "number"
      },
      "sites": {
        "anyOf": [
          {
            "items": {
              "$ref": "#/$defs/ContaminationHit"
            },
            "type": "array"
          },
          {
            "type": "null"
          }
        ],
        "description": "Sites within the radius, nearest first; null when the register was not checked (never an empty list then)."
      },
      "sources": {
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "state": {
        "type": [
          "string",
          "null"
        ]
      }
    },
    "required": [
      "score",
      "level",
      "epa_status",
      "register_coverage",
      "state",
      "search_radius_m",
      "sites",
      "components",
      "note",
      "sources",
      "caveat"
    ],
    "type": "object"
  },
  "DominantRoad": {
    "additionalProperties": false,
    "description": "The loudest crowd-sourced road (reported only when no counter is in range).",
    "properties": {
      "closest_point": {
        "$ref": "#/$defs/ClosestPoint"
      },
      "defaulted": {
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "direction": {
        "$ref": "#/$defs/Compass8"
      },
      "distance_m": {
        "type": "number"
      },
      "lden_db": {
        "type": [
          "number",
          "null"
        ]
      },
      "name": {
        "type": "string"
      },
      "road_class": {
        "type": [
          "string",
          "null"
        ]
      },
      "road_id": {
        "type": "string"
      },
      "source": {
        "type": "string"
      },
      "traffic_basis": {
        "$ref": "#/$defs/TrafficBasis"
      }
    },
    "required": [
      "road_id",
      "name",
      "road_class",
      "lden_db",
      "distance_m",
      "direction",
      "closest_point",
      "traffic_basis",
      "defaulted",
      "source"
    ],
    "type": "object"
  },
  "DominantSource": {
    "additionalProperties": false,
    "description": "The loudest contribution at the subject.",
    "properties": {
      "closest_point": {
        "anyOf": [
          {
            "$ref": "#/$defs/ClosestPoint"
          },
          {
            "type": "null"
          }
        ]
      },
      "crowd_sourced": {
        "type": "boolean"
      },
      "direction": {
        "anyOf": [
          {
            "$ref": "#/$defs/Compass8"
          },
          {
            "type": "null"
          }
        ]
      },
      "distance_m": {
        "description": "True distance to its closest approach, metres (null for aircraft).",
        "type": [
          "number",
          "null"
        ]
      },
      "id": {
        "type": "string"
      },
      "kind": {
        "enum": [
          "road",
          "rail",
          "tram",
          "aircraft"
        ],
        "type": "string"
      },
      "lden_db": {
        "description": "Lden of this source alone at the subject, dB (physics path).",
        "type": [
          "number",
          "null"
        ]
      },
      "name": {
        "type": "string"
      },
      "source": {
        "type": "string"
      }
    },
    "required": [
      "kind",
      "id",
      "name",
      "lden_db",
      "distance_m",
      "direction",
      "closest_point",
      "crowd_sourced",
      "source"
    ],
    "type": "object"
  },
  "EpaStatus": {
    "description": "`epa_status` values.",
    "enum": [
      "site_at_subject",
      "sites_nearby",
      "checked_clear",
      "checked_partial_coverage",
      "not_integrated",
      "unavailable"
    ],
    "type": "string"
  },
  "UnavailableLayerStatus": {
    "description": "Whether an input answered.",
    "enum": [
      "unavailable",
      "not_integrated"
    ],
    "type": "string"
  },
  "PolygonFeature": {
    "additionalProperties": false,
    "description": "A feature object which contains a geometry and associated properties.",
    "properties": {
      "bbox": {
        "$ref": "#/$defs/BBox",
        "description": "Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections."
      },
      "geometry": {
        "$ref": "#/$defs/Polygon",
        "description": "The feature's geometry"
      },
      "id": {
        "description": "A value that uniquely identifies this feature in a https://tools.ietf.org/html/rfc7946#section-3.2.",
        "type": [
          "string",
          "number"
        ]
      },
      "properties": {
        "additionalProperties": false,
        "description": "Properties associated with this feature.",
        "properties": {
          "band_m": {
            "type": "number"
          },
          "minutes": {
            "type": "number"
          }
        },
        "required": [
          "band_m",
          "minutes"
        ],
        "type": "object"
      },
      "type": {
        "const": "Feature",
        "description": "Specifies the type of GeoJSON object.",
        "type": "string"
      }
    },
    "required": [
      "geometry",
      "properties",
      "type"
    ],
    "type": "object"
  },
  "FloodScore": {
    "additionalProperties": false,
    "description": "scores.flood.",
    "properties": {
      "caveat": {
        "type": "string"
      },
      "completeness": {
        "enum": [
          "full",
          "partial"
        ],
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "design_rainfall": {
            "$ref": "#/$defs/NumberComponent"
          },
          "hand": {
            "$ref": "#/$defs/NumberComponent"
          },
          "official_overlay": {
            "$ref": "#/$defs/TextComponent"
          },
          "study_depth": {
            "$ref": "#/$defs/NumberComponent"
          },
          "water_distance": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "hand",
          "water_distance",
          "design_rainfall",
          "study_depth",
          "official_overlay"
        ],
        "type": "object"
      },
      "degraded_components": {
        "description": "Inputs whose lookup failed.",
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "flood_depth": {
        "additionalProperties": false,
        "description": "Official 1 % AEP modelled depth, metres: only where a study raster covers the address.",
        "properties": {
          "aep": {
            "const": "1%",
            "type": "string"
          },
          "resolution_m": {
            "type": "number"
          },
          "source": {
            "type": "string"
          },
          "value_m": {
            "type": "number"
          }
        },
        "required": [
          "value_m",
          "aep",
          "source",
          "resolution_m"
        ],
        "type": "object"
      },
      "hazard_class": {
        "additionalProperties": false,
        "description": "H1-H6 hazard class from the study, as evidence only (never converted to metres).",
        "properties": {
          "note": {
            "type": "string"
          },
          "source": {
            "type": "string"
          },
          "value": {
            "$ref": "#/$defs/HazardClass"
          }
        },
        "required": [
          "value",
          "source",
          "note"
        ],
        "type": "object"
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "method": {
        "additionalProperties": false,
        "properties": {
          "analysis_half_width_m": {
            "description": "Half-width of the HAND analysis that answered, metres (before its buffer).",
            "type": [
              "number",
              "null"
            ]
          },
          "burned_watercourses": {
            "type": "boolean"
          },
          "channel_threshold_km2": {
            "type": [
              "number",
              "null"
            ]
          },
          "floor": {
            "description": "The floor applied, if any.",
            "type": [
              "number",
              "null"
            ]
          },
          "indicative_flood_height_m": {
            "description": "The indicative 1 % AEP flood height above the nearest drainage, metres (terrain term).",
            "type": [
              "number",
              "null"
            ]
          },
          "sub_scores": {
            "$ref": "#/$defs/FloodEvidenceWeights",
            "description": "Weighted sub-scores that were available, 0-100."
          },
          "weights": {
            "$ref": "#/$defs/FloodWeights"
          }
        },
        "required": [
          "weights",
          "sub_scores",
          "indicative_flood_height_m",
          "floor",
          "channel_threshold_km2",
          "analysis_half_width_m",
          "burned_watercourses"
        ],
        "type": "object"
      },
      "nearest_drainage": {
        "anyOf": [
          {
            "$ref": "#/$defs/NearestDrainage"
          },
          {
            "type": "null"
          }
        ],
        "description": "The channel cell the subject drains to, from the HAND analysis."
      },
      "official_layer": {
        "$ref": "#/$defs/OfficialLayer"
      },
      "official_layer_note": {
        "type": [
          "string",
          "null"
        ]
      },
      "overlay_basis": {
        "$ref": "#/$defs/OverlayBasis"
      },
      "score": {
        "description": "0-100, 100 most flood-prone; null when no input was available.",
        "type": [
          "number",
          "null"
        ]
      }
    },
    "required": [
      "score",
      "level",
      "official_layer",
      "official_layer_note",
      "overlay_basis",
      "nearest_drainage",
      "components",
      "method",
      "completeness",
      "degraded_components",
      "caveat"
    ],
    "type": "object"
  },
  "FloodWeights": {
    "additionalProperties": false,
    "description": "The four sub-scores' weights.",
    "properties": {
      "overlay": {
        "type": "number"
      },
      "study": {
        "type": "number"
      },
      "terrain": {
        "type": "number"
      },
      "water": {
        "type": "number"
      }
    },
    "required": [
      "terrain",
      "water",
      "study",
      "overlay"
    ],
    "type": "object"
  },
  "HazardClass": {
    "description": "AIDR 2017 / ARR hazard vulnerability classes.",
    "enum": [
      "H1",
      "H2",
      "H3",
      "H4",
      "H5",
      "H6"
    ],
    "type": "string"
  },
  "HeatIslandScore": {
    "additionalProperties": false,
    "description": "`scores.heat_island`.",
    "properties": {
      "anomaly_c": {
        "description": "lst_c minus the regional mean, degrees C.",
        "type": [
          "number",
          "null"
        ]
      },
      "baseline_cells": {
        "type": "number"
      },
      "caveat": {
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "cooling_cover_share": {
            "$ref": "#/$defs/NumberComponent"
          },
          "heat_source_share": {
            "$ref": "#/$defs/NumberComponent"
          },
          "land_surface_temperature": {
            "$ref": "#/$defs/NumberComponent"
          },
          "regional_baseline": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "land_surface_temperature",
          "regional_baseline",
          "cooling_cover_share",
          "heat_source_share"
        ],
        "type": "object"
      },
      "land_cover_role": {
        "const": "explanatory_only",
        "type": "string"
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "lst_c": {
        "description": "Neighbourhood LST, degrees C.",
        "type": [
          "number",
          "null"
        ]
      },
      "method_note": {
        "type": "string"
      },
      "regional_mean_lst_c": {
        "description": "Regional mean LST, degrees C.",
        "type": [
          "number",
          "null"
        ]
      },
      "score": {
        "description": "0-100, higher is hotter than the region; null when LST did not answer.",
        "type": [
          "number",
          "null"
        ]
      },
      "sources": {
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "status": {
        "anyOf": [
          {
            "const": "computed",
            "type": "string"
          },
          {
            "$ref": "#/$defs/UnavailableLayerStatus"
          },
          {
            "const": "no_lst_at_subject",
            "type": "string"
          },
          {
            "const": "insufficient_regional_baseline",
            "type": "string"
          }
        ]
      }
    },
    "required": [
      "score",
      "level",
      "status",
      "lst_c",
      "regional_mean_lst_c",
      "anomaly_c",
      "baseline_cells",
      "components",
      "land_cover_role",
      "method_note",
      "sources",
      "caveat"
    ],
    "type": "object"
  },
  "IndicativeBal": {
    "additionalProperties": false,
    "description": "The indicative BAL (spec 2.6 `indicative_bal`).",
    "properties": {
      "assumptions": {
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "bal": {
        "$ref": "#/$defs/BalBand"
      },
      "confidence": {
        "enum": [
          "low",
          "moderate",
          "high"
        ],
        "type": "string"
      },
      "determining_vegetation": {
        "anyOf": [
          {
            "additionalProperties": false,
            "properties": {
              "distance_m": {
                "type": "number"
              },
              "effective_slope_deg": {
                "type": [
                  "number",
                  "null"
                ]
              },
              "slope_class": {
                "$ref": "#/$defs/SlopeClass"
              },
              "source": {
                "type": "string"
              },
              "veg_class": {
                "$ref": "#/$defs/VegetationClass"
              }
            },
            "required": [
              "veg_class",
              "distance_m",
              "effective_slope_deg",
              "slope_class",
              "source"
            ],
            "type": "object"
          },
          {
            "type": "null"
          }
        ],
        "description": "The vegetation that sets the BAL; null when no classified vegetation is within 100 m."
      },
      "fdi": {
        "$ref": "#/$defs/TableFdi"
      },
      "fdi_basis": {
        "type": "string"
      },
      "method": {
        "const": "AS 3959-2009 Method 1",
        "type": "string"
      },
      "range": {
        "description": "Lower and upper band over the distance and slope tolerances.",
        "items": {
          "$ref": "#/$defs/BalBand"
        },
        "maxItems": 2,
        "minItems": 2,
        "type": "array"
      },
      "table": {
        "type": "string"
      }
    },
    "required": [
      "bal",
      "range",
      "confidence",
      "method",
      "table",
      "fdi",
      "fdi_basis",
      "determining_vegetation",
      "assumptions"
    ],
    "type": "object"
  },
  "Level": {
    "description": "One of  `LEVELS` .",
    "enum": [
      "very_low",
      "low",
      "moderate",
      "high",
      "very_high",
      "unknown"
    ],
    "type": "string"
  },
  "MeasuredValidation": {
    "additionalProperties": false,
    "description": "The `measured_validation` block of scores.noise.",
    "properties": {
      "bias_db": {
        "description": "Mean of predicted minus measured, dB.",
        "type": [
          "number",
          "null"
        ]
      },
      "max_abs_error_db": {
        "type": [
          "number",
          "null"
        ]
      },
      "mean_abs_error_db": {
        "type": [
          "number",
          "null"
        ]
      },
      "method": {
        "type": "string"
      },
      "n": {
        "description": "Loggers compared.",
        "type": "number"
      },
      "note": {
        "description": "Set when there is nothing to validate against.",
        "type": [
          "string",
          "null"
        ]
      },
      "paths": {
        "$ref": "#/$defs/NoiseModelPathShares",
        "description": "Predictions per path."
      },
      "state": {
        "description": "State or territory the loggers are from (null when unknown).",
        "type": [
          "string",
          "null"
        ]
      }
    },
    "required": [
      "state",
      "n",
      "mean_abs_error_db",
      "max_abs_error_db",
      "bias_db",
      "paths",
      "method",
      "note"
    ],
    "type": "object"
  },
  "NearestDrainage": {
    "additionalProperties": false,
    "description": "The nearest drainage of the subject: the channel cell its flow path reaches first.",
    "properties": {
      "bearing_deg": {
        "description": "Bearing from the subject, degrees clockwise from north.",
        "type": "number"
      },
      "catchment_truncated": {
        "description": "True when its catchment reaches the edge of the analysed area: the area is then a lower bound.",
        "type": "boolean"
      },
      "channel_source": {
        "description": "`mapped` when the cell lies on a burned-in mapped watercourse, else `modelled`.",
        "enum": [
          "mapped",
          "modelled"
        ],
        "type": "string"
      },
      "compass": {
        "$ref": "#/$defs/Compass8"
      },
      "contributing_area_km2": {
        "description": "Catchment of the drainage cell, km2.",
        "type": "number"
      },
      "distance_m": {
        "description": "Straight-line distance from the subject, metres.",
        "type": "number"
      },
      "elevation_m": {
        "description": "Its elevation (filled surface), metres.",
        "type": "number"
      },
      "lat": {
        "type": "number"
      },
      "lon": {
        "description": "Centre of the drainage cell, degrees.",
        "type": "number"
      }
    },
    "required": [
      "lon",
      "lat",
      "elevation_m",
      "distance_m",
      "bearing_deg",
      "compass",
      "contributing_area_km2",
      "channel_source",
      "catchment_truncated"
    ],
    "type": "object"
  },
  "NoiseModelPath": {
    "description": "The two model paths.",
    "enum": [
      "transfer",
      "physics"
    ],
    "type": "string"
  },
  "NoiseScore": {
    "additionalProperties": false,
    "description": "The `scores.noise` object.",
    "properties": {
      "as_at": {
        "description": "When the sources were looked up (meta.as_at `scores.noise.sources`).",
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "aircraft": {
            "$ref": "#/$defs/NumberComponent"
          },
          "rail": {
            "$ref": "#/$defs/NumberComponent"
          },
          "road": {
            "$ref": "#/$defs/NumberComponent"
          },
          "tram": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "road",
          "rail",
          "tram",
          "aircraft"
        ],
        "type": "object"
      },
      "confidence_basis": {
        "type": "string"
      },
      "confidence_half_width_db": {
        "type": "number"
      },
      "confidence_range_db": {
        "anyOf": [
          {
            "items": {
              "type": "number"
            },
            "maxItems": 2,
            "minItems": 2,
            "type": "array"
          },
          {
            "type": "null"
          }
        ],
        "description": "[low, high] Lden, dB."
      },
      "defaults_used": {
        "additionalProperties": false,
        "description": "Features within range whose traffic took class or mode defaults.",
        "properties": {
          "count": {
            "type": "number"
          },
          "note": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "count",
          "note"
        ],
        "type": "object"
      },
      "direction": {
        "anyOf": [
          {
            "$ref": "#/$defs/Compass8"
          },
          {
            "type": "null"
          }
        ],
        "description": "8-point compass direction of the dominant contribution (null for aircraft or nothing)."
      },
      "dominant_road": {
        "anyOf": [
          {
            "$ref": "#/$defs/DominantRoad"
          },
          {
            "type": "null"
          }
        ]
      },
      "dominant_source": {
        "anyOf": [
          {
            "$ref": "#/$defs/DominantSource"
          },
          {
            "type": "null"
          }
        ]
      },
      "lden_db": {
        "description": "Modelled Lden at the subject, dB, by `lden_source`.",
        "type": [
          "number",
          "null"
        ]
      },
      "lden_source": {
        "$ref": "#/$defs/NoiseModelPath"
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "measured_validation": {
        "$ref": "#/$defs/MeasuredValidation"
      },
      "model": {
        "additionalProperties": false,
        "properties": {
          "crs": {
            "type": "string"
          },
          "ground_cover": {
            "type": "number"
          },
          "max_distance_m": {
            "type": "number"
          },
          "method": {
            "type": "string"
          },
          "physics_method": {
            "description": "The physics path's propagation: `cortn` (the default) or `cnossos` (CNOSSOS-EU per octave band; docs/noise-cnossos.md).",
            "enum": [
              "cortn",
              "cnossos"
            ],
            "type": "string"
          },
          "receiver_height_m": {
            "type": "number"
          }
        },
        "required": [
          "method",
          "receiver_height_m",
          "ground_cover",
          "max_distance_m",
          "crs"
        ],
        "type": "object"
      },
      "path_reason": {
        "description": "Why that path answered.",
        "type": "string"
      },
      "periods_db": {
        "additionalProperties": false,
        "description": "Physics-path period levels of road, rail and tram (ANEF gives no period split), dB.",
        "properties": {
          "ld": {
            "type": [
              "number",
              "null"
            ]
          },
          "le": {
            "type": [
              "number",
              "null"
            ]
          },
          "ln": {
            "type": [
              "number",
              "null"
            ]
          },
          "path": {
            "const": "physics",
            "type": "string"
          }
        },
        "required": [
          "ld",
          "le",
          "ln",
          "path"
        ],
        "type": "object"
      },
      "physics_lden_db": {
        "description": "The physics path's Lden of every source, always shown, dB.",
        "type": [
          "number",
          "null"
        ]
      },
      "score": {
        "description": "0-100, 100 = loudest (null when no source is modelled within range).",
        "type": [
          "number",
          "null"
        ]
      },
      "search_radius_m": {
        "type": "number"
      },
      "source_ids": {
        "description": "Catalogue source ids of every record used (for meta.noise_sources and attribution).",
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "sources": {
        "items": {
          "$ref": "#/$defs/NoiseSourceRow"
        },
        "type": "array"
      },
      "transfer": {
        "anyOf": [
          {
            "additionalProperties": false,
            "properties": {
              "a": {
                "type": "number"
              },
              "b": {
                "type": "number"
              },
              "counter_distance_m": {
                "type": "number"
              },
              "counter_id": {
                "type": "string"
              },
              "counter_source": {
                "type": "string"
              },
              "fit": {
                "enum": [
                  "offset",
                  "linear"
                ],
                "type": "string"
              },
              "loo_rmse_db": {
                "type": [
                  "number",
                  "null"
                ]
              },
              "n_pairs": {
                "type": "number"
              },
              "physics_road_lden_db": {
                "description": "The relation's input: physics road Lden at the subject, dB.",
                "type": [
                  "number",
                  "null"
                ]
              },
              "road_lden_db": {
                "description": "The relation's output: calibrated road Lden, dB (= components.road.value).",
                "type": [
                  "number",
                  "null"
                ]
              }
            },
            "required": [
              "a",
              "b",
              "fit",
              "n_pairs",
              "loo_rmse_db",
              "counter_id",
              "counter_distance_m",
              "counter_source",
              "physics_road_lden_db",
              "road_lden_db"
            ],
            "type": "object"
          },
          {
            "type": "null"
          }
        ],
        "description": "The transfer relation used (transfer path only). It is calibrated on road noise and applied to the physics road Lden (`physics_road_lden_db` -> `road_lden_db`); rail, tram and aircraft are energy-summed onto it unscaled, so `lden_db` is the energy sum of the four components."
      }
    },
    "required": [
      "score",
      "level",
      "lden_db",
      "direction",
      "dominant_source",
      "lden_source",
      "path_reason",
      "physics_lden_db",
      "transfer",
      "confidence_range_db",
      "confidence_half_width_db",
      "confidence_basis",
      "periods_db",
      "dominant_road",
      "sources",
      "search_radius_m",
      "measured_validation",
      "components",
      "defaults_used",
      "source_ids",
      "model",
      "as_at"
    ],
    "type": "object"
  },
  "NoiseSourceRow": {
    "additionalProperties": false,
    "description": "One measured road or rail source near the subject.",
    "properties": {
      "aadt": {
        "type": [
          "number",
          "null"
        ]
      },
      "beyond_search_radius": {
        "description": "True for the few rows listed from just beyond `search_radius_m`.",
        "type": "boolean"
      },
      "closest_point": {
        "$ref": "#/$defs/ClosestPoint"
      },
      "counter_id": {
        "type": [
          "string",
          "null"
        ]
      },
      "defaulted": {
        "description": "Fields that took class or mode defaults (flagged, never silent).",
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "direction": {
        "$ref": "#/$defs/Compass8"
      },
      "distance_m": {
        "type": "number"
      },
      "heavy_share": {
        "type": [
          "number",
          "null"
        ]
      },
      "id": {
        "type": "string"
      },
      "kind": {
        "enum": [
          "road",
          "rail",
          "tram"
        ],
        "type": "string"
      },
      "lden_db": {
        "description": "Lden of this source alone at the subject, dB (null beyond the model's range).",
        "type": [
          "number",
          "null"
        ]
      },
      "name": {
        "type": "string"
      },
      "road_class": {
        "type": [
          "string",
          "null"
        ]
      },
      "services_day": {
        "type": [
          "number",
          "null"
        ]
      },
      "source": {
        "type": "string"
      },
      "speed_kmh": {
        "type": "number"
      },
      "traffic_basis": {
        "$ref": "#/$defs/TrafficBasis"
      }
    },
    "required": [
      "kind",
      "id",
      "name",
      "distance_m",
      "direction",
      "closest_point",
      "lden_db",
      "road_class",
      "aadt",
      "heavy_share",
      "speed_kmh",
      "services_day",
      "traffic_basis",
      "defaulted",
      "counter_id",
      "beyond_search_radius",
      "source"
    ],
    "type": "object"
  },
  "OfficialLayer": {
    "description": "One of  `OFFICIAL_LAYER_VALUES` .",
    "enum": [
      "hit",
      "checked_no_hit",
      "checked_partial_coverage",
      "none"
    ],
    "type": "string"
  },
  "OfficialZoneStatus": {
    "description": "`official_zone_status` values (the flood score's `official_layer` vocabulary plus `unavailable`).",
    "enum": [
      "hit",
      "checked_no_hit",
      "checked_partial_coverage",
      "none",
      "unavailable"
    ],
    "type": "string"
  },
  "OverlayBasis": {
    "additionalProperties": false,
    "description": "Which overlays the flood score rests on.",
    "properties": {
      "sources": {
        "description": "The sources checked for the subject's state.",
        "items": {
          "additionalProperties": false,
          "properties": {
            "coverage": {
              "$ref": "#/$defs/OverlayCoverage"
            },
            "source": {
              "type": "string"
            },
            "used_in_score": {
              "type": "boolean"
            },
            "verified": {
              "type": "boolean"
            }
          },
          "required": [
            "source",
            "coverage",
            "verified",
            "used_in_score"
          ],
          "type": "object"
        },
        "type": "array"
      },
      "status": {
        "description": "`verified_statewide`: a verified source covers the whole state; `verified_partial`: verified sources cover part of it; `unverified_only`: only unverified sources are held (not used in the score); `no_source`.",
        "enum": [
          "verified_statewide",
          "verified_partial",
          "unverified_only",
          "no_source"
        ],
        "type": "string"
      }
    },
    "required": [
      "status",
      "sources"
    ],
    "type": "object"
  },
  "OverlayCoverage": {
    "description": "Per-state coverage of an overlay source, from the catalogue: complete, partial, or none held.",
    "enum": [
      "complete",
      "partial",
      "none"
    ],
    "type": "string"
  },
  "FloodEvidenceWeights": {
    "additionalProperties": false,
    "properties": {
      "overlay": {
        "type": "number"
      },
      "study": {
        "type": "number"
      },
      "terrain": {
        "type": "number"
      },
      "water": {
        "type": "number"
      }
    },
    "type": "object"
  },
  "Polygon": {
    "additionalProperties": false,
    "description": "Polygon geometry object.",
    "properties": {
      "bbox": {
        "$ref": "#/$defs/BBox",
        "description": "Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections."
      },
      "coordinates": {
        "items": {
          "items": {
            "$ref": "#/$defs/Position"
          },
          "type": "array"
        },
        "type": "array"
      },
      "type": {
        "const": "Polygon",
        "description": "Specifies the type of GeoJSON object.",
        "type": "string"
      }
    },
    "required": [
      "coordinates",
      "type"
    ],
    "type": "object"
  },
  "Position": {
    "description": "A Position is an array of coordinates.",
    "items": {
      "type": "number"
    },
    "type": "array"
  },
  "PreliminaryBalStatus": {
    "description": "Status of the preliminary (indicative) BAL in the delivery contract.",
    "enum": [
      "indicative_screening",
      "indicative_screening_coordinate_only",
      "not_computed_vegetation_unavailable",
      "not_computed_vegetation_not_integrated",
      "method_1_not_applicable"
    ],
    "type": "string"
  },
  "NoiseModelPathShares": {
    "additionalProperties": false,
    "properties": {
      "physics": {
        "type": "number"
      },
      "transfer": {
        "type": "number"
      }
    },
    "required": [
      "transfer",
      "physics"
    ],
    "type": "object"
  },
  "WalkCategoryScores": {
    "additionalProperties": false,
    "properties": {
      "cafe_restaurant": {
        "$ref": "#/$defs/CategoryScore"
      },
      "grocery": {
        "$ref": "#/$defs/CategoryScore"
      },
      "health": {
        "$ref": "#/$defs/CategoryScore"
      },
      "library_community": {
        "$ref": "#/$defs/CategoryScore"
      },
      "park": {
        "$ref": "#/$defs/CategoryScore"
      },
      "pharmacy": {
        "$ref": "#/$defs/CategoryScore"
      },
      "public_transport": {
        "$ref": "#/$defs/CategoryScore"
      },
      "school": {
        "$ref": "#/$defs/CategoryScore"
      }
    },
    "required": [
      "grocery",
      "cafe_restaurant",
      "pharmacy",
      "health",
      "park",
      "library_community",
      "school",
      "public_transport"
    ],
    "type": "object"
  },
  "OpenProperties": {
    "additionalProperties": {},
    "type": "object"
  },
  "RegisterCoverage": {
    "description": "Coverage of a state's register.",
    "enum": [
      "complete",
      "partial",
      "not_integrated"
    ],
    "type": "string"
  },
  "SlopeClass": {
    "description": "One of  `SLOPE_CLASSES` .",
    "enum": [
      "upslope_or_flat",
      "downslope_0_5",
      "downslope_5_10",
      "downslope_10_15",
      "downslope_15_20",
      "downslope_over_20"
    ],
    "type": "string"
  },
  "SolarScore": {
    "additionalProperties": false,
    "description": "`scores.solar`.",
    "properties": {
      "caveat": {
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "dni": {
            "$ref": "#/$defs/NumberComponent"
          },
          "ghi": {
            "$ref": "#/$defs/NumberComponent"
          },
          "optimum_tilt": {
            "$ref": "#/$defs/NumberComponent"
          },
          "pvout": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "ghi",
          "dni",
          "pvout",
          "optimum_tilt"
        ],
        "type": "object"
      },
      "dni_kwh_m2_day": {
        "type": [
          "number",
          "null"
        ]
      },
      "ghi_kwh_m2_day": {
        "type": [
          "number",
          "null"
        ]
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "method_note": {
        "type": "string"
      },
      "optimum_tilt_deg": {
        "type": [
          "number",
          "null"
        ]
      },
      "pvout_kwh_kwp_day": {
        "type": [
          "number",
          "null"
        ]
      },
      "score": {
        "description": "0-100, higher is more resource; null when neither PVOUT nor GHI answered.",
        "type": [
          "number",
          "null"
        ]
      },
      "score_basis": {
        "description": "Which layer the score rests on.",
        "enum": [
          "pvout",
          "ghi",
          null
        ],
        "type": [
          "string",
          "null"
        ]
      },
      "sources": {
        "items": {
          "type": "string"
        },
        "type": "array"
      }
    },
    "required": [
      "score",
      "level",
      "score_basis",
      "ghi_kwh_m2_day",
      "dni_kwh_m2_day",
      "pvout_kwh_kwp_day",
      "optimum_tilt_deg",
      "components",
      "method_note",
      "sources",
      "caveat"
    ],
    "type": "object"
  },
  "TableFdi": {
    "description": "One of  `TABLE_FDIS` .",
    "enum": [
      100,
      80,
      50,
      40
    ],
    "type": "number"
  },
  "TrafficBasis": {
    "description": "Where a feature's traffic came from.",
    "enum": [
      "counter",
      "attribute",
      "default"
    ],
    "type": "string"
  },
  "VegetationClass": {
    "description": "One of  `VEGETATION_CLASSES` .",
    "enum": [
      "forest",
      "woodland",
      "shrubland",
      "scrub",
      "mallee_mulga",
      "rainforest",
      "grassland",
      "low_threat"
    ],
    "type": "string"
  },
  "ViewQualityScore": {
    "additionalProperties": false,
    "description": "`scores.view_quality`.",
    "properties": {
      "caveat": {
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "ground_elevation": {
            "$ref": "#/$defs/NumberComponent"
          },
          "open_horizon": {
            "$ref": "#/$defs/NumberComponent"
          },
          "relative_elevation": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "open_horizon",
          "relative_elevation",
          "ground_elevation"
        ],
        "type": "object"
      },
      "horizon": {
        "anyOf": [
          {
            "additionalProperties": false,
            "properties": {
              "directions": {
                "type": "number"
              },
              "max_horizon_angle_deg": {
                "type": "number"
              },
              "mean_horizon_angle_deg": {
                "type": "number"
              },
              "min_distance_m": {
                "type": "number"
              },
              "observer_height_m": {
                "type": "number"
              },
              "open_angle_deg": {
                "type": "number"
              },
              "radius_m": {
                "type": "number"
              }
            },
            "required": [
              "directions",
              "radius_m",
              "observer_height_m",
              "min_distance_m",
              "open_angle_deg",
              "mean_horizon_angle_deg",
              "max_horizon_angle_deg"
            ],
            "type": "object"
          },
          {
            "type": "null"
          }
        ]
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "method_note": {
        "type": "string"
      },
      "open_horizon_share": {
        "type": [
          "number",
          "null"
        ]
      },
      "relative_elevation_share": {
        "type": [
          "number",
          "null"
        ]
      },
      "score": {
        "description": "0-100, higher is more open; null when the DEM did not answer.",
        "type": [
          "number",
          "null"
        ]
      },
      "sources": {
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "status": {
        "anyOf": [
          {
            "const": "computed",
            "type": "string"
          },
          {
            "$ref": "#/$defs/UnavailableLayerStatus"
          },
          {
            "const": "no_elevation_at_subject",
            "type": "string"
          }
        ],
        "description": "`computed`, or why not."
      }
    },
    "required": [
      "score",
      "level",
      "status",
      "open_horizon_share",
      "relative_elevation_share",
      "horizon",
      "components",
      "method_note",
      "sources",
      "caveat"
    ],
    "type": "object"
  },
  "WalkCategory": {
    "description": "One of  `WALK_CATEGORIES` .",
    "enum": [
      "grocery",
      "cafe_restaurant",
      "pharmacy",
      "health",
      "park",
      "library_community",
      "school",
      "public_transport"
    ],
    "type": "string"
  },
  "WalkScenario": {
    "additionalProperties": false,
    "description": "One of the 24 scenarios.",
    "properties": {
      "band_m": {
        "type": "number"
      },
      "category": {
        "$ref": "#/$defs/WalkCategory"
      },
      "count": {
        "description": "Amenities of the category within the band, straight-line.",
        "type": "number"
      },
      "id": {
        "description": "e.g. `grocery_400m`.",
        "type": "string"
      },
      "met": {
        "description": "True when at least one amenity is reachable within the band; null when the category's data did not answer.",
        "type": [
          "boolean",
          "null"
        ]
      },
      "minutes": {
        "type": "number"
      },
      "reachable_count": {
        "description": "Those whose adjusted distance (slope, barriers) also stays within the band.",
        "type": "number"
      }
    },
    "required": [
      "id",
      "category",
      "band_m",
      "minutes",
      "count",
      "reachable_count",
      "met"
    ],
    "type": "object"
  },
  "WalkabilityScore": {
    "additionalProperties": false,
    "description": "`scores.walkability`.",
    "properties": {
      "adjustments": {
        "additionalProperties": false,
        "properties": {
          "barrier_penalty_m": {
            "type": "number"
          },
          "crossing_tolerance_m": {
            "type": "number"
          },
          "regional_gradient": {
            "type": [
              "number",
              "null"
            ]
          },
          "slope_factor": {
            "type": "number"
          }
        },
        "required": [
          "slope_factor",
          "regional_gradient",
          "barrier_penalty_m",
          "crossing_tolerance_m"
        ],
        "type": "object"
      },
      "category_scores": {
        "$ref": "#/$defs/WalkCategoryScores"
      },
      "caveat": {
        "type": "string"
      },
      "components": {
        "additionalProperties": false,
        "properties": {
          "major_water_barrier": {
            "$ref": "#/$defs/NumberComponent"
          },
          "motorway_barrier": {
            "$ref": "#/$defs/NumberComponent"
          },
          "regional_slope": {
            "$ref": "#/$defs/NumberComponent"
          }
        },
        "required": [
          "regional_slope",
          "motorway_barrier",
          "major_water_barrier"
        ],
        "type": "object"
      },
      "coverage": {
        "additionalProperties": false,
        "properties": {
          "amenities": {
            "additionalProperties": false,
            "properties": {
              "degraded_categories": {
                "items": {
                  "$ref": "#/$defs/WalkCategory"
                },
                "type": "array"
              },
              "sets": {
                "items": {
                  "additionalProperties": false,
                  "properties": {
                    "name": {
                      "type": "string"
                    },
                    "reason": {
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "sources": {
                      "items": {
                        "type": "string"
                      },
                      "type": "array"
                    },
                    "status": {
                      "$ref": "#/$defs/CheckStatus"
                    }
                  },
                  "required": [
                    "name",
                    "status",
                    "sources",
                    "reason"
                  ],
                  "type": "object"
                },
                "type": "array"
              },
              "status": {
                "$ref": "#/$defs/CheckStatus"
              }
            },
            "required": [
              "status",
              "sets",
              "degraded_categories"
            ],
            "type": "object"
          },
          "crossing_points": {
            "additionalProperties": false,
            "properties": {
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "source": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "status": {
                "$ref": "#/$defs/CheckStatus"
              }
            },
            "required": [
              "status",
              "source",
              "reason"
            ],
            "type": "object"
          },
          "major_water_check": {
            "additionalProperties": false,
            "properties": {
              "penalised_amenities": {
                "type": "number"
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "source": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "status": {
                "$ref": "#/$defs/CheckStatus"
              }
            },
            "required": [
              "status",
              "source",
              "reason",
              "penalised_amenities"
            ],
            "type": "object"
          },
          "motorway_check": {
            "additionalProperties": false,
            "properties": {
              "penalised_amenities": {
                "type": "number"
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "source": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "status": {
                "$ref": "#/$defs/CheckStatus"
              }
            },
            "required": [
              "status",
              "source",
              "reason",
              "penalised_amenities"
            ],
            "type": "object"
          },
          "regional_slope": {
            "additionalProperties": false,
            "properties": {
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "source": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "status": {
                "$ref": "#/$defs/CheckStatus"
              }
            },
            "required": [
              "status",
              "source",
              "reason"
            ],
            "type": "object"
          }
        },
        "required": [
          "amenities",
          "motorway_check",
          "major_water_check",
          "crossing_points",
          "regional_slope"
        ],
        "type": "object"
      },
      "delivery_contract": {
        "additionalProperties": false,
        "properties": {
          "cache_policy": {
            "enum": [
              "long_lived",
              "do_not_pin"
            ],
            "type": "string"
          },
          "cacheable": {
            "description": "False when any check degraded: the long-lived score cache must not keep this result.",
            "type": "boolean"
          },
          "degraded_checks": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "geometry": {
            "enum": [
              "included",
              "omitted"
            ],
            "type": "string"
          },
          "straight_line_only": {
            "const": true,
            "type": "boolean"
          }
        },
        "required": [
          "cacheable",
          "cache_policy",
          "degraded_checks",
          "geometry",
          "straight_line_only"
        ],
        "type": "object"
      },
      "disclaimer": {
        "type": "string"
      },
      "level": {
        "$ref": "#/$defs/Level"
      },
      "osm_amenity_categories": {
        "description": "Categories drawing on the crowd-sourced dataset in this result.",
        "items": {
          "$ref": "#/$defs/WalkCategory"
        },
        "type": "array"
      },
      "scenarios": {
        "items": {
          "$ref": "#/$defs/WalkScenario"
        },
        "type": "array"
      },
      "score": {
        "description": "0-100, higher is more walkable; null when no amenity data answered.",
        "type": [
          "number",
          "null"
        ]
      },
      "screening_contract": {
        "additionalProperties": false,
        "properties": {
          "adjustments": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "bands": {
            "items": {
              "additionalProperties": false,
              "properties": {
                "band_m": {
                  "type": "number"
                },
                "minutes": {
                  "type": "number"
                }
              },
              "required": [
                "band_m",
                "minutes"
              ],
              "type": "object"
            },
            "type": "array"
          },
          "categories": {
            "items": {
              "$ref": "#/$defs/WalkCategory"
            },
            "type": "array"
          },
          "distance_decay": {
            "type": "string"
          },
          "method": {
            "const": "straight_line_distance_bands",
            "type": "string"
          },
          "not_included": {
            "items": {
              "type": "string"
            },
            "type": "array"
          },
          "scenario_count": {
            "const": 24,
            "type": "number"
          },
          "walking_speed_m_per_min": {
            "type": "number"
          },
          "weighting": {
            "type": "string"
          }
        },
        "required": [
          "method",
          "scenario_count",
          "categories",
          "bands",
          "walking_speed_m_per_min",
          "distance_decay",
          "weighting",
          "adjustments",
          "not_included"
        ],
        "type": "object"
      },
      "sources": {
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "walking_areas": {
        "$ref": "#/$defs/WalkingAreas"
      }
    },
    "required": [
      "score",
      "level",
      "disclaimer",
      "screening_contract",
      "coverage",
      "delivery_contract",
      "category_scores",
      "scenarios",
      "adjustments",
      "osm_amenity_categories",
      "components",
      "sources",
      "caveat"
    ],
    "type": "object"
  },
  "WalkingAreas": {
    "additionalProperties": false,
    "description": "The walking-area polygons, with their method note as a foreign member of the collection.",
    "properties": {
      "bbox": {
        "$ref": "#/$defs/BBox",
        "description": "Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections. The value of the bbox member is an array of length 2*n where n is the number of dimensions represented in the contained geometries, with all axes of the most southwesterly point followed by all axes of the more northeasterly point. The axes order of a bbox follows the axes order of geometries. https://tools.ietf.org/html/rfc7946#section-5"
      },
      "features": {
        "items": {
          "$ref": "#/$defs/PolygonFeature"
        },
        "type": "array"
      },
      "method_note": {
        "type": "string"
      },
      "type": {
        "const": "FeatureCollection",
        "description": "Specifies the type of GeoJSON object.",
        "type": "string"
      }
    },
    "required": [
      "features",
      "method_note",
      "type"
    ],
    "type": "object"
  },
  "ContoursAvailable": {
    "additionalProperties": false,
    "description": "The contours layer (spec §2.7), with its lines as a GeoJSON FeatureCollection.",
    "properties": {
      "available": {
        "const": true,
        "type": "boolean"
      },
      "coverage": {
        "const": "partial",
        "description": "`partial` when the window is only partly inside the source's footprint (lines stop at its boundary).",
        "type": "string"
      },
      "covered_fraction": {
        "description": "Share of the window with data, 0-1 (3 decimals), with `coverage`.",
        "type": "number"
      },
      "features": {
        "$ref": "#/$defs/NoiseContourCollection",
        "description": "The lines, lon/lat (RFC 7946), each with its `elevation` in metres; high ground on the right."
      },
      "interval_m": {
        "description": "Spacing used, metres.",
        "type": "number"
      },
      "interval_source": {
        "$ref": "#/$defs/IntervalSource",
        "description": "Why `interval_m` is what it is: `requested`, `auto`, `raised_to_floor` or `widened_to_fit` (see `INTERVAL_SOURCES` in interval.ts). `widened_to_fit` also covers a request rounded up to a multiple of a contour-line dataset's spacing (15 m on 10 m lines gives 20 m), besides one with too many levels."
      },
      "levels": {
        "description": "Elevations of the bands actually delivered, metres, ascending.",
        "items": {
          "type": "number"
        },
        "type": "array"
      },
      "native_interval_m": {
        "description": "What the dataset holds, metres.",
        "type": "number"
      },
      "segments_dropped": {
        "description": "Only when truncated: lines dropped for the per-feature limit or the byte budget (not the line cap).",
        "type": "number"
      },
      "source": {
        "description": "Catalogue id of the one source used.",
        "type": "string"
      },
      "source_name": {
        "type": "string"
      },
      "truncated": {
        "description": "True when lines were left out for size.",
        "type": "boolean"
      },
      "truncated_note": {
        "description": "Only when truncated: the drops, whether the full elevation range is still spanned, the remedy.",
        "type": "string"
      }
    },
    "required": [
      "available",
      "source",
      "source_name",
      "native_interval_m",
      "interval_m",
      "interval_source",
      "levels",
      "truncated",
      "features"
    ],
    "type": "object"
  },
  "ContoursLayer": {
    "anyOf": [
      {
        "$ref": "#/$defs/ContoursAvailable"
      },
      {
        "$ref": "#/$defs/ContoursUnavailable"
      }
    ],
    "description": "Either form of the layer."
  },
  "ContoursUnavailable": {
    "additionalProperties": false,
    "description": "The contours layer when it could not be produced (echoed in `meta.surfaces.unavailable.contours`).",
    "properties": {
      "available": {
        "const": false,
        "type": "boolean"
      },
      "note": {
        "description": "Plain-English explanation.",
        "type": "string"
      },
      "reason": {
        "$ref": "#/$defs/ContoursUnavailableReason",
        "description": "`outside_coverage` (the DEM has no data in the window), `no_lines_in_window` (the state dataset has no lines there) or `source_not_configured` (the applicable source is missing)."
      },
      "services_tried": {
        "description": "Source ids consulted (one at most: sources are never substituted).",
        "items": {
          "type": "string"
        },
        "type": "array"
      },
      "source": {
        "description": "The source that applies to this address (null when none is configured).",
        "type": [
          "string",
          "null"
        ]
      },
      "source_name": {
        "type": [
          "string",
          "null"
        ]
      }
    },
    "required": [
      "available",
      "source",
      "source_name",
      "reason",
      "note",
      "services_tried"
    ],
    "type": "object"
  },
  "ContoursUnavailableReason": {
    "description": "One of  `CONTOURS_UNAVAILABLE_REASONS` .",
    "enum": [
      "outside_coverage",
      "no_lines_in_window",
      "source_not_configured"
    ],
    "type": "string"
  },
  "NoiseContourFeature": {
    "additionalProperties": false,
    "description": "A feature object which contains a geometry and associated properties.",
    "properties": {
      "bbox": {
        "$ref": "#/$defs/BBox",
        "description": "Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections."
      },
      "geometry": {
        "additionalProperties": false,
        "description": "The feature's geometry",
        "properties": {
          "coordinates": {
            "items": {
              "items": {
                "type": "number"
              },
              "maxItems": 2,
              "minItems": 2,
              "type": "array"
            },
            "type": "array"
          },
          "type": {
            "const": "LineString",
            "type": "string"
          }
        },
        "required": [
          "type",
          "coordinates"
        ],
        "type": "object"
      },
      "id": {
        "description": "A value that uniquely identifies this feature in a https://tools.ietf.org/html/rfc7946#section-3.2.",
        "type": [
          "string",
          "number"
        ]
      },
      "properties": {
        "additionalProperties": false,
        "description": "Properties associated with this feature.",
        "properties": {
          "elevation": {
            "type": "number"
          }
        },
        "required": [
          "elevation"
        ],
        "type": "object"
      },
      "type": {
        "const": "Feature",
        "description": "Specifies the type of GeoJSON object.",
        "type": "string"
      }
    },
    "required": [
      "geometry",
      "properties",
      "type"
    ],
    "type": "object"
  },
  "NoiseContourCollection": {
    "additionalProperties": false,
    "description": "A collection of feature objects. ",
    "properties": {
      "bbox": {
        "$ref": "#/$defs/BBox",
        "description": "Bounding box of the coordinate range of the object's Geometries, Features, or Feature Collections."
      },
      "features": {
        "items": {
          "$ref": "#/$defs/NoiseContourFeature"
        },
        "type": "array"
      },
      "type": {
        "const": "FeatureCollection",
        "description": "Specifies the type of GeoJSON object.",
        "type": "string"
      }
    },
    "required": [
      "features",
      "type"
    ],
    "type": "object"
  },
  "GeoTransform": {
    "description": "An affine pixel-to-world transform in GDAL order: `[x0, dx, rx, y0, ry, dy]`, so that the world position of the top-left corner of pixel (col, row) is `x = x0 + col*dx + row*rx`, `y = y0 + col*ry + row*dy`. For north-up rasters `rx = ry = 0` and `dy < 0` (row 0 is the northern edge).",
    "items": {
      "type": "number"
    },
    "maxItems": 6,
    "minItems": 6,
    "type": "array"
  },
  "HeatDriverRole": {
    "description": "What a land-cover class does to neighbourhood heat.",
    "enum": [
      "cooling",
      "heat_source",
      "neutral"
    ],
    "type": "string"
  },
  "HeatGrid": {
    "additionalProperties": false,
    "description": "The class grid of `surfaces.heat` as JSON: the land-cover class code of every 10 m cell of the window, run-length encoded so a payload stays small (a 300 x 300 window is about 30 KB of runs instead of 90,000 numbers).\n\nDecoding, in any language: walk `runs` two numbers at a time, `[code, count, code, count, ...]`, writing `count` cells of `code`; the result is `width * height` codes in row-major order, row 0 the northern row and column 0 the western column. Cell (col, row) covers world x from `transform[0] + col * transform[1]` and y from `transform[3] + row * transform[5]` (a GDAL geotransform in `crs`, metres; `transform[5]` is negative). Code `no_data` (0) marks cells with no land cover. See  `decodeHeatGrid` .",
    "properties": {
      "cell_size_m": {
        "description": "Cell size, metres.",
        "type": "number"
      },
      "crs": {
        "description": "The window's projected CRS (EPSG code string).",
        "type": "string"
      },
      "encoding": {
        "const": "rle",
        "description": "How `runs` encodes the cells: run-length pairs.",
        "type": "string"
      },
      "height": {
        "type": "number"
      },
      "no_data": {
        "type": "number"
      },
      "order": {
        "const": "row_major_north_first",
        "description": "Cell order once decoded: row-major, northern row first, western column first.",
        "type": "string"
      },
      "runs": {
        "description": "`[code, count, code, count, ...]`; the counts sum to `width * height`.",
        "items": {
          "type": "number"
        },
        "type": "array"
      },
      "transform": {
        "$ref": "#/$defs/GeoTransform",
        "description": "GDAL geotransform of the grid in `crs`."
      },
      "width": {
        "type": "number"
      }
    },
    "required": [
      "width",
      "height",
      "cell_size_m",
      "crs",
      "transform",
      "no_data",
      "order",
      "encoding",
      "runs"
    ],
    "type": "object"
  },
  "HeatLegendEntry": {
    "additionalProperties": false,
    "description": "One row of `class_legend`.",
    "properties": {
      "cells": {
        "description": "Cells of this class in the window.",
        "type": "number"
      },
      "code": {
        "type": "number"
      },
      "heat_driver_role": {
        "$ref": "#/$defs/HeatDriverRole"
      },
      "label": {
        "type": "string"
      },
      "name": {
        "type": "string"
      },
      "share": {
        "description": "Share of the window.",
        "type": "number"
      }
    },
    "required": [
      "code",
      "name",
      "label",
      "heat_driver_role",
      "cells",
      "share"
    ],
    "type": "object"
  },
  "HeatSurface": {
    "additionalProperties": false,
    "description": "`surfaces.heat`.",
    "properties": {
      "caveat": {
        "type": "string"
      },
      "class_legend": {
        "items": {
          "$ref": "#/$defs/HeatLegendEntry"
        },
        "type": "array"
      },
      "cooling_cover_share": {
        "type": "number"
      },
      "covered_share": {
        "description": "Share of the window inside the land-cover footprint (a legend class).",
        "type": "number"
      },
      "grid": {
        "$ref": "#/$defs/HeatGrid",
        "description": "Class codes on the window grid (run-length encoded, row 0 north; 0 where not covered)."
      },
      "heat_driver_role": {
        "$ref": "#/$defs/HeatDriverRoles",
        "description": "Role by class name."
      },
      "heat_source_share": {
        "type": "number"
      },
      "neutral_share": {
        "type": "number"
      },
      "note": {
        "type": "string"
      },
      "resolution_m": {
        "type": "number"
      },
      "source": {
        "type": "string"
      },
      "uncovered_share": {
        "description": "Share of the window with no land-cover class (outside the footprint, no data or an unknown code).",
        "type": "number"
      }
    },
    "required": [
      "grid",
      "class_legend",
      "heat_driver_role",
      "cooling_cover_share",
      "heat_source_share",
      "neutral_share",
      "covered_share",
      "uncovered_share",
      "source",
      "resolution_m",
      "note",
      "caveat"
    ],
    "type": "object"
  },
  "IntervalSource": {
    "description": "One of  `INTERVAL_SOURCES` .",
    "enum": [
      "requested",
      "auto",
      "raised_to_floor",
      "widened_to_fit"
    ],
    "type": "string"
  },
  "NoiseSurface": {
    "additionalProperties": false,
    "description": "The `surfaces.noise` object.",
    "properties": {
      "physics_method": {
        "description": "The physics path's propagation: `cortn` (CoRTN, the default) or `cnossos` (CNOSSOS-EU per octave band).",
        "enum": [
          "cortn",
          "cnossos"
        ],
        "type": "string"
      },
      "physics_method_note": {
        "description": "What that method does and leaves out.",
        "type": "string"
      },
      "cells": {
        "type": "number"
      },
      "crs": {
        "description": "CRS of `transform`.",
        "type": "string"
      },
      "height": {
        "type": "number"
      },
      "lden_db": {
        "description": "Modelled Lden per node, row-major, dB (null where nothing is modelled in range).",
        "items": {
          "type": [
            "number",
            "null"
          ]
        },
        "type": "array"
      },
      "model_path": {
        "anyOf": [
          {
            "$ref": "#/$defs/NoiseModelPath"
          },
          {
            "const": "mixed",
            "type": "string"
          }
        ],
        "description": "`transfer` or `physics` when every node took that path, else `mixed`. Spec section 2.7 says only that `model_path` \"states which model path produced nodes (transfer and physics are not blended silently)\"; it names no closed set of values. A grid whose nodes took different paths has no single path to state, and naming the majority would hide the others, so `mixed` says so and `node_paths` gives each node's path (no node value is itself a blend of the two). `scores.noise.lden_source` stays `transfer` | `physics`."
      },
      "model_path_note": {
        "type": "string"
      },
      "node_paths": {
        "description": "Path of each node.",
        "items": {
          "$ref": "#/$defs/NoiseModelPath"
        },
        "type": "array"
      },
      "nodes": {
        "additionalProperties": false,
        "description": "Node positions, row-major.",
        "properties": {
          "lat": {
            "items": {
              "type": "number"
            },
            "type": "array"
          },
          "lng": {
            "items": {
              "type": "number"
            },
            "type": "array"
          }
        },
        "required": [
          "lng",
          "lat"
        ],
        "type": "object"
      },
      "score": {
        "description": "0-100 score per node (100 = loudest).",
        "items": {
          "type": [
            "number",
            "null"
          ]
        },
        "type": "array"
      },
      "spacing_m": {
        "type": "number"
      },
      "subject": {
        "additionalProperties": false,
        "description": "The subject's node.",
        "properties": {
          "col": {
            "type": "number"
          },
          "row": {
            "type": "number"
          }
        },
        "required": [
          "row",
          "col"
        ],
        "type": "object"
      },
      "transform": {
        "$ref": "#/$defs/GeoTransform",
        "description": "GDAL-order transform whose cell centres are the nodes (row 0 north)."
      },
      "width": {
        "type": "number"
      }
    },
    "required": [
      "cells",
      "spacing_m",
      "width",
      "height",
      "crs",
      "transform",
      "subject",
      "lden_db",
      "score",
      "node_paths",
      "model_path",
      "model_path_note",
      "nodes"
    ],
    "type": "object"
  },
  "HeatDriverRoles": {
    "additionalProperties": {
      "$ref": "#/$defs/HeatDriverRole"
    },
    "type": "object"
  }
};

/** The definition name of each score, by its key in `scores`. */
/** The definition name of each surface, by its layer in `surfaces`. */
export const SURFACE_TYPE_NAMES = {"noise": "NoiseSurface", "heat": "HeatSurface", "contours": "ContoursLayer"} as const;

/** The `surfaces` block: the layers asked for, each its own type. */
export const SURFACES_SCHEMA: Schema = {
  type: 'object',
  description: 'Computed surfaces by layer (with include_surfaces).',
  properties: Object.fromEntries(Object.entries(SURFACE_TYPE_NAMES).map(([k, name]) => [k, { $ref: `#/$defs/${name}` }])),
  additionalProperties: false,
};
