/**
 * Loads a noise network from explicit files in the catalogue's schema (noise-inputs.ts): roads and rail as
 * GeoJSON, counters and loggers as CSV or JSON lines, ANEF contours as GeoJSON. The CLI uses it today; the
 * dataset catalogue will call the same parsers with its own paths.
 */
import { readGeoJsonLayer } from '../vector/geojson-reader.js';
import { readRecords } from '../vector/records.js';
import { buildNoiseNetwork, type NoiseNetwork, type NoiseNetworkOptions } from './noise-network.js';
import { COUNTER_COLUMNS, LOGGER_COLUMNS, parseAnefFeatures, parseCounterRecords, parseLoggerRecords, parseRailFeatures, parseRoadFeatures } from './noise-inputs.js';

/** The files of a noise network; only `roads` is required. */
export interface NoiseFiles {
  /** Roads GeoJSON. */
  roads: string;
  /** Rail and tram GeoJSON. */
  rail?: string;
  /** Traffic counters, CSV or JSON lines. */
  counters?: string;
  /** Noise loggers, CSV or JSON lines. */
  loggers?: string;
  /** ANEF contours GeoJSON. */
  anef?: string;
}

/** Reads and validates the files and builds the network. Errors name the file (INVALID_DATA, NOT_FOUND). */
export async function loadNoiseNetworkFiles(files: NoiseFiles, options?: NoiseNetworkOptions): Promise<NoiseNetwork> {
  const [roads, rail, counters, loggers, anef] = await Promise.all([
    readGeoJsonLayer(files.roads).then((l) => parseRoadFeatures(l.features, files.roads)),
    files.rail ? readGeoJsonLayer(files.rail).then((l) => parseRailFeatures(l.features, files.rail!)) : undefined,
    files.counters ? readRecords(files.counters, { required: COUNTER_COLUMNS }).then((r) => parseCounterRecords(r.rows, files.counters!)) : undefined,
    files.loggers ? readRecords(files.loggers, { required: LOGGER_COLUMNS }).then((r) => parseLoggerRecords(r.rows, files.loggers!)) : undefined,
    files.anef ? readGeoJsonLayer(files.anef).then((l) => parseAnefFeatures(l.features, files.anef!)) : undefined,
  ]);
  return buildNoiseNetwork({ roads, rail, counters, loggers, anef }, options);
}
