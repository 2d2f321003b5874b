import type { Feature, Geometry } from 'geojson';
import { describe, expect, it } from 'vitest';
import { parseCounterRecords, parseLoggerRecords, parseRailFeatures, parseRoadFeatures, parseAnefFeatures } from '../../../engine/noise/noise-inputs.js';
import { buildNoiseNetwork, countersNear } from '../../../engine/noise/noise-network.js';
import { NoiseScene } from '../../../engine/noise/noise-scene.js';
import { evaluateNoisePoint } from '../../../engine/noise/point-evaluation.js';
import { ROAD_CLASS_DEFAULTS } from '../../../engine/noise/road-classes.js';
import { inferVicmapRoadClass } from '../../../engine/noise/vicmap-road-class.js';
import { accumulateReceiverFactors } from '../../../engine/noise/propagation.js';
import { expectEngineError } from '../../helpers/expect-engine-error.js';
import { at, counter, line, northSouth, railLine, road } from './noise-fixtures.js';

function feature(properties: Record<string, unknown>, geometry: Geometry = line([[0, 0], [0, 100]])): Feature<Geometry> {
  return { type: 'Feature', properties, geometry };
}

describe('traffic resolution', () => {
  it('a road without volume, speed or heavy share takes its class defaults, flagged, never NaN', () => {
    const net = buildNoiseNetwork({ roads: [northSouth('a', 0, 1000, { roadClass: 'collector' }), northSouth('b', 500, 1000, { roadClass: null })] });
    const [a, b] = net.features;
    expect(a.traffic).toMatchObject({ aadt: 5000, heavyShare: 0.03, speedKmh: 50 });
    expect(a.defaulted).toEqual(['aadt', 'heavy_share', 'speed_kmh']);
    expect(a.basis).toBe('default');
    expect(b.roadClass).toBe('local');
    expect(b.defaulted).toEqual(['road_class', 'aadt', 'heavy_share', 'speed_kmh']);
    expect(b.traffic.aadt).toBe(ROAD_CLASS_DEFAULTS.local.aadt);
    for (const f of net.features) for (const v of [f.emission.ld, f.emission.le, f.emission.ln, f.emission.lden]) expect(Number.isFinite(v)).toBe(true);
    const l = evaluateNoisePoint(net, ...at(100, 0)).ldenDb;
    expect(Number.isFinite(l)).toBe(true);
  });

  it('own attributes beat defaults; a matched counter beats both', () => {
    const roads = [northSouth('a', 0, 1000, { aadt: 8000, speedKmh: 60 }), northSouth('b', 500, 1000, { aadt: 8000 }), northSouth('c', 1000, 1000, { aadt: 8000 })];
    const counters = [
      counter('c1', 0, 100, 'a', 30_000, { heavyShare: 0.1, year: 2020 }),
      counter('c1-new', 0, 200, 'a', 32_000, { year: 2023 }), // the most recent count wins
      counter('c2', 502, 0, null, 12_000), // no road_id: matched to the road 2 m away
      counter('c3', 5000, 5000, 'nope', 9_000), // unknown road_id and nothing within 50 m: unused
    ];
    const net = buildNoiseNetwork({ roads, counters });
    const [a, b, c] = net.features;
    expect(a.basis).toBe('counter');
    expect(a.counterId).toBe('c1-new');
    expect(a.traffic).toMatchObject({ aadt: 32_000, speedKmh: 60, heavyShare: ROAD_CLASS_DEFAULTS.arterial.heavyShare });
    expect(a.defaulted).toEqual(['heavy_share']);
    expect(b.basis).toBe('counter');
    expect(b.traffic.aadt).toBe(12_000);
    expect(net.counters.find((x) => x.id === 'c2')!.match).toBe('proximity');
    expect(c.basis).toBe('attribute');
    expect(c.defaulted).toEqual(['heavy_share', 'speed_kmh']);
    expect(net.counters.find((x) => x.id === 'c3')!.match).toBe('unmatched');
    expect(countersNear(net, ...at(5000, 5000), 100)).toEqual([]);
    // Same class, speed and heavy share, 4x the traffic: 10 lg 4 = 6.02 dB louder at the reference position.
    expect(a.emission.lden - c.emission.lden).toBeCloseTo(10 * Math.log10(4), 6);
  });

  it('speed and heavy share move the level at a receiver exactly as the CoRTN terms say', () => {
    const level = (speedKmh: number, heavyShare: number) => {
      const net = buildNoiseNetwork({ roads: [northSouth('a', 0, 5000, { aadt: 20_000, speedKmh, heavyShare })] });
      return evaluateNoisePoint(net, ...at(60, 0)).ldenDb;
    };
    // Propagation does not depend on the traffic, so a receiver sees the emission change unaltered.
    // Speed 50 -> 100 km/h at p = 10 %: [33 lg 145 + 10 lg 1.5 - 68.8] - [33 lg 100 + 10 lg 2 - 68.8]
    //   = (71.3252 + 1.7609) - (66 + 3.0103) = 4.2861 - 0.2103 = 4.0758 dB
    expect(level(100, 0.1) - level(50, 0.1)).toBeCloseTo(4.0758, 3);
    // Heavy share 10 % -> 20 % at 50 km/h: 10 lg(1 + 5*20/50) - 10 lg(1 + 5*10/50) = 10 lg(3/2) = 1.7609 dB
    expect(level(50, 0.2) - level(50, 0.1)).toBeCloseTo(1.7609, 3);
  });

  it('rail lines without service counts take mode defaults, flagged', () => {
    const net = buildNoiseNetwork({ roads: [], rail: [railLine('t', 'tram', [[0, 0], [0, 500]]), railLine('r', 'rail', [[100, 0], [100, 500]], { servicesPerDay: 300, speedKmh: 90 })] });
    expect(net.features[0]).toMatchObject({ kind: 'tram', basis: 'default', defaulted: ['services_day', 'speed_kmh'] });
    expect(net.features[1]).toMatchObject({ kind: 'rail', basis: 'attribute', defaulted: [] });
    expect(net.layers).toMatchObject({ roads: true, rail: true, counters: false, loggers: false, anef: false });
  });

  it('picks the MGA zone of the network for its metric CRS', () => {
    expect(buildNoiseNetwork({ roads: [northSouth('a', 0, 100)] }).crs).toBe('EPSG:7855');
    expect(buildNoiseNetwork({ roads: [road('p', [[0, 0], [0, 10]])] }, { crs: 'EPSG:7856' }).crs).toBe('EPSG:7856');
  });

  it('shares its scene with another thread without copying: the reattached scene answers the same', () => {
    const net = buildNoiseNetwork({ roads: [northSouth('a', 0, 1000, { aadt: 10_000 }), northSouth('b', 300, 1000)] });
    const shared = net.scene.toShared();
    expect(shared.segments).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.tree).toBeInstanceOf(SharedArrayBuffer);
    const copy = NoiseScene.fromShared(structuredClone(shared));
    const f1 = new Float64Array(copy.featureCount), f2 = new Float64Array(copy.featureCount);
    const x = net.scene.segments[0] + 120, y = net.scene.segments[1] + 400;
    accumulateReceiverFactors(net.scene, x, y, f1, []);
    accumulateReceiverFactors(copy, x, y, f2, []);
    expect(Array.from(f2)).toEqual(Array.from(f1));
    expect(f1[0]).toBeGreaterThan(0);
  });
});

describe('input validation', () => {
  it('rejects wrong values naming the file, the feature and the field', async () => {
    await expectEngineError(() => parseRoadFeatures([feature({ road_id: 'r1', road_class: 'highway' })], 'roads.geojson'), 'INVALID_DATA', /roads\.geojson/, /"r1"/, /road_class/);
    await expectEngineError(() => parseRoadFeatures([feature({ road_id: 'r1', aadt: 'lots' })], 'roads.geojson'), 'INVALID_DATA', /aadt must be a number/);
    await expectEngineError(() => parseRoadFeatures([feature({ heavy_share: 1.5 })], 'roads.geojson'), 'INVALID_DATA', /heavy_share must be at most 1/);
    await expectEngineError(() => parseRoadFeatures([feature({ barrier_height_m: 3 })], 'roads.geojson'), 'INVALID_DATA', /barrier_height_m and barrier_offset_m/);
    await expectEngineError(() => parseRoadFeatures([feature({}, { type: 'Point', coordinates: [145, -37.8] })], 'roads.geojson'), 'INVALID_DATA', /LineString/);
    await expectEngineError(() => parseRailFeatures([feature({ mode: 'monorail' })], 'rail.geojson'), 'INVALID_DATA', /mode must be one of rail, tram/);
    await expectEngineError(() => parseCounterRecords([{ counter_id: 'c', lon: '145', lat: '-37.8', aadt: '' }], 'counters.csv'), 'INVALID_DATA', /counters\.csv/, /line 2/, /aadt is required/);
    await expectEngineError(() => parseLoggerRecords([{ logger_id: 'l', lon: '145', lat: '-97', state: 'VIC', lden_db: '60' }], 'loggers.csv'), 'INVALID_DATA', /lat must be at least -90/);
    await expectEngineError(() => parseAnefFeatures([feature({ anef_min: 25, anef_max: 20 }, { type: 'Polygon', coordinates: [[[145, -37], [145.1, -37], [145.1, -37.1], [145, -37]]] })], 'anef.geojson'), 'INVALID_DATA', /anef_max \(20\) must exceed anef_min \(25\)/);
  });

  it('reads blank CSV cells as missing and numeric text as numbers', () => {
    const [r] = parseRoadFeatures([feature({ road_id: 'r', road_class: 'local', aadt: '', heavy_share: null, speed_kmh: '40', crowd_sourced: 'true' })], 'roads.geojson');
    expect(r).toMatchObject({ aadt: null, heavyShare: null, speedKmh: 40, crowdSourced: true, roadClass: 'local' });
    const [c] = parseCounterRecords([{ counter_id: 'c', lon: '145', lat: '-37.8', road_id: '', road_name: 'X St', aadt: '12000', heavy_share: '', speed_kmh: '', year: '2021', source: 's' }], 'counters.csv');
    expect(c).toMatchObject({ roadId: null, aadt: 12000, heavyShare: null, year: 2021 });
    const [l] = parseLoggerRecords([{ logger_id: 'l', lon: 145, lat: -37.8, state: 'vic', lden_db: 61.5 }], 'loggers.jsonl');
    expect(l.state).toBe('VIC');
  });
});

describe('Vicmap class inference', () => {
  it('follows the documented rule', () => {
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'FREEWAY', EZI_RDNAME: 'MONASH FREEWAY' }, 900)).toBe('motorway');
    expect(inferVicmapRoadClass({ ROAD_TYPE: null, EZI_RDNAME: 'CITYLINK' }, 100)).toBe('motorway');
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'RAMP', EZI_RDNAME: 'X RAMP' }, 100)).toBe('arterial');
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'ROAD', EZI_RDNAME: 'PUNT ROAD' }, 3000)).toBe('arterial');
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'ROAD', EZI_RDNAME: 'SHORT ROAD' }, 300)).toBe('collector');
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'STREET', EZI_RDNAME: 'SWAN STREET' }, 2500)).toBe('collector');
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'STREET', EZI_RDNAME: 'LITTLE STREET' }, 400)).toBe('local');
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'LANE', EZI_RDNAME: 'UNNAMED' }, 0)).toBe('local');
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'TRAIL', EZI_RDNAME: 'MAIN YARRA TRAIL' }, 9000)).toBeNull();
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'FREEWAY', FTYPE_CODE: 'tunnel' }, 9000)).toBeNull();
  });

  it('treats pedestrian spaces (CONCOURSE, PLAZA) as no traffic, however long and in any case', () => {
    // Long enough that rule 5 would make them collectors if they were streets.
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'STREET', EZI_RDNAME: 'FED STREET' }, 2500)).toBe('collector');
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'CONCOURSE', EZI_RDNAME: 'SOUTHBANK CONCOURSE' }, 2500)).toBeNull();
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'PLAZA', EZI_RDNAME: 'CITY PLAZA' }, 2500)).toBeNull();
    expect(inferVicmapRoadClass({ ROAD_TYPE: 'plaza', EZI_RDNAME: 'CITY PLAZA' }, 100)).toBeNull();
  });
});
