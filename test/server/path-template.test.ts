// One path-template matcher for the route table (server/api/path-template.ts, issue 50): it matches every path
// the five regular expressions it replaced matched, with the same parameters, and nothing else they refused.
import { describe, expect, it } from 'vitest';
import { PathMatcher } from '../../server/api/path-template.js';
import { ROUTES } from '../../server/api/routes.js';

const OLD = {
  da: /^(\/api)?\/v1\/das\/([^/]+)$/,
  tile: /^\/api\/v1\/tiles\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\.(mvt|png)$/,
  tilejson: /^\/api\/v1\/tiles\/([^/]+)\.json$/,
  webhook: /^(\/api)?\/v1\/webhooks\/([^/]+)(\/test|\/deliveries)?$/,
  batch: /^(\/api)?\/v1\/batch\/([^/]+)(\/results)?$/,
};

describe('the path-template matcher', () => {
  const m = new PathMatcher<string>();
  for (const r of ROUTES) m.add(r.path, r.path);
  m.add('/api/v1/tiles/{layer}/{z}/{x}/{y}.png', 'any png');

  it('matches the parameterised paths as the old expressions did, with the same parameters', () => {
    const cases: [string, string, Record<string, string>][] = [
      ['/v1/das/200279', '/v1/das/{id}', { id: '200279' }],
      ['/api/v1/das/DA%2F2026%2F1', '/api/v1/das/{id}', { id: 'DA%2F2026%2F1' }],
      ['/v1/webhooks/wh_1', '/v1/webhooks/{id}', { id: 'wh_1' }],
      ['/api/v1/webhooks/wh_1/test', '/api/v1/webhooks/{id}/test', { id: 'wh_1' }],
      ['/v1/webhooks/wh_1/deliveries', '/v1/webhooks/{id}/deliveries', { id: 'wh_1' }],
      ['/v1/batch/batch_abc/results', '/v1/batch/{id}/results', { id: 'batch_abc' }],
      ['/api/v1/batch/batch_abc', '/api/v1/batch/{id}', { id: 'batch_abc' }],
      ['/api/v1/tiles/zones/14/100/200.mvt', '/api/v1/tiles/{layer}/{z}/{x}/{y}.mvt', { layer: 'zones', z: '14', x: '100', y: '200' }],
      ['/api/v1/tiles/terrain/12/3766/2457.png', '/api/v1/tiles/terrain/{z}/{x}/{y}.png', { z: '12', x: '3766', y: '2457' }],
      ['/api/v1/tiles/zones/1/2/3.png', 'any png', { layer: 'zones', z: '1', x: '2', y: '3' }],
      ['/api/v1/tiles/roads.json', '/api/v1/tiles/{layer}.json', { layer: 'roads' }],
    ];
    for (const [path, value, params] of cases) {
      expect(m.match(path), path).toMatchObject({ value, params });
      expect(Object.values(OLD).some((re) => re.test(path)), path).toBe(true);
    }
  });

  it('refuses what they refused: empty parameters, extra or missing segments, other suffixes', () => {
    for (const path of ['/v1/das/', '/v1/das/1/2', '/v1/webhooks/wh_1/other', '/api/v1/tiles/zones/1/2/.mvt', '/api/v1/tiles/zones/1/2/3.pbf', '/api/v1/tiles/.json', '/v1/batch//results', '/api/v1/tiles/zones/1/2.mvt']) {
      expect(Object.values(OLD).some((re) => re.test(path)), path).toBe(false);
      expect(m.match(path), path).toBeNull();
    }
  });

  it('answers a plain path exactly, before any template', () => {
    expect(m.match('/api/v1/property')).toMatchObject({ value: '/api/v1/property', params: {} });
    expect(m.match('/api/v1/das')).toMatchObject({ value: '/api/v1/das' });
  });
});
