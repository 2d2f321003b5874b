/** The address index over every `resolved.address` table of a dataset directory. */
import type { DataStore } from './dataset-store.js';
import { AddressIndex } from '../address/address-index.js';
import { addressRecordsFromRows } from '../address/address-record.js';

/** Builds the address index of every state's address points in `store`. */
export function addressIndexFromStore(store: DataStore): AddressIndex {
  return AddressIndex.build(store.recordsFor('resolved.address').flatMap((t) => addressRecordsFromRows(t.rows, t.source.id)));
}
