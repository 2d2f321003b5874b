// Numbers in payloads at the precision they mean (issue 27): the rule on a hand-made payload, then every
// number of every sandbox payload (full with geometry and surfaces, and core) checked against the rule's
// table, written out here on its own.
import { describe, expect, it } from 'vitest';
import { withPrecision } from '../../../engine/property/precision.js';
import { useSampleEngine } from '../../helpers/sample-engine.js';

const world = useSampleEngine(2);

/** Decimals a number may carry at `path` (its keys) under `unit`: the README table, independently. */
function allowed(path: string[], unit: unknown, inGeometry: boolean): number {
  const key = [...path].reverse().find((k) => k !== '[]') ?? '';
  if (inGeometry) return 6;
  if (key === 'transform') return 3;
  if (['lat', 'lng', 'lon', 'latitude', 'longitude'].includes(key)) return 7;
  if (key === 'distance_m') return 0;
  if (key === 'value' && unit === 'm') return 1;
  if (key === 'value' && (unit === 'mm' || unit === 'dB')) return 1;
  if (key === 'value' && unit === 'share') return 4;
  if (key === 'value' && (unit === 'deg' || unit === 'degC')) return 2;
  if (/(^share$|_share$|_fraction$|^probability$)/.test(key)) return 4;
  if (/_db$|_mm$/.test(key)) return 1;
  if (/_km2$/.test(key)) return 4;
  if (/_km$/.test(key)) return 3;
  if (/_m$/.test(key)) return 1;
  if (/_deg$/.test(key)) return 2;
  return 4;
}

const decimals = (v: number) => (Number.isInteger(v) ? 0 : (String(v).split('.')[1] ?? '').replace(/e.*/, '').length + (String(v).includes('e-') ? Number(String(v).split('e-')[1]) : 0));

/** Every number carrying more digits than its field allows, as `path: value (max n)`. */
function excess(node: unknown, path: string[] = [], unit?: unknown, inGeometry = false, out: string[] = []): string[] {
  if (typeof node === 'number') {
    const max = allowed(path, unit, inGeometry);
    if (decimals(node) > max) out.push(`${path.join('.')}: ${node} (max ${max})`);
  } else if (Array.isArray(node)) node.forEach((v) => excess(v, [...path, '[]'], unit, inGeometry, out));
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    const geometry = typeof o.type === 'string' && Array.isArray(o.coordinates);
    for (const [k, v] of Object.entries(o)) excess(v, [...path, k], o.unit, inGeometry || (geometry && k === 'coordinates'), out);
  }
  return out;
}

describe('the precision rule', () => {
  it('rounds each kind of number to its digits, leaves whole numbers and the input alone', () => {
    const input = {
      resolved: { point: { lat: -37.75156734999, lng: 144.98737791234 } },
      parcel: { geometry: { type: 'Polygon', coordinates: [[[144.98737791234567, -37.7515673412345], [144.9, -37.7], [144.98737791234567, -37.7515673412345]]] } },
      flood: { components: { design_rainfall: { value: 51.400001525878906, unit: 'mm' }, hand: { value: 3.44449, unit: 'm' } }, nearest_drainage: { lon: 144.98844456292971, elevation_m: 38.4567 } },
      heat: { cooling_cover_share: 0.10337777777777778, grid: { transform: [321380.99828588404, 10, 0, 6257384.884805173, 0, -10] } },
      noise: { lden_db: 62.649999, score: 71, nodes: { lat: [-33.8315331234] } },
      zones: [{ distance_m: 12.6, area_km2: 0.123456789, band: 3 }],
      other: { weight: 2.9500000001, year: 2026, negative_zero: -0.00001 },
    };
    const before = JSON.stringify(input);
    const out = withPrecision(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(out).toEqual({
      resolved: { point: { lat: -37.7515673, lng: 144.9873779 } },
      parcel: { geometry: { type: 'Polygon', coordinates: [[[144.987378, -37.751567], [144.9, -37.7], [144.987378, -37.751567]]] } },
      flood: { components: { design_rainfall: { value: 51.4, unit: 'mm' }, hand: { value: 3.4, unit: 'm' } }, nearest_drainage: { lon: 144.9884446, elevation_m: 38.5 } },
      heat: { cooling_cover_share: 0.1034, grid: { transform: [321380.998, 10, 0, 6257384.885, 0, -10] } },
      noise: { lden_db: 62.6, score: 71, nodes: { lat: [-33.8315331] } },
      zones: [{ distance_m: 13, area_km2: 0.1235, band: 3 }],
      other: { weight: 2.95, year: 2026, negative_zero: 0 },
    });
    expect(excess(out)).toEqual([]);
    expect(excess(input).length).toBeGreaterThan(5); // the checker sees what the rule fixed
  });

  it('holds for every number of every sandbox payload: full with geometry and surfaces, and core', async () => {
    const { engine, sandbox } = world;
    const problems: string[] = [];
    let numbers = 0;
    const count = (n: unknown): void => {
      if (typeof n === 'number') numbers++;
      else if (n && typeof n === 'object') for (const v of Object.values(n)) count(v);
    };
    for (const s of sandbox) {
      for (const [variant, options] of [['full', { include_geometry: true, include_surfaces: true }], ['core', { variant: 'core' as const }]] as const) {
        const { payload } = await engine.property({ address: s.address }, options);
        count(payload);
        problems.push(...excess(payload).map((p) => `${s.address} (${variant}) ${p}`));
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(numbers).toBeGreaterThan(100_000);
  }, 240_000);
});
