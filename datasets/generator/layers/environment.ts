/** The environment block's layers: protected areas, MNES, Aboriginal heritage, soils, bioregions and the rest. */
import type { Feature, Position } from 'geojson';
import type { StateCode } from '../../../engine/catalogue/states.js';
import { llFeature, polygonal, type TileContext } from '../context.js';
import { TILE_HALF_M } from '../frame.js';
import { clipToTile, ellipse, maskToPolygons, tileMask } from '../geometry.js';

const IBRA: Record<StateCode, [string, string]> = {
  VIC: ['VVP', 'Victorian Volcanic Plain'], NSW: ['SYB', 'Sydney Basin'], QLD: ['SEQ', 'South Eastern Queensland'], WA: ['SWA', 'Swan Coastal Plain'],
  SA: ['FLB', 'Flinders Lofty Block'], TAS: ['TSE', 'Tasmanian South East'], ACT: ['SEH', 'South Eastern Highlands'], NT: ['DAC', 'Darwin Coastal'],
};
const MNES: Record<StateCode, string> = {
  VIC: 'Natural Temperate Grassland of the Victorian Volcanic Plain', NSW: 'Cumberland Plain Shale Woodlands and Shale-Gravel Transition Forest', QLD: 'Lowland Rainforest of Subtropical Australia',
  WA: 'Banksia Woodlands of the Swan Coastal Plain', SA: 'Grey Box Grassy Woodlands', TAS: 'Tasmanian Forests and Woodlands dominated by black gum', ACT: 'White Box-Yellow Box-Blakely\'s Red Gum Grassy Woodland', NT: 'Monsoon vine thickets',
};
const SPECIES: Record<StateCode, string[]> = {
  VIC: ['Growling Grass Frog', 'Swift Parrot', 'Matted Flax-lily'], NSW: ['Grey-headed Flying-fox', 'Cumberland Plain Land Snail', 'Swift Parrot'], QLD: ['Grey-headed Flying-fox', 'Koala', 'Swift Parrot'],
  WA: ["Carnaby's Black-Cockatoo", 'Quenda', 'Forest Red-tailed Black-Cockatoo'], SA: ['Southern Brown Bandicoot', 'Swift Parrot', 'Pink-tailed Worm-lizard'], TAS: ['Swift Parrot', 'Eastern Barred Bandicoot', 'Tasmanian Devil'],
  ACT: ['Golden Sun Moth', 'Superb Parrot', 'Pink-tailed Worm-lizard'], NT: ['Northern Quoll', 'Gouldian Finch', 'Black-footed Tree-rat'],
};

function write(ctx: TileContext, source: string, file: string, features: Feature[]): void {
  const path = `${ctx.dir}/${file}`;
  ctx.writer.geojson(path, features);
  ctx.registry.add(source, { path, state: ctx.spec.state });
}

/** Writes every environment layer held for the tile's state. */
export function writeEnvironment(ctx: TileContext): void {
  const st = ctx.spec.state;
  const lc = ctx.spec.id;
  const creek = (x: number, y: number) => Math.abs(ctx.terrain.creekDistance(x, y));
  const tile: Position[] = [[-TILE_HALF_M, -TILE_HALF_M], [TILE_HALF_M, -TILE_HALF_M], [TILE_HALF_M, TILE_HALF_M], [-TILE_HALF_M, TILE_HALF_M], [-TILE_HALF_M, -TILE_HALF_M]];
  write(ctx, 'sample_national_protected_areas', 'protected-areas.geojson', maskToPolygons(tileMask(20, (x, y) => creek(x, y) < 70 && Math.abs(ctx.terrain.uv(x, y)[0]) < 2000), 20, 20000).map((p) =>
    llFeature(ctx, { NAME: `${ctx.spec.creekName} Parklands`, TYPE: 'Conservation Reserve', IUCN: 'III', GAZ_AREA_HA: null }, polygonal([p]))));
  const side = ctx.spec.terrain.hillSide;
  const [mx, my] = ctx.terrain.xy(-600, ctx.terrain.creekV(-600) + side * 1900);
  write(ctx, 'sample_national_epbc_mnes', 'epbc-mnes.geojson', [llFeature(ctx, { matter: 'Threatened ecological community', name: MNES[st], status: 'Critically Endangered', presence: 'Community likely to occur within area' }, { type: 'Polygon', coordinates: [clipToTile(ellipse(mx, my, 900, 500, 0.3))] })]);
  write(ctx, 'sample_national_bioregions', 'bioregions.geojson', [llFeature(ctx, { REG_CODE_7: IBRA[st][0], REG_NAME_7: IBRA[st][1] }, { type: 'Polygon', coordinates: [tile] })]);
  const soil = (x: number, y: number) => (creek(x, y) < 250 ? 1 : ctx.terrain.hilliness(x, y) > 0.3 ? 2 : 3);
  const soilNames = ['Alluvial terraces', 'Hill slopes on sedimentary rock', 'Undulating plains'];
  write(ctx, 'sample_national_soils', 'soil-landscapes.geojson', [1, 2, 3].flatMap((k) => maskToPolygons(tileMask(20, (x, y) => soil(x, y) === k), 20, 40000).map((p) =>
    llFeature(ctx, { SOIL_LANDSCAPE: soilNames[k - 1], ASC_ORDER: ['Hydrosol', 'Kurosol', 'Sodosol'][k - 1], ERODIBILITY: ['Moderate', 'High', 'Low'][k - 1] }, polygonal([p])))));
  write(ctx, 'sample_national_regional_soils', 'atlas-soils.geojson', [llFeature(ctx, { MAP_UNIT: `${st.slice(0, 1)}b${ctx.tileIndex + 12}`, PPF: 'Dy3.41', DESCRIPTION: 'Hard setting loamy soils with mottled yellow clayey subsoils' }, { type: 'Polygon', coordinates: [tile] })]);
  const species = SPECIES[st];
  const rows = Array.from({ length: 12 }, (_, i) => {
    const [x, y] = ctx.terrain.xy(ctx.rnd.range(-2500, 2500), ctx.terrain.creekV(0) + ctx.rnd.range(-400, 400));
    const [lon, lat] = ctx.frame.lonLat(x, y);
    return { record_id: `ALA-${st}-${1000 + i}`, lon: r7(lon), lat: r7(lat), scientific_name: '', common_name: species[i % species.length], year: 2005 + (i * 7) % 20, status: 'Vulnerable', source: 'sample_national_threatened_species' };
  });
  const tsPath = `${ctx.dir}/threatened-species.csv`;
  ctx.writer.csv(tsPath, ['record_id', 'lon', 'lat', 'scientific_name', 'common_name', 'year', 'status', 'source'], rows);
  ctx.registry.add('sample_national_threatened_species', { path: tsPath, state: st });
  write(ctx, 'sample_national_groundwater_vulnerability', 'groundwater-vulnerability.geojson', [1, 2].flatMap((k) => maskToPolygons(tileMask(40, (x, y) => (creek(x, y) < 400 ? 1 : 2) === k), 40, 40000).map((p) =>
    llFeature(ctx, { VULNERABILITY: k === 1 ? 'High' : 'Moderate', AQUIFER: k === 1 ? 'Shallow alluvial aquifer' : 'Fractured rock' }, polygonal([p])))));
  if (['VIC', 'NSW'].includes(st)) {
    write(ctx, `sample_${lc}_aboriginal_heritage`, 'aboriginal-heritage.geojson', maskToPolygons(tileMask(20, (x, y) => creek(x, y) < 200), 20, 20000).map((p) =>
      llFeature(ctx, st === 'VIC' ? { NAME: 'Area of cultural heritage sensitivity', REGULATION: 'Regulation 26: waterways (200 m)' } : { NAME: 'Aboriginal place of heritage significance', STATUS: 'Partially surveyed' }, polygonal([p]))));
  }
  const industrial = ctx.layout.lots.filter((l) => l.use === 'industrial');
  if (['VIC', 'NSW', 'QLD', 'SA'].includes(st)) {
    // A closed landfill beyond the built-up edge, on the side away from the hills.
    const [lx, ly] = ctx.terrain.xy(1700, ctx.terrain.creekV(1700) - side * 900);
    write(ctx, `sample_${lc}_landfill`, 'landfills.geojson', [llFeature(ctx, { NAME: `${ctx.spec.suburbs[1].name} landfill (closed)`, STATUS: 'Closed', WASTE_TYPE: 'Putrescible', CLOSED_YEAR: 1994 }, { type: 'Polygon', coordinates: [clipToTile(ellipse(lx, ly, 260, 160, 0.6))] })]);
  }
  if (['VIC', 'SA'].includes(st)) {
    const [gx, gy] = ctx.terrain.xy(1700, ctx.terrain.creekV(1700) - side * 900);
    write(ctx, `sample_${lc}_groundwater_restricted`, 'groundwater-restricted.geojson', [llFeature(ctx, { NAME: 'Groundwater quality restricted use zone', REASON: 'Leachate from closed landfill' }, { type: 'Polygon', coordinates: [clipToTile(ellipse(gx, gy, 700, 450, 0.6))] })]);
  }
  if (['VIC', 'NSW', 'QLD', 'SA', 'WA'].includes(st)) {
    const rowsL = industrial.filter((_, i) => i % 3 === 0).slice(0, 6).map((l, i) => {
      const [lon, lat] = ctx.frame.lonLat(l.centre[0], l.centre[1]);
      return { licence_no: `${st}-L${20000 + i + ctx.tileIndex * 100}`, holder: `${ctx.rnd.pick(['Northside', 'Metro', 'Creekside', 'Summit'])} ${ctx.rnd.pick(['Recycling', 'Concrete', 'Coatings', 'Metals'])} Pty Ltd`, activity: ctx.rnd.pick(['Waste transfer station', 'Concrete batching', 'Surface coating', 'Metal recovery']), status: 'Current', lon: r7(lon), lat: r7(lat), source: `sample_${lc}_licensed_activity` };
    });
    const p = `${ctx.dir}/licensed-activities.csv`;
    ctx.writer.csv(p, ['licence_no', 'holder', 'activity', 'status', 'lon', 'lat', 'source'], rowsL);
    ctx.registry.add(`sample_${lc}_licensed_activity`, { path: p, state: st });
  }
  if (['VIC', 'NSW'].includes(st)) {
    const lots = ctx.layout.lots.filter((l) => l.use === 'commercial' || l.use === 'industrial').filter((_, i) => i % 7 === 3).slice(0, 8);
    const rowsH = lots.map((l, i) => {
      const [lon, lat] = ctx.frame.lonLat(l.centre[0], l.centre[1]);
      const from = 1930 + ((i * 11) % 40);
      return { listing_id: `${st}-HB-${300 + i}`, business_type: ['Service station', 'Dry cleaner', 'Motor garage', 'Foundry'][i % 4], name: `${l.street.name.split(' ')[0]} ${['Motors', 'Cleaners', 'Garage', 'Castings'][i % 4]}`, years: `${from}-${from + 15 + (i % 20)}`, address: `${l.number} ${l.street.name}`, lon: r7(lon), lat: r7(lat), source: `sample_${lc}_historical_business` };
    });
    const p = `${ctx.dir}/historical-businesses.csv`;
    ctx.writer.csv(p, ['listing_id', 'business_type', 'name', 'years', 'address', 'lon', 'lat', 'source'], rowsH);
    ctx.registry.add(`sample_${lc}_historical_business`, { path: p, state: st });
  }
}

const r7 = (v: number) => Math.round(v * 1e7) / 1e7;
