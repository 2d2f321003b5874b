/**
 * `propintel/data`: datasets. The catalogue (load, init, add, check, describe), the data store over a
 * dataset directory, the layer file's fingerprints and policies, the stores' table descriptions (one per
 * table, rendered for SQLite and PostgreSQL), the address index (in memory and on disk,
 * G-NAF reader), the vector readers (GeoJSON, Shapefile, GeoPackage, CSV records) and the states.
 */

export { openAddressIndexFile, writeAddressIndexFile } from '../address/address-disk.js';
export { AddressIndex } from '../address/address-index.js';
export { addressRecordsFromRows, formatAddress } from '../address/address-record.js';
export type { AddressRecord } from '../address/address-record.js';
export { readGnafAddresses } from '../address/gnaf-reader.js';
export { CatalogueToolError, addSource, checkCatalogue, describeCatalogue, initCatalogue } from '../data/catalogue-tools.js';
export { loadCatalogue } from '../catalogue/load-catalogue.js';
export { STATES, isStateCode } from '../catalogue/states.js';
export type { StateCode } from '../catalogue/states.js';
export { openDataStore } from '../data/dataset-store.js';
export { layerFileFingerprint } from '../data/layer-file.js';
export { filePolicy } from '../data/layer-policy.js';
export { layerFingerprint } from '../data/windowed-store.js';
export { createIndexSql, createStatements, createTableSql, expectedColumns, postgresReconcile, sqliteReconcile, tablesFor } from '../tables/table-schema.js';
export type { ColumnDef, ColumnType, Dialect, IndexDef, PgQueryable, ReconcileLog, TableDef } from '../tables/table-schema.js';
export { readGeoJsonLayer } from '../vector/geojson-reader.js';
export { readGeoPackageLayer } from '../vector/geopackage-reader.js';
export { PointIndex } from '../vector/point-index.js';
export { readCsvRecords } from '../vector/records.js';
export { readShapefileLayer } from '../vector/shapefile-reader.js';
