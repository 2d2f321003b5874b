/**
 * `GET /map`: every tile layer on a MapLibre GL JS map, served from this server alone: the library and its
 * style sheet from the package (`/map/maplibre-gl.js`, `/map/maplibre-gl.css`), the tiles from
 * `/api/v1/tiles`, no CDN, no token, no glyphs or sprites (nothing here draws text on the map), and a basemap
 * drawn from our own land, water, roads, parcels and zones. A layer switcher shows each layer with its legend;
 * a click lists what the visible layers hold at that point, and on the sample world the property summary of
 * the point (`/map/point`: scores with their labels, hazards, DAs). Attribution comes from each layer's TileJSON.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { escapeHtml } from '../../engine/entry/runtime.js';

/** A place the map can jump to. */
export interface MapPlace {
  label: string;
  lat: number;
  lng: number;
}

/** One tile layer as the page shows it. */
export interface MapLayerInfo {
  id: string;
  minzoom: number;
  maxzoom: number;
  attribution: string;
}

const require = createRequire(import.meta.url);

/** The maplibre-gl build and style sheet shipped with the package. */
export function maplibreAsset(kind: 'js' | 'css'): string {
  return readFileSync(require.resolve(`maplibre-gl/dist/maplibre-gl.${kind}`), 'utf8');
}

const esc = escapeHtml;

/** The overlay layers of the switcher, their MapLibre style layers and legend swatches. */
const OVERLAYS: { id: string; label: string; on: boolean; legend: [string, string][] }[] = [
  { id: 'das', label: 'Development applications', on: true, legend: [['#E69F00', 'pending'], ['#CC79A7', 'advertised'], ['#009E73', 'approved'], ['#D55E00', 'rejected'], ['#888888', 'other']] },
  { id: 'zones', label: 'Planning zones', on: false, legend: [['#d9c7f0', 'zone']] },
  { id: 'overlays', label: 'Planning overlays', on: false, legend: [['#7a5195', 'overlay outline']] },
  { id: 'flood', label: 'Flood overlays', on: false, legend: [['#3b8bd9', 'flood']] },
  { id: 'bushfire', label: 'Bushfire', on: false, legend: [['#e4572e', 'bushfire prone / control']] },
  { id: 'schools', label: 'Schools', on: true, legend: [['#3b2f8f', 'school']] },
  { id: 'parcels', label: 'Parcels (z 16+)', on: false, legend: [['#8c6d46', 'parcel']] },
  { id: 'contours', label: 'Contours (z 12+)', on: false, legend: [['#8a5a2b', 'major'], ['#c8a27a', 'minor']] },
  { id: 'hand', label: 'Height above drainage, HAND (z 14+)', on: false, legend: [['#08519c', '<= 1 m'], ['#3182bd', '<= 3'], ['#6baed6', '<= 5'], ['#bdd7e7', '<= 10 m']] },
  { id: 'noise', label: 'Modelled noise, Lden (z 14+)', on: false, legend: [['#fff3b0', '45+'], ['#fdd36a', '55+'], ['#f59e3b', '65+'], ['#c2410c', '75+ dB']] },
  { id: 'hillshade', label: 'Hillshade (terrain tiles)', on: true, legend: [['#5a5a5a', 'shade'], ['#ffffff', 'light']] },
];

/** The page. `layers` are the server's tile layers; `places` the jump list (the first is where it opens). */
export function renderMapPage(layers: MapLayerInfo[], places: MapPlace[], options: { pointSummary: boolean; terrain?: MapLayerInfo | null }): string {
  const start = places[0] ?? { label: 'Australia', lat: -27, lng: 134 };
  const overlays = OVERLAYS.filter((o) => o.id !== 'hillshade' || options.terrain);
  const config = { layers, places, terrain: options.terrain ?? null, pointSummary: options.pointSummary, overlays: overlays.map(({ id, on }) => ({ id, on })) };
  return `<!doctype html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>propintel map</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/map/maplibre-gl.css">
<style>
html,body{margin:0;height:100%;font:13px/1.4 Helvetica,Arial,sans-serif}
#map{position:absolute;inset:0 300px 0 0}
#panel{position:absolute;top:0;right:0;bottom:0;width:300px;overflow:auto;border-left:1px solid #ccc;background:#fafafa;padding:10px 12px;box-sizing:border-box}
h1{font-size:16px;margin:0 0 6px}h2{font-size:13px;margin:14px 0 4px}
label{display:block;margin:3px 0}.sw{display:inline-block;width:10px;height:10px;margin:0 4px 0 18px;border:1px solid #0003;vertical-align:middle}
.legend{font-size:11px;color:#444}#info{font-size:12px;white-space:normal}#info table{border-collapse:collapse;width:100%}#info td{border-bottom:1px solid #e5e5e5;padding:2px 3px;vertical-align:top}
select{width:100%}.muted{color:#666;font-size:11px}
</style>
</head>
<body>
<div id="map" role="region" aria-label="Map"></div>
<div id="panel">
<h1>propintel map</h1>
<p class="muted">Tiles from this server (<code>/api/v1/tiles</code>); the basemap is our own land, water, roads, parcels and zones.</p>
<label>Go to <select id="place">${places.map((p, i) => `<option value="${i}">${esc(p.label)}</option>`).join('')}</select></label>
<h2>Layers</h2>
${overlays.map((o) => `<label><input type="checkbox" id="layer-${o.id}" data-layer="${o.id}"${o.on ? ' checked' : ''}> ${esc(o.label)}</label><div class="legend">${o.legend.map(([c, t]) => `<span class="sw" style="background:${c}"></span>${esc(t)}`).join('')}</div>`).join('\n')}
<h2>At the clicked point</h2>
<div id="info" class="muted">Click the map.</div>
</div>
<script src="/map/maplibre-gl.js"></script>
<script>
const CONFIG = ${JSON.stringify(config).replace(/</g, '\\u003c')};
const origin = location.origin;
const byId = Object.fromEntries(CONFIG.layers.map((l) => [l.id, l]));
const source = (id) => ({ type: 'vector', tiles: [origin + '/api/v1/tiles/' + id + '/{z}/{x}/{y}.mvt'], minzoom: byId[id].minzoom, maxzoom: byId[id].maxzoom, attribution: byId[id].attribution });
const sources = {};
for (const l of CONFIG.layers) sources[l.id] = source(l.id);
// Terrain: the server's Terrarium PNG tiles as a raster-dem source, drawn as hillshade.
if (CONFIG.terrain) sources.terrain = { type: 'raster-dem', tiles: [origin + '/api/v1/tiles/terrain/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256, minzoom: CONFIG.terrain.minzoom, maxzoom: CONFIG.terrain.maxzoom, attribution: CONFIG.terrain.attribution };
// Road widths in pixels by class, growing with the zoom as the roads do on the ground (about 2 px at z10, a
// carriageway's width at z18); the casing is a little wider.
const roadWidth = (extra) => ['interpolate', ['exponential', 1.6], ['zoom'],
  10, ['match', ['get', 'road_class'], 'motorway', 2 + extra / 2, 'arterial', 1.5 + extra / 2, 'collector', 1 + extra / 2, 0.6 + extra / 2],
  14, ['match', ['get', 'road_class'], 'motorway', 4 + extra, 'arterial', 3 + extra, 'collector', 2.4 + extra, 1.6 + extra],
  18, ['match', ['get', 'road_class'], 'motorway', 22 + extra * 2, 'arterial', 18 + extra * 2, 'collector', 14 + extra * 2, 10 + extra * 2]];
const vis = (id) => (CONFIG.overlays.find((o) => o.id === id)?.on ? 'visible' : 'none');
const style = {
  version: 8,
  sources,
  layers: [
    { id: 'land', type: 'background', paint: { 'background-color': '#f3f0e8' } },
    { id: 'basemap-zones', type: 'fill', source: 'zones', 'source-layer': 'zones', paint: { 'fill-color': '#ebe6da', 'fill-opacity': 0.5 } },
    ...(CONFIG.terrain ? [{ id: 'hillshade', type: 'hillshade', source: 'terrain', layout: { visibility: vis('hillshade') }, paint: { 'hillshade-exaggeration': 0.35, 'hillshade-shadow-color': '#5a5a5a' } }] : []),
    { id: 'water-fill', type: 'fill', source: 'water', 'source-layer': 'water', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': '#a9d3e6' } },
    { id: 'water-line', type: 'line', source: 'water', 'source-layer': 'water', filter: ['==', ['geometry-type'], 'LineString'], paint: { 'line-color': '#6aaed6', 'line-width': 2 } },
    { id: 'basemap-parcels', type: 'line', source: 'parcels', 'source-layer': 'parcels', minzoom: 16, paint: { 'line-color': '#d8cfbd', 'line-width': 0.5 } },
    { id: 'roads-casing', type: 'line', source: 'roads', 'source-layer': 'roads', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': '#c9c1b0', 'line-width': roadWidth(1.5) } },
    { id: 'roads', type: 'line', source: 'roads', 'source-layer': 'roads', layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': ['match', ['get', 'road_class'], 'motorway', '#e990a0', 'arterial', '#f9c08f', 'collector', '#fde6b0', '#ffffff'], 'line-width': roadWidth(0) } },
    { id: 'zones', type: 'fill', source: 'zones', 'source-layer': 'zones', layout: { visibility: vis('zones') }, paint: { 'fill-color': '#b79ce0', 'fill-opacity': 0.35, 'fill-outline-color': '#7a5195' } },
    { id: 'overlays', type: 'line', source: 'overlays', 'source-layer': 'overlays', layout: { visibility: vis('overlays') }, paint: { 'line-color': '#7a5195', 'line-width': 1.5, 'line-dasharray': [2, 1] } },
    { id: 'hand', type: 'fill', source: 'hand', 'source-layer': 'hand', layout: { visibility: vis('hand') }, paint: { 'fill-color': ['interpolate', ['linear'], ['get', 'hand_max_m'], 1, '#08519c', 3, '#3182bd', 5, '#6baed6', 10, '#bdd7e7', 20, '#eff3ff'], 'fill-opacity': 0.3 } },
    { id: 'noise', type: 'fill', source: 'noise', 'source-layer': 'noise', layout: { visibility: vis('noise') }, paint: { 'fill-color': ['interpolate', ['linear'], ['get', 'lden_db'], 45, '#fff3b0', 55, '#fdd36a', 65, '#f59e3b', 75, '#c2410c'], 'fill-opacity': 0.35 } },
    { id: 'flood', type: 'fill', source: 'flood', 'source-layer': 'flood', layout: { visibility: vis('flood') }, paint: { 'fill-color': '#3b8bd9', 'fill-opacity': 0.35 } },
    { id: 'bushfire', type: 'fill', source: 'bushfire', 'source-layer': 'bushfire', layout: { visibility: vis('bushfire') }, paint: { 'fill-color': '#e4572e', 'fill-opacity': 0.3 } },
    { id: 'parcels', type: 'line', source: 'parcels', 'source-layer': 'parcels', minzoom: 16, layout: { visibility: vis('parcels') }, paint: { 'line-color': '#8c6d46', 'line-width': 1 } },
    { id: 'contours', type: 'line', source: 'contours', 'source-layer': 'contours', layout: { visibility: vis('contours') }, paint: { 'line-color': ['case', ['==', ['get', 'level'], 1], '#8a5a2b', '#c8a27a'], 'line-width': ['case', ['==', ['get', 'level'], 1], 1.4, 0.7] } },
    { id: 'schools', type: 'circle', source: 'schools', 'source-layer': 'schools', layout: { visibility: vis('schools') }, paint: { 'circle-color': '#3b2f8f', 'circle-radius': 6, 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 } },
    { id: 'das', type: 'circle', source: 'das', 'source-layer': 'das', layout: { visibility: vis('das') }, paint: { 'circle-color': ['match', ['get', 'status_group'], 'pending', '#E69F00', 'advertised', '#CC79A7', 'approved', '#009E73', 'rejected', '#D55E00', '#888888'], 'circle-radius': 4.5, 'circle-stroke-color': '#fff', 'circle-stroke-width': 1 } },
  ],
};
const start = CONFIG.places[0] || { lat: ${start.lat}, lng: ${start.lng} };
const map = new maplibregl.Map({ container: 'map', style, center: [start.lng, start.lat], zoom: 14, maxZoom: 18, attributionControl: { compact: true }, canvasContextAttributes: { preserveDrawingBuffer: true } });
map.addControl(new maplibregl.NavigationControl(), 'top-left');
map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-left');
window.propintelMap = map;
// The attribution of every source shown stays one click away (the i button): opened, it would cover the map.
map.once('load', () => document.querySelector('.maplibregl-ctrl-attrib')?.classList.remove('maplibregl-compact-show'));
for (const box of document.querySelectorAll('input[data-layer]')) {
  box.addEventListener('change', () => map.setLayoutProperty(box.dataset.layer, 'visibility', box.checked ? 'visible' : 'none'));
}
document.getElementById('place').addEventListener('change', (e) => {
  const p = CONFIG.places[Number(e.target.value)];
  map.jumpTo({ center: [p.lng, p.lat], zoom: 14 });
});
const text = (v) => String(v).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
map.on('click', async (e) => {
  const info = document.getElementById('info');
  const shown = ['das', 'schools', 'zones', 'overlays', 'flood', 'bushfire', 'parcels', 'contours', 'noise', 'hand'].filter((id) => map.getLayoutProperty(id, 'visibility') !== 'none');
  const hits = map.queryRenderedFeatures(e.point, { layers: shown });
  let html = '<table>' + hits.slice(0, 12).map((f) => '<tr><td>' + text(f.layer.id) + '</td><td>' + Object.entries(f.properties).filter(([k]) => k !== 'source').slice(0, 5).map(([k, v]) => text(k) + ': ' + text(v)).join('<br>') + '</td></tr>').join('') + '</table>';
  if (!hits.length) html = '<p>No feature of the shown layers here.</p>';
  info.innerHTML = '<p>' + e.lngLat.lat.toFixed(5) + ', ' + e.lngLat.lng.toFixed(5) + '</p>' + html;
  if (!CONFIG.pointSummary) return;
  const res = await fetch('/map/point?lat=' + e.lngLat.lat + '&lng=' + e.lngLat.lng);
  if (!res.ok) return;
  const s = await res.json();
  info.innerHTML += '<h2>Property summary</h2><table>' + Object.entries(s).map(([k, v]) => '<tr><td>' + text(k) + '</td><td>' + text(typeof v === 'object' ? JSON.stringify(v) : v) + '</td></tr>').join('') + '</table>';
});
</script>
</body>
</html>
`;
}
