/**
 * The report map (issue 19, spec 4.2 rule 3): a vector map of a catchment drawn on our server from the
 * dataset's own layers, so the client supplies no map token and no tile is fetched. One drawing (a list of
 * paths, circles and text in map units) serves both formats: the HTML report writes it as inline SVG, the PDF
 * writes the same vectors with pdfkit.
 *
 * Projection: lon/lat are first put in local metres about the catchment's centre (the flat-earth scale of
 * engine/geo/distance.ts, under 0.1 % off within 30 km), then d3-geo's `geoIdentity().reflectY(true)` fits
 * them to the frame and clips lines and polygons to it. Working in planar metres sidesteps d3-geo's spherical
 * ring winding (its polygons want clockwise exterior rings, the opposite of RFC 7946): a GeoJSON catchment
 * with holes draws as itself, filled by the even-odd rule so its holes stay empty.
 *
 * Drawn: land, water bodies and watercourses, roads by class, the catchment (circle or polygon, holes shown),
 * open schools, the childcare DAs styled by pipeline stage, the site centre, a legend with counts, a scale bar,
 * a north arrow, and inside the frame the attribution of every source drawn.
 */
import { geoIdentity, geoPath } from 'd3-geo';
import type { Feature, Geometry, Polygon, Position } from 'geojson';
import { metresPerDegree } from '../../geo/distance.js';
import type { Catchment } from '../analysis.js';

/** One thing to draw, in map units (points; y grows downwards). Text `y` is the baseline. */
export type DrawItem =
  | { type: 'path'; d: string; fill?: string; stroke?: string; width?: number; dash?: number[]; evenOdd?: boolean; fillOpacity?: number }
  | { type: 'circle'; cx: number; cy: number; r: number; fill: string; stroke?: string; width?: number }
  | { type: 'rect'; x: number; y: number; w: number; h: number; fill?: string; stroke?: string; width?: number; fillOpacity?: number }
  | { type: 'text'; x: number; y: number; text: string; size: number; color?: string; bold?: boolean; anchor?: 'start' | 'middle' | 'end' };

/** A finished map drawing. */
export interface MapDrawing {
  width: number;
  height: number;
  items: DrawItem[];
  /** Metres per map unit (for the scale bar, and for tests). */
  metresPerUnit: number;
  /** Map units of a lon/lat point (for tests: where a feature was drawn). */
  project(lng: number, lat: number): [number, number];
}

/** A road of the map: its class (motorway, arterial, collector, local) and line. */
export interface MapRoad {
  roadClass: string;
  geometry: Geometry;
}

/** What the map shows. */
export interface MapInput {
  catchment: Catchment;
  /** Childcare DA points: [lng, lat] and pipeline stage. */
  das: { lng: number; lat: number; stage: string }[];
  /** Open-school points. */
  schools: { lng: number; lat: number }[];
  roads: MapRoad[];
  /** Watercourses (lines) and water bodies (polygons). */
  water: Geometry[];
  /** The attribution of every source drawn (short forms), shown inside the frame. */
  attribution: string[];
  /** DAs per stage in the whole catchment (the legend's counts; the map may show fewer: feature_limit). */
  stageCounts?: Record<string, number>;
  /** Map size in units (default 515 x 400: the text width of an A4 page at 40 pt margins). */
  width?: number;
  height?: number;
}

/** Pipeline-stage colours (colour-blind-safe Okabe-Ito hues) and legend labels, in legend order. */
export const STAGE_STYLE: Record<string, { color: string; label: string }> = {
  under_assessment: { color: '#E69F00', label: 'Under assessment' },
  advertised: { color: '#CC79A7', label: 'Advertised' },
  approved: { color: '#009E73', label: 'Approved' },
  refused: { color: '#D55E00', label: 'Refused' },
  withdrawn: { color: '#777777', label: 'Withdrawn' },
  unknown: { color: '#AAAAAA', label: 'Status unknown' },
};

const ROAD_STYLE: Record<string, { color: string; width: number; order: number }> = {
  local: { color: '#ffffff', width: 1.1, order: 0 },
  collector: { color: '#fde6b0', width: 1.7, order: 1 },
  arterial: { color: '#f9c08f', width: 2.3, order: 2 },
  motorway: { color: '#e990a0', width: 3.0, order: 3 },
};
const LAND = '#f3f0e8';
const WATER_FILL = '#a9d3e6';
const WATER_LINE = '#6aaed6';
const CATCHMENT = '#1f4e99';
const SCHOOL = '#3b2f8f';

/** A circle catchment as a lon/lat ring of `n` vertices (counter-clockwise, closed). */
export function circleRing(c: { lat: number; lng: number; radius_km: number }, n = 96): Position[] {
  const { kx, ky } = metresPerDegree(c.lat);
  const r = c.radius_km * 1000;
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    ring.push([c.lng + (r * Math.cos(a)) / kx, c.lat + (r * Math.sin(a)) / ky]);
  }
  ring.push(ring[0]);
  return ring;
}

/** The lon/lat box of a catchment. */
function boxOf(c: Catchment): [number, number, number, number] {
  const ring = c.kind === 'circle' ? circleRing(c, 64) : c.polygon.coordinates[0];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of ring) (x0 = Math.min(x0, x)), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y));
  return [x0, y0, x1, y1];
}

/** The lon/lat box the map shows: the catchment's, with a margin of 8 % each side. */
export function mapBox(c: Catchment): [number, number, number, number] {
  const [x0, y0, x1, y1] = boxOf(c);
  const mx = (x1 - x0) * 0.08, my = (y1 - y0) * 0.08;
  return [x0 - mx, y0 - my, x1 + mx, y1 + my];
}

/** Maps every position of a geometry. */
function mapGeometry(g: Geometry, f: (p: Position) => Position): Geometry {
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: f(g.coordinates) };
    case 'MultiPoint':
    case 'LineString':
      return { type: g.type, coordinates: g.coordinates.map(f) } as Geometry;
    case 'MultiLineString':
    case 'Polygon':
      return { type: g.type, coordinates: g.coordinates.map((l) => l.map(f)) } as Geometry;
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map((l) => l.map(f))) };
    case 'GeometryCollection':
      return { type: 'GeometryCollection', geometries: g.geometries.map((x) => mapGeometry(x, f)) };
  }
}

/** A 1, 2 or 5 times a power of ten, at most `max`. */
function niceLength(max: number): number {
  const p = 10 ** Math.floor(Math.log10(max));
  return [5, 2, 1].map((k) => k * p).find((v) => v <= max) ?? p;
}

/** Approximate width of Helvetica text (average advance 0.52 em), for placing labels and boxes. */
export function textWidth(text: string, size: number): number {
  return text.length * size * 0.52;
}

/** Lines of at most `max` characters, broken at spaces. */
export function wrapText(text: string, max: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > max) out.push(line), (line = word);
    else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

/** Draws the map (see the module comment). */
export function reportMap(input: MapInput): MapDrawing {
  const W = input.width ?? 515, H = input.height ?? 400;
  const c = input.catchment;
  const centre: [number, number] = c.kind === 'circle' ? [c.lng, c.lat] : (() => {
    const [x0, y0, x1, y1] = boxOf(c);
    return [(x0 + x1) / 2, (y0 + y1) / 2] as [number, number];
  })();
  const { kx, ky } = metresPerDegree(centre[1]);
  const local = (p: Position): Position => [(p[0] - centre[0]) * kx, (p[1] - centre[1]) * ky];
  const [bx0, by0, bx1, by1] = mapBox(c);
  const frame: Feature<Polygon> = { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1], [bx0, by0]].map(local)] } };
  const projection = geoIdentity().reflectY(true).fitExtent([[0, 0], [W, H]], frame).clipExtent([[0, 0], [W, H]]);
  const path = geoPath(projection);
  const d = (g: Geometry) => path(mapGeometry(g, local) as never) ?? '';
  const project = (lng: number, lat: number): [number, number] => projection(local([lng, lat]) as [number, number]) as [number, number];
  const metresPerUnit = 1 / projection.scale();
  const inFrame = ([x, y]: [number, number]) => x >= 0 && x <= W && y >= 0 && y <= H;

  const items: DrawItem[] = [{ type: 'rect', x: 0, y: 0, w: W, h: H, fill: LAND }];
  // Water: bodies filled, courses as lines.
  for (const g of input.water) {
    const polygonal = g.type === 'Polygon' || g.type === 'MultiPolygon';
    const p = d(g);
    if (p) items.push(polygonal ? { type: 'path', d: p, fill: WATER_FILL, stroke: WATER_LINE, width: 0.5 } : { type: 'path', d: p, stroke: WATER_LINE, width: 1.4 });
  }
  // Roads: casing, then the lines, minor classes under major ones.
  const roads = [...input.roads].sort((a, b) => (ROAD_STYLE[a.roadClass]?.order ?? 0) - (ROAD_STYLE[b.roadClass]?.order ?? 0));
  const drawn = roads.map((r) => ({ r, p: d(r.geometry), s: ROAD_STYLE[r.roadClass] ?? ROAD_STYLE.local })).filter((x) => x.p);
  for (const { p, s } of drawn) items.push({ type: 'path', d: p, stroke: '#c9c1b0', width: s.width + 1.1 });
  for (const { p, s } of drawn) items.push({ type: 'path', d: p, stroke: s.color, width: s.width });
  // The catchment: holes stay empty (even-odd) and their rings are drawn.
  const catchment: Polygon = c.kind === 'circle' ? { type: 'Polygon', coordinates: [circleRing(c)] } : c.polygon;
  items.push({ type: 'path', d: d(catchment), fill: CATCHMENT, fillOpacity: 0.07, stroke: CATCHMENT, width: 1.6, evenOdd: true });
  // Schools (squares), then DAs (dots by stage), then the site centre.
  for (const s of input.schools) {
    const [x, y] = project(s.lng, s.lat);
    if (inFrame([x, y])) items.push({ type: 'rect', x: x - 3.5, y: y - 3.5, w: 7, h: 7, fill: SCHOOL, stroke: '#ffffff', width: 0.8 });
  }
  const stageCounts = new Map<string, number>(Object.entries(input.stageCounts ?? {}));
  for (const a of input.das) {
    const [x, y] = project(a.lng, a.lat);
    if (!input.stageCounts) stageCounts.set(a.stage, (stageCounts.get(a.stage) ?? 0) + 1);
    if (inFrame([x, y])) items.push({ type: 'circle', cx: x, cy: y, r: 3.6, fill: (STAGE_STYLE[a.stage] ?? STAGE_STYLE.unknown).color, stroke: '#ffffff', width: 0.8 });
  }
  if (c.kind === 'circle') {
    const [x, y] = project(c.lng, c.lat);
    items.push({ type: 'path', d: `M${x - 6},${y}L${x + 6},${y}M${x},${y - 6}L${x},${y + 6}`, stroke: '#111111', width: 1.6 });
  }

  // Legend (top left): the catchment, schools, and each stage shown with its count.
  const rows: { label: string; draw: (x: number, y: number) => DrawItem }[] = [
    { label: c.kind === 'circle' ? `Catchment (${c.radius_km} km radius)` : 'Catchment (polygon)', draw: (x, y) => ({ type: 'rect', x, y: y - 7, w: 10, h: 8, fill: CATCHMENT, fillOpacity: 0.15, stroke: CATCHMENT, width: 1.2 }) },
    { label: `Open schools (${input.schools.length})`, draw: (x, y) => ({ type: 'rect', x: x + 1.5, y: y - 6.5, w: 7, h: 7, fill: SCHOOL }) },
    ...Object.entries(STAGE_STYLE)
      .filter(([k]) => (stageCounts.get(k) ?? 0) > 0 || ['under_assessment', 'advertised', 'approved', 'refused'].includes(k))
      .map(([k, s]) => ({ label: `${s.label} (${stageCounts.get(k) ?? 0})`, draw: (x: number, y: number): DrawItem => ({ type: 'circle', cx: x + 5, cy: y - 3, r: 3.6, fill: s.color, stroke: '#ffffff', width: 0.8 }) })),
  ];
  const lw = Math.max(...rows.map((r) => textWidth(r.label, 7.5))) + 28, lh = 12 * rows.length + 18;
  items.push({ type: 'rect', x: 8, y: 8, w: lw, h: lh, fill: '#ffffff', fillOpacity: 0.9, stroke: '#999999', width: 0.5 });
  items.push({ type: 'text', x: 14, y: 20, text: 'Childcare DAs by stage', size: 8, bold: true, color: '#222222' });
  rows.forEach((r, i) => {
    const y = 33 + 12 * i;
    items.push(r.draw(14, y));
    items.push({ type: 'text', x: 30, y, text: r.label, size: 7.5, color: '#222222' });
  });

  // North arrow (top right): the map is north-up.
  const nx = W - 22, ny = 14;
  items.push({ type: 'path', d: `M${nx},${ny}L${nx + 7},${ny + 20}L${nx},${ny + 15}L${nx - 7},${ny + 20}Z`, fill: '#222222', stroke: '#ffffff', width: 0.6 });
  items.push({ type: 'text', x: nx, y: ny + 31, text: 'N', size: 9, bold: true, color: '#222222', anchor: 'middle' });

  // Scale bar (bottom left): a round length of at most a quarter of the width.
  const metres = niceLength((W / 4) * metresPerUnit);
  const len = metres / metresPerUnit;
  const sx = 12, sy = H - 16;
  items.push({ type: 'rect', x: sx - 4, y: sy - 14, w: len + 8 + textWidth('0 km', 7), h: 22, fill: '#ffffff', fillOpacity: 0.85 });
  items.push({ type: 'rect', x: sx, y: sy, w: len / 2, h: 3.5, fill: '#222222' });
  items.push({ type: 'rect', x: sx + len / 2, y: sy, w: len / 2, h: 3.5, fill: '#ffffff', stroke: '#222222', width: 0.6 });
  items.push({ type: 'text', x: sx, y: sy - 3, text: '0', size: 7, color: '#222222', anchor: 'middle' });
  items.push({ type: 'text', x: sx + len, y: sy - 3, text: metres >= 1000 ? `${metres / 1000} km` : `${metres} m`, size: 7, color: '#222222', anchor: 'middle' });

  // Attribution (bottom right, inside the frame): every source drawn.
  const lines = wrapText(`Map: ${input.attribution.join('; ')}`, Math.floor((W * 0.62) / (6.5 * 0.52)));
  const aw = Math.max(...lines.map((l) => textWidth(l, 6.5))) + 8, ah = 8.5 * lines.length + 5;
  items.push({ type: 'rect', x: W - aw - 4, y: H - ah - 4, w: aw, h: ah, fill: '#ffffff', fillOpacity: 0.85 });
  lines.forEach((l, i) => items.push({ type: 'text', x: W - 8, y: H - ah + 4 + 8.5 * i, text: l, size: 6.5, color: '#333333', anchor: 'end' }));
  items.push({ type: 'rect', x: 0, y: 0, w: W, h: H, stroke: '#555555', width: 0.8 });
  return { width: W, height: H, items, metresPerUnit, project };
}
