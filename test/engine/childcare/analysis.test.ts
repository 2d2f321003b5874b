// The prepared point-in-polygon test (strips of edges, even-odd rule) against turf's booleanPointInPolygon,
// on a star-shaped ring of 5,000 vertices with a hole, at 20,000 seeded points.
import { booleanPointInPolygon } from '@turf/turf';
import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { monthsBetween, preparedPolygon } from '../../../engine/childcare/analysis.js';
import { seededRandom } from '../../../engine/random/seeded-random.js';

describe('preparedPolygon', () => {
  it('agrees with turf on every point of a 5,000-vertex ring with a hole', () => {
    const ring = Array.from({ length: 5000 }, (_, i) => {
      const a = (2 * Math.PI * i) / 5000;
      const r = 0.2 * (1 + 0.3 * Math.sin(9 * a));
      return [151 + r * Math.cos(a), -33.8 + r * Math.sin(a)];
    });
    ring.push(ring[0]);
    const hole = [[151.0, -33.82], [151.02, -33.82], [151.02, -33.78], [151.0, -33.78], [151.0, -33.82]];
    const polygon: Polygon = { type: 'Polygon', coordinates: [ring, hole] };
    const test = preparedPolygon(polygon);
    const rnd = seededRandom(18);
    let inside = 0, inHole = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = rnd.range(150.7, 151.3), y = rnd.range(-34.1, -33.5);
      const expected = booleanPointInPolygon([x, y], polygon);
      expect(test(x, y), `${x}, ${y}`).toBe(expected);
      if (expected) inside++;
      if (x > 151 && x < 151.02 && y > -33.82 && y < -33.78) inHole++, expect(expected).toBe(false);
    }
    expect(inside).toBeGreaterThan(1000);
    expect(inHole).toBeGreaterThan(0);
  });
});

describe('monthsBetween', () => {
  it('lists every month, across years', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsBetween('2026-03', '2026-03')).toEqual(['2026-03']);
  });
});

describe('childcare works types', () => {
  it('reads council wording', async () => {
    const { childcareWorksType } = await import('../../../engine/da/childcare.js');
    const cases: [string, string][] = [
      ['Construction of a child care centre with additional car parking', 'new_centre'],
      ['Extension of existing early learning centre (additional 30 places)', 'extension'],
      ['Increase in the number of children from 60 to 90', 'extension'],
      ['Change of use to a childcare centre', 'change_of_use'],
      ['Internal alterations and fit-out of childcare centre', 'alterations'],
      ['Renewal of signage', 'other'],
      ['Use and development of a childcare centre (120 places)', 'new_centre'],
    ];
    for (const [text, type] of cases) expect(childcareWorksType(text), text).toBe(type);
  });
});
