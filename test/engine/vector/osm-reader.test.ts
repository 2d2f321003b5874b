// The OSM reader on an extract this test writes: tagged nodes as points, ways as lines or area polygons,
// road classes from highway tags, a way with a node missing from the file left out and named, relations
// counted; the PBF reader giving the same features as the XML one for the same extract (converted by
// osmium, skipped where osmium-tool is absent, failed under .ci/run which installs it); and the real Perth
// extract when present, else a generated extract of its shape, against a reference counted from the text.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOsmLayer } from '../../../engine/vector/osm-reader.js';
import { missingTool, needs } from '../../helpers/skip.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/tmp.js';

const dir = tempDir('osm-');

/**
 * Where the real Perth extract is absent: an extract of its shape written here (an export cut at a box, as
 * the real one is): 24 highway ways of every class the reader maps, links included, with a rotated node
 * order, four of them cut at the edge (a node outside the file), footways and a waterway that are not roads,
 * and an untagged way.
 */
function writePerthLikeExtract(path: string): string {
  const highways = ['motorway', 'motorway_link', 'trunk', 'primary', 'primary_link', 'secondary', 'tertiary', 'residential', 'unclassified', 'living_street', 'service', 'road'];
  const nodes: string[] = [];
  const ways: string[] = [];
  let nid = 1000;
  for (let k = 0; k < 30; k++) {
    const ids: number[] = [];
    for (let j = 0; j < 4; j++) {
      const id = nid++;
      nodes.push(`  <node id="${id}" lat="${(-31.95 - k * 0.001 - j * 0.0002).toFixed(7)}" lon="${(115.85 + j * 0.001 + k * 0.0003).toFixed(7)}"/>`);
      ids.push(id);
    }
    // Ways 20-23 reach a node outside the box (not in the file); 24-26 are not roads; 27 has no tags.
    const refs = k >= 20 && k < 24 ? [...ids, 999_000 + k] : ids;
    const tag = k < 24 ? `<tag k="highway" v="${highways[k % highways.length]}"/><tag k="name" v="Way ${k}"/>` : k < 26 ? '<tag k="highway" v="footway"/>' : k < 27 ? '<tag k="waterway" v="drain"/>' : '';
    ways.push(`  <way id="${5000 + k}">${refs.map((r) => `<nd ref="${r}"/>`).join('')}${tag}</way>`);
  }
  writeFileSync(path, `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="test">\n${nodes.join('\n')}\n${ways.join('\n')}\n</osm>\n`);
  return path;
}
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="test">
  <node id="1" lat="-32.0" lon="115.75"/>
  <node id="2" lat="-32.0" lon="115.76"/>
  <node id="3" lat="-32.01" lon="115.76"/>
  <node id="4" lat="-32.01" lon="115.75"/>
  <node id="5" lat="-32.005" lon="115.755"><tag k="amenity" v="cafe"/><tag k="name" v="Café &amp; Bar"/></node>
  <node id="6" lat="-32.02" lon="115.77"><tag k="highway" v="crossing"/></node>
  <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="primary"/><tag k="name" v="Marine Terrace"/><tag k="maxspeed" v="50"/></way>
  <way id="11"><nd ref="2"/><nd ref="3"/><tag k="highway" v="footway"/></way>
  <way id="12"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="1"/><tag k="building" v="yes"/></way>
  <way id="13"><nd ref="3"/><nd ref="99"/><tag k="highway" v="residential"/></way>
  <way id="14"><nd ref="3"/><nd ref="4"/><tag k="highway" v="motorway_link"/></way>
  <relation id="20"><member type="way" ref="12" role="outer"/><tag k="type" v="multipolygon"/></relation>
</osm>
`;

describe('the OSM reader', () => {
  it('reads tagged nodes, ways as lines or areas, road classes; names the way it cannot build', async () => {
    const file = join(dir, 'extract.osm');
    writeFileSync(file, XML);
    const all = await readOsmLayer(file);
    expect(all.features.map((f) => [f.id, f.geometry.type])).toEqual([
      ['node/5', 'Point'], ['node/6', 'Point'], ['way/10', 'LineString'], ['way/11', 'LineString'], ['way/12', 'Polygon'], ['way/14', 'LineString'],
    ]);
    expect(all.features[0].properties).toEqual({ amenity: 'cafe', name: 'Café & Bar', osm_type: 'node', osm_id: 5 });
    expect(all.features[2].properties).toMatchObject({ highway: 'primary', road_class: 'arterial', road_id: 'way/10', name: 'Marine Terrace', maxspeed: '50' });
    expect(all.features[2].geometry).toEqual({ type: 'LineString', coordinates: [[115.75, -32], [115.76, -32]] });
    expect(all.warnings).toEqual(['1 way(s) with nodes missing from the file not built (e.g. way 13)', '1 relation(s) not assembled (multipolygons and routes are not read)']);
    const roads = await readOsmLayer(file, { layer: 'roads' });
    expect(roads.features.map((f) => [f.id, f.properties?.road_class])).toEqual([['way/10', 'arterial'], ['way/14', 'motorway']]);
    await expect(readOsmLayer(file, { layer: 'rivers' })).rejects.toThrow(/layer is "roads" or none/);
    writeFileSync(join(dir, 'broken.osm'), '<osm><node id="1" lat="1" lon="2"></osm>');
    await expect(readOsmLayer(join(dir, 'broken.osm'))).rejects.toThrow(/broken\.osm: not OSM XML/);
  });

  it('reads the PBF of the same extract to the same features', async (ctx) => {
    const missing = missingTool('osmium', ['--version'], 'osmium-tool');
    needs(ctx, missing && `${missing} to write the PBF`);
    const xml = join(dir, 'same.osm');
    writeFileSync(xml, XML.replace('<node id="5" lat="-32.005" lon="115.755"><tag k="amenity" v="cafe"/><tag k="name" v="Café &amp; Bar"/></node>', '<node id="5" lat="-32.005" lon="115.755"><tag k="amenity" v="cafe"/><tag k="name" v="Café &amp; Bar"/></node>'));
    const pbf = join(dir, 'same.osm.pbf');
    const r = spawnSync('osmium', ['cat', xml, '-o', pbf, '--overwrite'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const a = await readOsmLayer(xml);
    const b = await readOsmLayer(pbf);
    expect(b.features.map((f) => [f.id, f.properties, f.geometry])).toEqual(a.features.map((f) => [f.id, f.properties, f.geometry]));
    expect(b.warnings).toEqual(a.warnings);
    // Through a catalogue, as road input to the noise model.
    const ds = join(dir, 'dataset');
    await runCli(['catalogue', 'init', ds]);
    const add = await runCli(['catalogue', 'add', ds, '--file', pbf, '--layer', 'roads', '--id', 'osm_roads', '--paths', 'scores.noise.roads', '--state', 'WA', '--coverage', 'partial', '--licence', 'ODbL 1.0', '--attribution', '(c) OpenStreetMap contributors']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/format: osm\n {2}CRS: EPSG:4326 \(OpenStreetMap coordinates are WGS 84\)/);
    expect(add.stdout).toMatch(/note: osm_roads: 1 way\(s\) with nodes missing/);
    expect(JSON.parse((await import('node:fs')).readFileSync(join(ds, 'catalogue.json'), 'utf8')).sources[0]).toMatchObject({ format: 'osm', files: [{ layer: 'roads' }], obligation_status: 'share_alike' });
  });

  it('reads a Perth extract (the real one, else a generated one of its shape): every highway way with all its nodes, a class for every road', async () => {
    const root = resolve(process.env.PROPINTEL_REALDATA ?? join(__dirname, '..', '..', '..', '..', 'shared', 'realdata'));
    const real = join(root, 'roads', 'osm_perth_peanut_roundabout.osm');
    const file = existsSync(real) ? real : writePerthLikeExtract(join(dir, 'perth-like.osm'));
    const text = (await import('node:fs')).readFileSync(file, 'utf8');
    const roads = await readOsmLayer(file, { layer: 'roads' });
    // Reference: the ways of the file tagged with a road highway, counted from the text.
    const ways = [...text.matchAll(/<way\s+id="(\d+)"[^>]*>([\s\S]*?)<\/way>/g)].filter((m) => /<tag k="highway" v="(motorway|trunk|primary|secondary|tertiary|residential|unclassified|living_street|service|road)(_link)?"/.test(m[2]));
    const nodes = new Set([...text.matchAll(/<node\s+id="(\d+)"/g)].map((m) => m[1]));
    const complete = ways.filter((m) => [...m[2].matchAll(/<nd ref="(\d+)"/g)].every((n) => nodes.has(n[1])));
    expect(roads.features.map((f) => f.properties?.osm_id).sort()).toEqual(complete.map((m) => Number(m[1])).sort());
    expect(complete.length).toBeGreaterThan(10);
    expect(roads.features.every((f) => ['motorway', 'arterial', 'collector', 'local'].includes(String(f.properties?.road_class)))).toBe(true);
  });
});
