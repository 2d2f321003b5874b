/**
 * The DA-listing endpoints (spec 4.1) over the listing documents (da-query.ts, on the engine's typed queries): the
 * parameters each endpoint takes (anything else is 422 `unknown_parameter`), and the store's own failures
 * turned into a 503 for the listing rather than a 500.
 */
import { DA_LIST_PARAMETERS, DA_NEARBY_PARAMETERS, DA_STATE_PARAMETERS, daCategoriesDocument, daCouncilsDocument, daDetailDocument, daListDocument, daNearbyDocument, daStatsDocument, type DaDocument } from './da-query.js';
import type { DaReader } from '../../engine/entry/das.js';
import { EngineError, isEngineError } from '../../engine/index.js';
import { rejectUnknown } from './query.js';

/** The parameters of each DA-listing operation. */
/** The DA-listing operations (spec 4.1). */
export type DaOperation = 'list' | 'nearby' | 'get' | 'categories' | 'councils' | 'stats';

export const DA_PARAMETERS: Record<DaOperation, readonly string[]> = {
  list: DA_LIST_PARAMETERS,
  nearby: DA_NEARBY_PARAMETERS,
  get: [],
  categories: DA_STATE_PARAMETERS,
  councils: DA_STATE_PARAMETERS,
  stats: [],
};

/** The document of one DA-listing request; `path` is the request's path (for `meta.pages.next`). */
export function daDocument(das: () => DaReader, op: DaOperation, params: Map<string, string>, path: string, id: string): DaDocument {
  rejectUnknown(params, DA_PARAMETERS[op], op === 'get' ? path.replace(/[^/]+$/, '{id}') : path);
  try {
    const store = das();
    switch (op) {
      case 'list':
        return daListDocument(store, params, path);
      case 'nearby':
        return daNearbyDocument(store, params, path);
      case 'get':
        return daDetailDocument(store, id);
      case 'categories':
        return daCategoriesDocument(store, params);
      case 'councils':
        return daCouncilsDocument(store, params);
      case 'stats':
        return daStatsDocument(store);
    }
  } catch (err) {
    if (isEngineError(err)) throw err;
    throw new EngineError('UNAVAILABLE', `the DA store could not answer: ${(err as Error)?.message ?? String(err)}`, { component: 'da_listing' }, { cause: err });
  }
}
