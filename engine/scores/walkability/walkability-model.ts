/**
 * Walkability's models: its indexes of one state (amenities, stops, schools, motorways, major water,
 * crossings) built from the dataset, and their shared-buffer form the workers read.
 */
import type { StateCode } from '../../catalogue/states.js';
import type { DataStore, RecordTable, VectorLayer } from '../../data/dataset-store.js';
import { defineModel, UNDETERMINED_STATE } from '../../score-kit/model-kind.js';
import type { MissingLayer } from '../../score-kit/layer-input.js';
import {
  AMENITY_CSV_CATEGORIES,
  amenityPointsFromRows,
  buildWalkabilityIndexes,
  crossingPointsFromRows,
  majorWaterGeometries,
  motorwayGeometries,
  schoolPointsFromRows,
  shareWalkabilityIndexes,
  stopPointsFromRows,
  type AmenityPoint,
  type AmenitySet,
  type SharedWalkabilityIndexes,
  type WalkabilityIndexes,
} from './walkability-layers.js';

const fileName = (l: { file: { path: string } }) => l.file.path;
const features = (layers: VectorLayer[]) => layers.flatMap((l) => l.features);
const asStrings = (rows: Record<string, unknown>[]) => rows as Record<string, string>[];


/** Which kind of amenity table a record file is, from its columns. */
function amenityKind(t: RecordTable): 'amenities' | 'stops' | 'schools' | null {
  const c = new Set(t.columns);
  if (c.has('school_type') || c.has('school_id')) return 'schools';
  if (c.has('stop_id') || c.has('mode')) return 'stops';
  if (c.has('amenity') || c.has('shop') || c.has('leisure')) return 'amenities';
  return null;
}

/** The walkability indexes of one state (amenities, stops, schools, motorways, major water, crossings). */
export function walkabilityIndexesFor(store: DataStore, state: StateCode | null): WalkabilityIndexes {
  if (!state) {
    // Amenity, barrier and crossing sources are state-held: with no state none applies, and the screening
    // must say so (not integrated, score null) rather than read another state's layers as "nothing near".
    const none: MissingLayer = { status: 'not_integrated', reason: UNDETERMINED_STATE };
    return buildWalkabilityIndexes({
      amenitySets: [{ name: 'amenities', categories: AMENITY_CSV_CATEGORIES, points: none }, { name: 'stops', categories: ['public_transport'], points: none }, { name: 'schools', categories: ['school'], points: none }],
      motorways: none,
      majorWater: none,
      crossings: none,
    });
  }
  const tables = store.recordsFor('scores.walkability.amenities', state);
  const set = (name: 'amenities' | 'stops' | 'schools', categories: AmenitySet['categories'], parse: (rows: Record<string, string>[], file: string) => AmenityPoint[]): AmenitySet => {
    const mine = tables.filter((t) => amenityKind(t) === name);
    if (mine.length === 0) return { name, categories, points: { status: 'not_integrated', reason: `no ${name} source is held for ${state}` } };
    return { name, categories, points: mine.flatMap((t) => parse(asStrings(t.rows), fileName(t))) };
  };
  const barriers = store.vectorsFor('scores.walkability.barriers', state);
  const water = store.vectorsFor('scores.walkability.water', state);
  const crossings = store.recordsFor('scores.walkability.crossings', state);
  return buildWalkabilityIndexes({
    amenitySets: [set('amenities', AMENITY_CSV_CATEGORIES, amenityPointsFromRows), set('stops', ['public_transport'], stopPointsFromRows), set('schools', ['school'], schoolPointsFromRows)],
    motorways: barriers.length ? { geometries: motorwayGeometries(features(barriers)), source: barriers[0].source.id } : null,
    majorWater: water.length ? { geometries: majorWaterGeometries(features(water)), source: water[0].source.id } : null,
    crossings: crossings.length ? { points: crossings.flatMap((t) => crossingPointsFromRows(asStrings(t.rows), fileName(t))), source: crossings[0].source.id } : null,
  });
}

/** A state's walkability indexes (for no state, every input not integrated). */
export const WALKABILITY_INDEXES = defineModel<WalkabilityIndexes>({
  name: 'walkability_indexes',
  scope: 'state',
  whole: true,
  paths: ['scores.walkability.amenities', 'scores.walkability.crossings', 'scores.walkability.barriers', 'scores.walkability.water'],
  build: (store, state) => walkabilityIndexesFor(store, state),
});

/** The same indexes in SharedArrayBuffers, attached (not copied) to the workers that compute the score. */
export const SHARED_WALKABILITY = defineModel<SharedWalkabilityIndexes>({
  name: 'walkability_shared',
  scope: 'state',
  whole: true,
  paths: WALKABILITY_INDEXES.paths,
  build: (_store, _state, get) => shareWalkabilityIndexes(get(WALKABILITY_INDEXES)),
});
