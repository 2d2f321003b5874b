/**
 * The town plan of a tile: a street grid with a road hierarchy (motorway, arterials, collectors, locals), a
 * rail line with a station (and a tram route in Victoria), blocks with a land use, and lots with addresses.
 * Every other layer (zones, DAs, amenities, noise sources, land cover) is laid out on this plan.
 *
 * Streets run on a grid turned by the tile's grid angle: long streets every {@link ROW} metres (lots front
 * them), cross streets every {@link COL} metres. Local streets stop at the creek corridor and the motorway;
 * collectors and arterials cross on bridges.
 */
import type { Position } from 'geojson';
import type { Random } from '../../engine/random/seeded-random.js';
import { TILE_HALF_M } from './frame.js';
import { linesInsideTile, rotatedRect, type Ring } from './geometry.js';
import type { Terrain } from './terrain.js';
import type { TileSpec } from './tiles.js';

/** Spacing of long streets, metres (block depth 74 m plus a 16 m road reserve). */
export const ROW = 90;
/** Spacing of cross streets, metres. */
export const COL = 220;
/** Half-size of the built-up area, metres. */
export const BUILT_HALF = 1650;
/** Half-width of a local or collector road reserve, metres. */
const RESERVE = 8;

export type RoadClass = 'motorway' | 'arterial' | 'collector' | 'local';
export type BlockUse = 'residential_low' | 'residential_mid' | 'commercial' | 'industrial' | 'park' | 'school' | 'rural';

/** A named street line of one class, possibly several runs (broken at the creek or motorway). */
export interface Street {
  id: string;
  name: string;
  roadClass: RoadClass;
  /** Runs in local metres. */
  runs: Position[][];
  /** Traffic (null for roads the state does not count). */
  aadt: number | null;
  heavyShare: number | null;
  speedKmh: number;
  /** True for the crowd-sourced (OpenStreetMap-like) rows. */
  crowdSourced: boolean;
  /** Grid index: `long` streets have constant q = index * ROW, `cross` constant p = index * COL. */
  axis: 'long' | 'cross' | 'free';
  index: number;
  /** The grid-p range this street covers along its line (local long streets are named in sections). */
  pRange: [number, number];
}

/** A lot (cadastre parcel) with its address. */
export interface Lot {
  ring: Ring;
  centre: Position;
  /** Street it fronts. */
  street: Street;
  /** House number: odd on the north side of the street, even on the south, rising along it. */
  number: number;
  /** Position along the street (grid p), for numbering. */
  p: number;
  /** 1 when the lot lies on the north (odd-numbered) side of its street. */
  side: 0 | 1;
  /** Unit numbers when the lot holds a unit development (addresses "3/45 ..."). */
  units: number[];
  blockIndex: number;
  use: BlockUse;
  lotNumber: number;
}

/** A block between streets. */
export interface Block {
  index: number;
  ring: Ring;
  centre: Position;
  use: BlockUse;
  /** Grid cell: between long streets k and k+1, cross streets m and m+1. */
  k: number;
  m: number;
  lots: Lot[];
}

/** A point of interest on the plan (station, crossing). */
export interface PlanPoint {
  x: number;
  y: number;
  name: string;
  kind: string;
}

/** The laid-out plan. */
export interface Layout {
  gridAngle: number;
  streets: Street[];
  blocks: Block[];
  lots: Lot[];
  motorway: Street;
  rail: { name: string; line: Position[]; mode: 'rail' | 'tram'; servicesDay: number; speedKmh: number }[];
  stations: PlanPoint[];
  tramStops: PlanPoint[];
  /** Pedestrian crossings of the motorway and bridges over the creek. */
  crossings: PlanPoint[];
  /** Grid q of the motorway's centreline at grid p. */
  motorwayQ(p: number): number;
  /** Grid coordinates of local point (x, y). */
  pq(x: number, y: number): [number, number];
  /** Local point of grid coordinates (p, q). */
  xy(p: number, q: number): [number, number];
}

const ARTERIAL_ROWS = [-11, 3];
const ARTERIAL_COLS = [-4, 3];
const COLLECTOR_ROWS = [-4, 10];
const COLLECTOR_COLS = [0];
const MOTORWAY_Q = 1880;
const RAIL_Q = -1395;

const LOCAL_TYPES = ['Street', 'Street', 'Street', 'Grove', 'Avenue', 'Crescent', 'Parade'];

/** Lays out the plan of a tile. */
export function layOut(spec: TileSpec, terrain: Terrain, rnd: Random): Layout {
  const angle = (spec.terrain.gridAngle * Math.PI) / 180;
  const ca = Math.cos(angle), sa = Math.sin(angle);
  const xy = (p: number, q: number): [number, number] => [p * ca - q * sa, p * sa + q * ca];
  const pq = (x: number, y: number): [number, number] => [x * ca + y * sa, -x * sa + y * ca];
  const reach = TILE_HALF_M * 1.5;
  const creekGap = (x: number, y: number) => Math.abs(terrain.creekDistance(x, y)) < 30;
  const motorwayQ = (p: number) => MOTORWAY_Q + 90 * Math.sin(p / 1100);
  const streets: Street[] = [];
  const crossings: PlanPoint[] = [];

  const classOf = (axis: 'long' | 'cross', i: number): RoadClass => {
    const rows = axis === 'long' ? ARTERIAL_ROWS : ARTERIAL_COLS;
    const cols = axis === 'long' ? COLLECTOR_ROWS : COLLECTOR_COLS;
    return rows.includes(i) ? 'arterial' : cols.includes(i) ? 'collector' : 'local';
  };
  const traffic = (cls: RoadClass) => {
    switch (cls) {
      case 'arterial':
        return { aadt: Math.round(rnd.range(16000, 32000) / 100) * 100, heavy: Math.round(rnd.range(0.04, 0.08) * 1000) / 1000, speed: 60 };
      case 'collector':
        return { aadt: Math.round(rnd.range(3500, 8500) / 50) * 50, heavy: 0.03, speed: 50 };
      default:
        return { aadt: null, heavy: null, speed: 50 };
    }
  };

  // Grid streets, sampled at every intersection so segments break there. Local long streets are named in
  // sections between the arterial cross streets, as real streets change name every kilometre or so; every
  // (name, type) pair is used once per tile so addresses are unambiguous.
  const names = (axis: 'long' | 'cross') => (axis === 'long' ? spec.longStreets : spec.crossStreets);
  const usedNames = new Set<string>();
  const nameFor = (axis: 'long' | 'cross', i: number, section: number, cls: RoadClass): string => {
    const list = names(axis);
    const types = cls === 'arterial' ? [axis === 'long' ? 'Road' : 'Highway', 'Road'] : cls === 'collector' ? ['Avenue', 'Street', 'Parade'] : LOCAL_TYPES;
    let h = Math.imul(i + 977, 0x9e3779b1) ^ Math.imul(section + 31, 0x85ebca6b) ^ (axis === 'long' ? 0x5bd1e995 : 0);
    h = (h ^ (h >>> 15)) >>> 0;
    for (let probe = 0; probe < list.length * types.length; probe++) {
      const k = (h + probe) % (list.length * types.length);
      const name = `${list[k % list.length]} ${types[Math.floor(k / list.length)]}`;
      if (!usedNames.has(name)) {
        usedNames.add(name);
        return name;
      }
    }
    return `${list[h % list.length]} ${types[0]} ${section + 1}`;
  };
  const SECTION_BREAKS = ARTERIAL_COLS.map((m) => m * COL);
  const sectionOf = (p: number) => SECTION_BREAKS.filter((b) => p > b).length;
  for (const axis of ['long', 'cross'] as const) {
    const spacing = axis === 'long' ? ROW : COL;
    const other = axis === 'long' ? COL : ROW;
    const maxI = Math.floor(BUILT_HALF / spacing);
    for (let i = -maxI; i <= maxI; i++) {
      const cls = classOf(axis, i);
      const through = cls !== 'local';
      const span = through ? reach : BUILT_HALF;
      const pts: { p: Position; keep: boolean }[] = [];
      for (let t = -Math.floor(span / other) * other; t <= span; t += other / (through ? 2 : 1)) {
        const [x, y] = axis === 'long' ? xy(t, i * spacing) : xy(i * spacing, t);
        const [, q] = axis === 'long' ? [t, i * spacing] : [i * spacing, t];
        const p = axis === 'long' ? t : i * spacing;
        const beyondMotorway = q > motorwayQ(p) - 40;
        const onRail = Math.abs(q - RAIL_Q) < 25;
        const keep = through || (!creekGap(x, y) && !beyondMotorway && !(onRail && axis === 'long'));
        pts.push({ p: [x, y], keep });
      }
      const sectioned = axis === 'long' && cls === 'local';
      const sections = sectioned ? [0, 1, 2] : [0];
      for (const section of sections) {
        const runs: Position[][] = [];
        let cur: Position[] = [];
        const lo = sectioned ? (section === 0 ? -Infinity : SECTION_BREAKS[section - 1]) : -Infinity;
        const hi = sectioned ? (section === 2 ? Infinity : SECTION_BREAKS[section]) : Infinity;
        pts.forEach(({ p, keep }, j) => {
          const along = axis === 'long' ? -Math.floor(span / other) * other + j * (other / (through ? 2 : 1)) : 0;
          const inSection = !sectioned || (along >= lo && along <= hi);
          if (keep && inSection) cur.push(p);
          else {
            if (cur.length > 1) runs.push(cur);
            cur = [];
          }
        });
        if (cur.length > 1) runs.push(cur);
        const clipped = runs.flatMap((r) => linesInsideTile(r));
        if (!clipped.length) continue;
        const tr = traffic(cls);
        streets.push({
          id: `${spec.id}-${axis}-${i}${sectioned ? `-s${section}` : ''}`, name: nameFor(axis, i, section, cls), roadClass: cls, runs: clipped,
          aadt: tr.aadt, heavyShare: tr.heavy, speedKmh: tr.speed, crowdSourced: cls === 'local', axis, index: i, pRange: [lo, hi],
        });
      }
    }
  }

  // The motorway: a gentle curve beyond the built-up edge, across the whole tile.
  const mw: Position[] = [];
  for (let p = -reach; p <= reach; p += 50) mw.push(xy(p, motorwayQ(p)));
  const motorway: Street = {
    id: `${spec.id}-motorway`, name: spec.motorway, roadClass: 'motorway', runs: linesInsideTile(mw),
    aadt: Math.round(rnd.range(70000, 120000) / 500) * 500, heavyShare: Math.round(rnd.range(0.08, 0.13) * 1000) / 1000, speedKmh: 100,
    crowdSourced: false, axis: 'free', index: 0, pRange: [-Infinity, Infinity],
  };
  streets.push(motorway);
  // Crossings: where arterials and collectors pass the motorway (overpasses) and cross the creek (bridges).
  for (const s of streets) {
    if (s.axis !== 'cross' || s.roadClass === 'local') continue;
    const p = s.index * COL;
    const [x, y] = xy(p, motorwayQ(p));
    if (Math.abs(x) < TILE_HALF_M && Math.abs(y) < TILE_HALF_M) crossings.push({ x, y, name: `${s.name} overpass`, kind: 'overpass' });
  }
  for (const s of streets) {
    if (s.roadClass === 'local' || s.roadClass === 'motorway') continue;
    for (const run of s.runs) {
      for (let j = 0; j + 1 < run.length; j++) {
        const d0 = terrain.creekDistance(run[j][0], run[j][1]);
        const d1 = terrain.creekDistance(run[j + 1][0], run[j + 1][1]);
        if (d0 * d1 < 0) {
          const t = d0 / (d0 - d1);
          crossings.push({ x: run[j][0] + t * (run[j + 1][0] - run[j][0]), y: run[j][1] + t * (run[j + 1][1] - run[j][1]), name: `${s.name} bridge over ${spec.creekName}`, kind: 'bridge' });
        }
      }
    }
  }
  // A footbridge over the creek at the end of one local street: pedestrian-only.
  const fb = terrain.xy(-400, terrain.creekV(-400));
  crossings.push({ x: fb[0], y: fb[1], name: `${spec.creekName} footbridge`, kind: 'footbridge' });

  // Rail along the rail row, with a station where it meets the second arterial cross street.
  const railLine: Position[] = [];
  for (let p = -reach; p <= reach; p += 60) railLine.push(xy(p, RAIL_Q + 25 * Math.sin(p / 1500)));
  const rail: Layout['rail'] = [{ name: spec.railLine, line: linesInsideTile(railLine)[0] ?? railLine, mode: 'rail', servicesDay: Math.round(rnd.range(140, 260)), speedKmh: 80 }];
  const stP = ARTERIAL_COLS[1] * COL + 60;
  const [sx, sy] = xy(stP, RAIL_Q + 25 * Math.sin(stP / 1500));
  const stations: PlanPoint[] = [{ x: sx, y: sy, name: `${spec.station} Station`, kind: 'train' }];
  const tramStops: PlanPoint[] = [];
  if (spec.has.tram) {
    const tramRow = ARTERIAL_ROWS[1] * ROW;
    const tram: Position[] = [];
    for (let p = -reach; p <= reach; p += 60) tram.push(xy(p, tramRow));
    rail.push({ name: `Route ${19 + rnd.int(60)} tram`, line: linesInsideTile(tram)[0] ?? tram, mode: 'tram', servicesDay: Math.round(rnd.range(180, 260)), speedKmh: 40 });
    for (let p = -BUILT_HALF; p <= BUILT_HALF; p += 260) {
      const [x, y] = xy(p, tramRow);
      tramStops.push({ x, y, name: `Stop ${tramStops.length + 1}`, kind: 'tram' });
    }
  }

  // Blocks between grid streets, each with a use.
  const blocks: Block[] = [];
  const lots: Lot[] = [];
  const maxK = Math.floor(BUILT_HALF / ROW);
  const maxM = Math.floor(BUILT_HALF / COL);
  const longStreets = streets.filter((s) => s.axis === 'long');
  const longStreetAt = (row: number, p: number) => longStreets.find((s) => s.index === row && p >= s.pRange[0] && p <= s.pRange[1]);
  const schoolCells = new Set(['-7,-3', '6,1', '-1,4', '12,-5']);
  const isArterialRow = (k: number) => ARTERIAL_ROWS.includes(k) || COLLECTOR_ROWS.includes(k);
  for (let k = -maxK; k < maxK; k++) {
    for (let m = -maxM; m < maxM; m++) {
      const p0 = m * COL + RESERVE, p1 = (m + 1) * COL - RESERVE;
      const q0 = k * ROW + RESERVE, q1 = (k + 1) * ROW - RESERVE;
      const ring = rotatedRect(p0, p1, q0, q1, angle);
      const centre = xy((p0 + p1) / 2, (q0 + q1) / 2);
      const corners = ring.slice(0, 4);
      const dists = [...corners, centre].map(([x, y]) => terrain.creekDistance(x, y));
      const crossesCreek = dists.some((d) => d > 0) && dists.some((d) => d < 0);
      const nearCreek = crossesCreek || dists.some((d) => Math.abs(d) < 40);
      const beyondMotorway = q1 > motorwayQ((p0 + p1) / 2) - 45;
      const onRail = q0 < RAIL_Q + 30 && q1 > RAIL_Q - 30;
      if (nearCreek || beyondMotorway || onRail) continue;
      let use: BlockUse;
      const creekAbs = Math.min(...dists.map(Math.abs));
      const distStation = Math.hypot(centre[0] - sx, centre[1] - sy);
      if (schoolCells.has(`${k},${m}`)) use = 'school';
      else if (creekAbs < 80 || rnd.chance(0.04)) use = 'park';
      else if ((k === ARTERIAL_ROWS[1] || k === ARTERIAL_ROWS[1] - 1) && m >= -3 && m <= 2) use = 'commercial';
      else if (m * COL > 1000 && k * ROW < -700) use = 'industrial';
      else if (isArterialRow(k) || isArterialRow(k + 1) || distStation < 450) use = 'residential_mid';
      else use = 'residential_low';
      const block: Block = { index: blocks.length, ring, centre, use, k, m, lots: [] };
      blocks.push(block);
      if (use === 'park') continue;
      // Lots along both long frontages; schools are one lot.
      const frontage = use === 'commercial' ? rnd.pick([8, 10, 12]) : use === 'industrial' ? rnd.pick([40, 55]) : use === 'school' ? p1 - p0 : rnd.pick([12.5, 15, 16, 18, 20]);
      const count = Math.max(1, Math.floor((p1 - p0) / frontage));
      const w = (p1 - p0) / count;
      const halves: [number, number, number][] = use === 'school' ? [[q0, q1, k]] : [[q0, (q0 + q1) / 2, k], [(q0 + q1) / 2, q1, k + 1]];
      let lotNumber = 1;
      for (const [a, b, frontRow] of halves) {
        const street = longStreetAt(frontRow, (p0 + p1) / 2);
        if (!street) continue;
        const side = frontRow === k ? 1 : 0; // lots north of their street get odd numbers
        for (let j = 0; j < count; j++) {
          const lp0 = p0 + j * w, lp1 = lp0 + w;
          const lotRing = rotatedRect(lp0, lp1, a, b, angle);
          const c = xy((lp0 + lp1) / 2, (a + b) / 2);
          const units = use === 'residential_mid' && rnd.chance(0.12) ? Array.from({ length: 3 + rnd.int(6) }, (_, u) => u + 1) : [];
          const lot: Lot = { ring: lotRing, centre: c, street, number: 0, p: (lp0 + lp1) / 2, side, units, blockIndex: block.index, use, lotNumber: lotNumber++ };
          block.lots.push(lot);
          lots.push(lot);
        }
      }
    }
  }
  // House numbers rise along each side of a street: 1, 3, 5 ... north; 2, 4, 6 ... south.
  const sides = new Map<string, Lot[]>();
  for (const lot of lots) {
    const key = `${lot.street.id}/${lot.side}`;
    const list = sides.get(key);
    if (list) list.push(lot);
    else sides.set(key, [lot]);
  }
  for (const list of sides.values()) {
    list.sort((a, b) => a.p - b.p);
    list.forEach((lot, i) => (lot.number = 2 * i + (lot.side ? 1 : 2)));
  }
  return { gridAngle: angle, streets, blocks, lots, motorway, rail, stations, tramStops, crossings, motorwayQ, pq, xy };
}
