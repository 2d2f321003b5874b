import { describe, expect, it } from 'vitest';
import { categoriseAmenity } from '../../../../engine/scores/walkability/categories.js';
import { amenityPointsFromRows, majorWaterGeometries, motorwayGeometries, stopPointsFromRows } from '../../../../engine/scores/walkability/walkability-layers.js';
import { expectEngineError } from '../../../helpers/expect-engine-error.js';

describe('amenity categories from OSM-style tags', () => {
  it('maps each tag to its category, in a fixed precedence', () => {
    expect(categoriseAmenity({ shop: 'supermarket' })).toBe('grocery');
    expect(categoriseAmenity({ shop: 'convenience' })).toBeNull(); // Walk Score filters convenience stores out
    expect(categoriseAmenity({ amenity: 'cafe' })).toBe('cafe_restaurant');
    expect(categoriseAmenity({ amenity: 'pharmacy', healthcare: 'pharmacy' })).toBe('pharmacy');
    expect(categoriseAmenity({ healthcare: 'doctor' })).toBe('health');
    expect(categoriseAmenity({ amenity: 'clinic' })).toBe('health');
    expect(categoriseAmenity({ leisure: 'park' })).toBe('park');
    expect(categoriseAmenity({ amenity: 'library' })).toBe('library_community');
    expect(categoriseAmenity({ amenity: ' Community_Centre ' })).toBe('library_community');
    expect(categoriseAmenity({ amenity: 'bench' })).toBeNull();
  });

  it('reads amenity rows, dropping uncategorised ones and the school/bus rows state data supplies', () => {
    const rows = [
      { amenity_id: 'n1', lon: '144.98', lat: '-37.8', name: 'Corner Cafe', amenity: 'cafe', shop: '', leisure: '', healthcare: '', crowd_sourced: 'true', source: 'sample_osm' },
      { amenity_id: 'n2', lon: '144.99', lat: '-37.8', name: 'Bench', amenity: 'bench', shop: '', leisure: '', healthcare: '', crowd_sourced: 'true', source: 'sample_osm' },
      { amenity_id: 'n3', lon: '144.99', lat: '-37.8', name: 'Some School', amenity: 'school', shop: '', leisure: '', healthcare: '', crowd_sourced: 'true', source: 'sample_osm' },
      { amenity_id: 'n4', lon: '144.97', lat: '-37.81', name: 'Big Green', amenity: '', shop: '', leisure: 'park', healthcare: '', crowd_sourced: 'false', source: 'sample_parks' },
    ];
    const pts = amenityPointsFromRows(rows, 'amenities.csv');
    expect(pts.map((p) => [p.id, p.category, p.crowdSourced, p.source])).toEqual([
      ['n1', 'cafe_restaurant', true, 'sample_osm'],
      ['n4', 'park', false, 'sample_parks'],
    ]);
  });

  it('names the file and line of a bad coordinate or a missing source', async () => {
    await expectEngineError(() => stopPointsFromRows([{ stop_id: 's1', lon: '144.9', lat: '-37.8', source: 'x' }, { stop_id: 's2', lon: 'east', lat: '-37.8', source: 'x' }], 'stops.csv'), 'INVALID_DATA', 'stops.csv', 'line 3');
    await expectEngineError(() => stopPointsFromRows([{ stop_id: 's1', lon: '144.9', lat: '-37.8', source: '' }], 'stops.csv'), 'INVALID_DATA', /line 2: empty source/);
  });

  it('picks motorways and major water out of their layers', () => {
    const g = { type: 'LineString' as const, coordinates: [[0, 0], [1, 1]] };
    const f = (props: Record<string, unknown>) => ({ type: 'Feature' as const, properties: props, geometry: g });
    expect(motorwayGeometries([f({ road_class: 'motorway' }), f({ road_class: 'arterial' }), f({ road_class: 'Motorway' })])).toHaveLength(2);
    expect(majorWaterGeometries([f({ major: true }), f({ major: false }), f({ major: 'true' }), f({})])).toHaveLength(2);
  });
});
