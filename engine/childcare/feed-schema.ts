/**
 * The JSON Schema (2020-12) of the childcare feed, `GET /api/v1/das` on a childcare key (spec 2.1, 4.1): the DA
 * listing's record with the named childcare fields, and the listing's `meta` with the product, the notices and
 * the data boundaries. The OpenAPI documents publish it, and the conformance suite validates the feed with it.
 */
import { CHILDCARE_STAGES, CHILDCARE_WORKS_TYPES } from '../da/categories.js';
import { DA_RECORD_PROPERTIES, enumOf, listMeta, obj } from '../da/listing-schema.js';
import { PRODUCT, PRODUCT_VERSION } from './analysis.js';

const strings = { type: 'array', items: { type: 'string' } };

/** The notices block every childcare answer carries (server/api/childcare-handlers.ts `noticesBlock`). */
export const NOTICES_SCHEMA = obj({ attribution: strings, licences: { type: 'array', items: obj({ source: { type: 'string' }, licence: { type: 'string' } }) }, keep: { type: 'string' } });

/** `GET /api/v1/das` on a childcare key (engine/childcare/analysis.ts `childcareFeedItem`). */
export const CHILDCARE_FEED_SCHEMA = obj({
  data: {
    type: 'array',
    items: obj({
      ...DA_RECORD_PROPERTIES,
      childcare_pipeline_stage: enumOf(CHILDCARE_STAGES),
      childcare_works_type: enumOf(CHILDCARE_WORKS_TYPES),
      observed_at: { type: 'string', format: 'date-time', description: 'When the record was last seen at its council (best effort; not a deletion stream or a change cursor).' },
    }),
  },
  meta: listMeta({ product: { const: PRODUCT }, version: { const: PRODUCT_VERSION }, notices: NOTICES_SCHEMA, data_boundaries: strings }),
});
