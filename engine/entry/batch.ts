/**
 * `propintel/batch`: a file of addresses in, every answer out. Reading CSV or JSON lines into lookup
 * subjects checked as the single lookup checks them, looking up a chunk of rows in spatial (Hilbert) order
 * at the pool's width with results in input order, and writing the results as CSV (components flattened
 * to named columns), JSON lines or GeoJSON. The CLI's `propintel batch` and the server's batch jobs are
 * built on it.
 */
export { BATCH_DELIMITERS, BATCH_INPUT_FORMATS, MAX_BATCH_ROWS, batchRows, subjectOfCells } from '../batch/batch-input.js';
export type { BatchCell, BatchInputFormat, BatchInputOptions, BatchRow, BatchRowProblem } from '../batch/batch-input.js';
export { BATCH_ROW_STATUSES, failedRow, failureOf, hilbertIndex, hilbertOrder, lookupRows } from '../batch/batch-run.js';
export type { BatchLookupService, BatchRowResult, BatchRowStatus, LookupRowsOptions } from '../batch/batch-run.js';
export { BATCH_CONTENT_TYPES, BATCH_CSV_FIELDS, BATCH_OUTPUT_FORMATS, BATCH_RESULT_COLUMNS, BatchFileWriter, collectColumns } from '../batch/batch-output.js';
export type { BatchCsvField, BatchOutputFormat, BatchOutputOptions, StoredBatchRow } from '../batch/batch-output.js';
export { resumePoint } from '../batch/batch-resume.js';
export { joinPacked, lookupPacked, packedRowsText, packLines, packResults, readUpload, unpackLines, withPayloads } from '../batch/batch-pack.js';
export type { BatchRowMeta, PackedPayload, PackedResults, ReadUpload, UploadChunk } from '../batch/batch-pack.js';
