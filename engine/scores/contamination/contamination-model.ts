/** Contamination's model: the contaminated-land register of every held state. */
import { centroid } from '@turf/turf';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import type { DataStore } from '../../data/dataset-store.js';
import { coverageByState, defineModel } from '../../score-kit/model-kind.js';
import { buildContaminationRegister, type ContaminationRegister, type ContaminationSite, type RegisterCoverage } from './contamination-register.js';

/** Register sites from point records or polygon features (a polygon is its centroid). */
function contaminationSites(store: DataStore): ContaminationSite[] {
  const sites: ContaminationSite[] = [];
  for (const l of store.vectorsFor('scores.contamination')) {
    for (const f of l.features) {
      const p = f.properties ?? {};
      const [lon, lat] = f.geometry.type === 'Point' ? f.geometry.coordinates : centroid(f as Feature<Polygon | MultiPolygon>).geometry.coordinates;
      sites.push({ site_id: String(p.site_id ?? p.id ?? `${l.source.id}:${sites.length}`), name: String(p.name ?? ''), lon, lat, status: String(p.status ?? ''), state: l.file.state ?? String(p.state ?? ''), source: l.source.id, register: String(p.register ?? l.source.title) });
    }
  }
  return sites;
}

/** The contaminated-land register of every held state. */
export function contaminationRegisterFor(store: DataStore): ContaminationRegister {
  return buildContaminationRegister(contaminationSites(store), coverageByState(store, 'scores.contamination') as Record<string, RegisterCoverage>);
}

/** The register (national: one for the dataset, kept). */
export const CONTAMINATION_REGISTER = defineModel<ContaminationRegister>({
  name: 'contamination_register',
  scope: 'national',
  whole: true,
  paths: ['scores.contamination'],
  build: (store) => contaminationRegisterFor(store),
});
