/** The official-overlay lookup over real Vicmap Planning BMO polygons (Greater Bendigo), skipped when absent. */
import type { MultiPolygon, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { buildBushfireLayers } from '../../../../engine/scores/bushfire/bushfire-layers.js';
import { bushfireScore } from '../../../../engine/scores/bushfire/bushfire-score.js';
import { readGeoJsonLayer } from '../../../../engine/vector/geojson-reader.js';
import { pointInPolygon } from '../../../../engine/vector/point-in-polygon.js';
import { realdata } from '../../../helpers/realdata.js';
import { needsRealdata } from '../../../helpers/skip.js';

const file = realdata('zones/bendigo_vicplan_overlays_2024.geojson');

describe('official overlay on real Vicmap BMO polygons', () => {
  it('finds a point inside a BMO polygon as a hit with its native fields; far away is a partial-coverage miss', async (ctx) => {
    needsRealdata(ctx, file, 'zones/bendigo_vicplan_overlays_2024.geojson');
    const layer = await readGeoJsonLayer(file!);
    const bmo = layer.features.filter((f) => String(f.properties?.ZONE_CODE ?? '').startsWith('BMO'));
    expect(bmo.length).toBeGreaterThan(100);
    // An interior point of the first BMO polygon, found by a scan of its box (polygons may be concave).
    const g = bmo[0].geometry as Polygon | MultiPolygon;
    const ring = (g.type === 'Polygon' ? g.coordinates[0] : g.coordinates[0][0]) as number[][];
    const xs = ring.map((p) => p[0]), ys = ring.map((p) => p[1]);
    let inside: [number, number] | null = null;
    for (let i = 1; i < 40 && !inside; i++) for (let j = 1; j < 40 && !inside; j++) {
      const p: [number, number] = [Math.min(...xs) + ((Math.max(...xs) - Math.min(...xs)) * i) / 40, Math.min(...ys) + ((Math.max(...ys) - Math.min(...ys)) * j) / 40];
      if (pointInPolygon(p[0], p[1], g)) inside = p;
    }
    expect(inside).not.toBeNull();
    // Only Bendigo's overlays are held here, so VIC coverage is partial.
    const layers = buildBushfireLayers({ officialOverlays: { VIC: { coverage: 'partial', source: 'vicmap_planning_overlay', features: bmo } } });
    const hit = bushfireScore(layers, { lon: inside![0], lat: inside![1], state: 'VIC' });
    expect(hit.official_zone_status).toBe('hit');
    expect(hit.overlay_basis.hits.some((h) => h.category === 'bushfire_management_overlay' && h.properties.ZONE_DESCR === 'BUSHFIRE MANAGEMENT OVERLAY')).toBe(true);
    const cbd = bushfireScore(layers, { lon: 144.9631, lat: -37.8136, state: 'VIC' });
    expect(cbd.official_zone_status).toBe('checked_partial_coverage');
  });
});
