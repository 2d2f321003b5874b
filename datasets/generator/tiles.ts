/**
 * The eight sample-world tiles, one per state and territory, each placed at real coordinates beside a real
 * creek or river (the places are real; every feature generated in them is synthetic). Each spec holds the
 * names a tile uses (suburbs, councils, streets), the character of its terrain, and which optional layers the
 * state holds, so the coverage pattern across tiles exercises every coverage status.
 */
import type { StateCode } from '../../engine/catalogue/states.js';

/** A suburb (locality) with its postcode. */
export interface Suburb {
  name: string;
  postcode: string;
}

/** Terrain character, in metres and degrees. */
export interface TerrainSpec {
  /** Elevation of the creek bed at the tile centre. */
  base: number;
  /** Fall of the creek bed along its course, metres per km. */
  fall: number;
  /** Depth of the creek valley below the surrounding ground. */
  valleyDepth: number;
  /** Distance over which the valley side rises, metres. */
  valleyWidth: number;
  /** Height of the hilly edge above the plain. */
  hillHeight: number;
  /** Which side of the creek the hills rise on (+1 left of the flow, -1 right). */
  hillSide: 1 | -1;
  /** Amplitude of rolling ground, metres. */
  roughness: number;
  /** Direction the creek flows, degrees counter-clockwise from east. */
  creekAngle: number;
  /** Offset of the creek from the tile centre, metres (positive: left of the flow). */
  creekOffset: number;
  /** Rotation of the street grid, degrees counter-clockwise from east. */
  gridAngle: number;
}

/** One tile. */
export interface TileSpec {
  id: string;
  state: StateCode;
  /** Place the tile stands in, for attribution notes. */
  place: string;
  lon: number;
  lat: number;
  creekName: string;
  /** Three suburbs: left of the creek west, left east, right of the creek. */
  suburbs: [Suburb, Suburb, Suburb];
  /** Councils: the first left of the creek, the second right (the same twice when one council holds both). */
  councils: [string, string];
  /** State electorates and federal divisions (two each, split along the grid). */
  stateElectorates: [string, string];
  federalDivisions: [string, string];
  /** Street names for the long streets and the cross streets. */
  longStreets: string[];
  crossStreets: string[];
  /** Names for the motorway, the rail line and its station. */
  motorway: string;
  railLine: string;
  station: string;
  terrain: TerrainSpec;
  /** Summer daytime land-surface temperature of open suburban ground, degrees C. */
  lstBase: number;
  /** Annual mean daily global horizontal irradiation, kWh/m2/day. */
  ghi: number;
  /** 1% AEP 1-hour design rainfall, mm. */
  ifd1pct1h: number;
  /** Optional layers this tile's state holds. */
  has: {
    tram: boolean;
    counters: boolean;
    loggers: boolean;
    floodStudy: boolean;
    airportAnef: boolean;
    schools: boolean;
    contamination: boolean;
    stateContours: 'vic' | 'qld' | 'tas' | null;
  };
}

const S = (name: string, postcode: string): Suburb => ({ name, postcode });

/** The eight tiles. */
export const TILES: TileSpec[] = [
  {
    id: 'vic', state: 'VIC', place: 'Brunswick East and Coburg, Melbourne', lon: 144.985, lat: -37.755, creekName: 'Merri Creek',
    suburbs: [S('Brunswick East', '3057'), S('Coburg', '3058'), S('Northcote', '3070')],
    councils: ['Merri-bek City Council', 'Darebin City Council'],
    stateElectorates: ['Brunswick', 'Northcote'], federalDivisions: ['Wills', 'Cooper'],
    longStreets: ['Albion', 'Blyth', 'Glenlyon', 'Lygon', 'Miller', 'Moreland', 'Victoria', 'Stewart', 'Hope', 'Albert', 'Union', 'Edward', 'Weston', 'Barkly', 'Pearson', 'Harding', 'Rennie', 'Munro', 'Reynard', 'Shaftesbury', 'Bell', 'Gaffney', 'Murray', 'Harrison', 'Davies', 'Ballarat', 'Walsh', 'Cumberland', 'Kingfisher', 'Wilson', 'Dawson', 'Mitchell', 'Gordon', 'Waterfield', 'Percy', 'Park', 'Railway', 'Ruckers', 'Lobb', 'Donald', 'Shamrock', 'Rose', 'Moore', 'Stanley'],
    crossStreets: ['Sydney', 'Nicholson', 'Holmes', 'Roseneath', 'Brunswick', 'Nolan', 'Elm', 'Fisher', 'Lilian', 'Rushall', 'Queens', 'Clarke', 'Tinning', 'Sheffield', 'Ewing', 'Hickford', 'Methven', 'Bruce', 'Nation'],
    motorway: 'Tullamarine Freeway', railLine: 'Upfield line', station: 'Anstey',
    terrain: { base: 38, fall: 2.2, valleyDepth: 12, valleyWidth: 260, hillHeight: 24, hillSide: -1, roughness: 2.5, creekAngle: -78, creekOffset: 420, gridAngle: 0 },
    lstBase: 41, ghi: 4.3, ifd1pct1h: 52,
    has: { tram: true, counters: true, loggers: true, floodStudy: false, airportAnef: false, schools: true, contamination: true, stateContours: 'vic' },
  },
  {
    id: 'nsw', state: 'NSW', place: 'Harris Park and Granville, Parramatta', lon: 151.005, lat: -33.818, creekName: 'Duck River',
    suburbs: [S('Harris Park', '2150'), S('Granville', '2142'), S('Rosehill', '2142')],
    councils: ['City of Parramatta Council', 'Cumberland City Council'],
    stateElectorates: ['Parramatta', 'Granville'], federalDivisions: ['Parramatta', 'Reid'],
    longStreets: ['Alfred', 'Bold', 'Clyde', 'Cowper', 'Good', 'Harris', 'Hassall', 'Kendall', 'Marion', 'Prospect', 'Rowland', 'Ada', 'Arthur', 'Blaxcell', 'Cumberland', 'Dan', 'Elizabeth', 'Factory', 'Grimwood', 'Hevington', 'Jamieson', 'Kemp', 'Mary', 'Onslow', 'Railway', 'Rosehill', 'South', 'Station', 'Union', 'Weston', 'Wigram', 'York', 'Bridge', 'Denison', 'Robertson', 'Wentworth', 'Cambridge', 'Oxford', 'Albert', 'Victoria', 'Crown', 'Hope'],
    crossStreets: ['Church', 'Wigram', 'Wattle', 'Marsden', 'Pitt', 'Charles', 'Harrow', 'Woodville', 'Parkes', 'Boundary', 'Clyde', 'Sixth', 'Mort', 'Milton', 'Lane', 'Rowley', 'Ferris', 'Bransgrove', 'Stubbs'],
    motorway: 'M4 Western Motorway', railLine: 'Main Western line', station: 'Harris Park',
    terrain: { base: 9, fall: 1.6, valleyDepth: 11, valleyWidth: 260, hillHeight: 32, hillSide: 1, roughness: 2, creekAngle: 80, creekOffset: -380, gridAngle: 8 },
    lstBase: 44, ghi: 4.7, ifd1pct1h: 88,
    has: { tram: false, counters: true, loggers: true, floodStudy: true, airportAnef: false, schools: true, contamination: true, stateContours: null },
  },
  {
    id: 'qld', state: 'QLD', place: 'Kedron and Gordon Park, Brisbane', lon: 153.032, lat: -27.413, creekName: 'Kedron Brook',
    suburbs: [S('Kedron', '4031'), S('Gordon Park', '4031'), S('Wooloowin', '4030')],
    councils: ['Brisbane City Council', 'Brisbane City Council'],
    stateElectorates: ['Stafford', 'Nudgee'], federalDivisions: ['Lilley', 'Brisbane'],
    longStreets: ['Alma', 'Beaconsfield', 'Bertha', 'Clifton', 'Colton', 'Dawson', 'Edinburgh', 'Erneton', 'Gympie', 'Hamilton', 'Holland', 'Huxtable', 'Kedron Park', 'Lutwyche', 'Maundrell', 'Mina', 'Moss', 'Norman', 'Park', 'Pemberton', 'Queens', 'Rose', 'Sadlier', 'Stoneleigh', 'Swan', 'Thistle', 'Victoria', 'Wood', 'Chalk', 'Days', 'Emma', 'Fifth', 'Grange', 'Junction', 'Leckie', 'Mabel', 'Newmarket', 'Orchard', 'Prospect', 'Rigby', 'Sparkes'],
    crossStreets: ['Gympie', 'Kitchener', 'Lodge', 'Mount', 'Nelson', 'Perry', 'Raymont', 'Shamrock', 'Trinity', 'Upton', 'Vine', 'Wilston', 'Amelia', 'Boundary', 'Cressey', 'Dorset', 'Evelyn', 'Fairy', 'Grosvenor'],
    motorway: 'Inner City Bypass', railLine: 'Ferny Grove line', station: 'Windsor',
    terrain: { base: 8, fall: 1.8, valleyDepth: 12, valleyWidth: 240, hillHeight: 48, hillSide: 1, roughness: 3, creekAngle: 15, creekOffset: 360, gridAngle: -12 },
    lstBase: 43, ghi: 5.2, ifd1pct1h: 101,
    has: { tram: false, counters: true, loggers: true, floodStudy: true, airportAnef: false, schools: true, contamination: true, stateContours: 'qld' },
  },
  {
    id: 'wa', state: 'WA', place: 'Ascot and Belmont, Perth', lon: 115.935, lat: -31.937, creekName: 'Swan River',
    suburbs: [S('Ascot', '6104'), S('Belmont', '6104'), S('Bayswater', '6053')],
    councils: ['City of Belmont', 'City of Bayswater'],
    stateElectorates: ['Belmont', 'Bassendean'], federalDivisions: ['Swan', 'Perth'],
    longStreets: ['Abernethy', 'Alexander', 'Belgravia', 'Campbell', 'Daly', 'Epsom', 'Fulham', 'Gabriel', 'Hardey', 'Keane', 'Kooyong', 'Leake', 'Matheson', 'Ivy', 'Oats', 'Park', 'Robinson', 'Stanton', 'Surrey', 'Wright', 'Acton', 'Boulder', 'Coode', 'Deane', 'Eighth', 'Forrest', 'Grandstand', 'Hay', 'Ivanhoe', 'Jubilee', 'Knutsford', 'Lapage', 'Marion', 'Noble', 'Orrong', 'Plain', 'Resolution', 'Salisbury', 'Tonkin'],
    crossStreets: ['Great Eastern', 'Belmont', 'Ascot', 'Kew', 'Fauntleroy', 'Hay', 'Kooyong', 'Gerard', 'Daly', 'Leach', 'Wilson', 'Moreing', 'Pilbara', 'Raleigh', 'Scott', 'Tate', 'Valentine', 'Wallace', 'Youle'],
    motorway: 'Tonkin Highway', railLine: 'Midland line', station: 'Bayswater',
    terrain: { base: 2, fall: 0.5, valleyDepth: 6, valleyWidth: 320, hillHeight: 14, hillSide: -1, roughness: 1.2, creekAngle: -35, creekOffset: 650, gridAngle: 20 },
    lstBase: 45, ghi: 5.4, ifd1pct1h: 46,
    has: { tram: false, counters: true, loggers: true, floodStudy: false, airportAnef: true, schools: true, contamination: false, stateContours: null },
  },
  {
    id: 'sa', state: 'SA', place: 'Klemzig and Windsor Gardens, Adelaide', lon: 138.638, lat: -34.875, creekName: 'River Torrens',
    suburbs: [S('Klemzig', '5087'), S('Windsor Gardens', '5087'), S('Vale Park', '5081')],
    councils: ['City of Port Adelaide Enfield', 'Town of Walkerville'],
    stateElectorates: ['Torrens', 'Dunstan'], federalDivisions: ['Sturt', 'Adelaide'],
    longStreets: ['Ashbrook', 'Barker', 'Beatty', 'Brown', 'Carter', 'Cheltenham', 'Clairville', 'Daly', 'Darley', 'Devitt', 'Elm', 'Fosters', 'Gameau', 'Gilbert', 'Harcourt', 'Hawker', 'Kingsford', 'Lindsay', 'Lyons', 'Montrose', 'Murray', 'North East', 'Olive', 'Park', 'Payneham', 'Queen', 'Rowe', 'Smart', 'Sudholz', 'Thomas', 'Vale', 'Walkerville', 'Wicks', 'Alma', 'Bellevue', 'Cudmore', 'Dunstan', 'Elder', 'Fife'],
    crossStreets: ['OG', 'Hampstead', 'Grand Junction', 'Muller', 'Ascot', 'Avenue', 'Broadway', 'Collins', 'Dover', 'East', 'Fenton', 'Grange', 'Hilton', 'Ivy', 'Jasper', 'Kent', 'Lowe', 'Mellor', 'Nelson'],
    motorway: 'North East Road', railLine: 'O-Bahn Busway', station: 'Klemzig Interchange',
    terrain: { base: 42, fall: 2.4, valleyDepth: 14, valleyWidth: 200, hillHeight: 20, hillSide: 1, roughness: 2, creekAngle: -150, creekOffset: -420, gridAngle: 5 },
    lstBase: 45, ghi: 5.0, ifd1pct1h: 44,
    has: { tram: false, counters: true, loggers: true, floodStudy: false, airportAnef: false, schools: true, contamination: true, stateContours: null },
  },
  {
    id: 'tas', state: 'TAS', place: 'Lenah Valley and New Town, Hobart', lon: 147.29, lat: -42.856, creekName: 'New Town Rivulet',
    suburbs: [S('Lenah Valley', '7008'), S('New Town', '7008'), S('Mount Stuart', '7000')],
    councils: ['Hobart City Council', 'Glenorchy City Council'],
    stateElectorates: ['Clark', 'Clark'], federalDivisions: ['Clark', 'Franklin'],
    longStreets: ['Augusta', 'Bay', 'Creek', 'Forster', 'Giblin', 'Hilltop', 'Lenah Valley', 'Main', 'Mount Stuart', 'Newdegate', 'Pottery', 'Risdon', 'Ross', 'Tower', 'Arthur', 'Bishop', 'Chapman', 'Domain', 'Elphinstone', 'Fairy', 'Gourlay', 'Harbinger', 'Ogilvie', 'Pedder', 'Queen', 'Regent', 'Swanston', 'Tasman', 'Upper', 'Valley', 'Warwick', 'Yardley'],
    crossStreets: ['New Town', 'Letitia', 'Mary', 'Sunnyside', 'Hampden', 'Ashfield', 'Bellevue', 'Cornwall', 'Derwent', 'Eady', 'Fenton', 'Gregory', 'Haig', 'Ingle', 'Jordan', 'Kalang', 'Lynton', 'Mornington', 'Norwood'],
    motorway: 'Brooker Highway', railLine: 'Main Line', station: 'New Town',
    terrain: { base: 55, fall: 9, valleyDepth: 28, valleyWidth: 180, hillHeight: 290, hillSide: 1, roughness: 6, creekAngle: -20, creekOffset: -300, gridAngle: -25 },
    lstBase: 34, ghi: 3.9, ifd1pct1h: 38,
    has: { tram: false, counters: false, loggers: false, floodStudy: false, airportAnef: false, schools: false, contamination: true, stateContours: 'tas' },
  },
  {
    id: 'act', state: 'ACT', place: "O'Connor and Turner, Canberra", lon: 149.124, lat: -35.268, creekName: 'Sullivans Creek',
    suburbs: [S("O'Connor", '2602'), S('Turner', '2612'), S('Lyneham', '2602')],
    councils: ['ACT Government', 'ACT Government'],
    stateElectorates: ['Kurrajong', 'Yerrabi'], federalDivisions: ['Canberra', 'Fenner'],
    longStreets: ['Ainslie', 'Bruce', 'Brigalow', 'Condamine', 'Dooring', 'Eucalyptus', 'Finniss', 'Grevillea', 'Haig', 'Irvine', 'Jarrah', 'Kurrajong', 'Lachlan', 'Macarthur', 'Nardoo', 'Ovens', 'Paterson', 'Quandong', 'Roseby', 'Scrivener', 'Tyagarah', 'Urambi', 'Wattle', 'Yarra', 'Allambee', 'Bonney', 'Cowper', 'Dryandra', 'Elouera', 'Forbes', 'Gooreen', 'Hovea', 'Ijong', 'Jukes', 'Kambah', 'Leichhardt', 'Mouat', 'Nullarbor'],
    crossStreets: ['Northbourne', 'Miller', 'Macarthur', 'Wakefield', 'Sullivan', 'Barry', 'Clancy', 'Dickson', 'Ebden', 'Froggatt', 'Gould', 'Hawdon', 'Jukes', 'Kent', 'Lowanna', 'MacPherson', 'Nichol', 'Owen', 'Phillip'],
    motorway: 'Barton Highway', railLine: 'Canberra light rail', station: 'Macarthur Avenue',
    terrain: { base: 575, fall: 3, valleyDepth: 14, valleyWidth: 260, hillHeight: 75, hillSide: -1, roughness: 3, creekAngle: -95, creekOffset: 380, gridAngle: 30 },
    lstBase: 40, ghi: 4.9, ifd1pct1h: 56,
    has: { tram: false, counters: true, loggers: true, floodStudy: false, airportAnef: false, schools: true, contamination: true, stateContours: null },
  },
  {
    id: 'nt', state: 'NT', place: 'Millner and Rapid Creek, Darwin', lon: 130.87, lat: -12.383, creekName: 'Rapid Creek',
    suburbs: [S('Millner', '0810'), S('Rapid Creek', '0810'), S('Nightcliff', '0810')],
    councils: ['City of Darwin', 'City of Darwin'],
    stateElectorates: ['Johnston', 'Nightcliff'], federalDivisions: ['Solomon', 'Solomon'],
    longStreets: ['Bagot', 'Batten', 'Bradshaw', 'Casuarina', 'Dick Ward', 'Dripstone', 'Elrundie', 'Fitzmaurice', 'Goyder', 'Heenan', 'Hudson', 'Lee Point', 'Lloyd', 'Marrara', 'Nemarluk', 'Nightcliff', 'Parer', 'Progress', 'Rapid Creek', 'Ryland', 'Sabine', 'Trower', 'Vanderlin', 'Winnellie', 'Aralia', 'Bougainvillea', 'Calophyllum', 'Dolichos', 'Erythrina', 'Frangipani', 'Gardenia', 'Hibiscus', 'Ixora', 'Jacaranda', 'Kapok', 'Leucaena'],
    crossStreets: ['Trower', 'Bagot', 'McMillans', 'Rothdale', 'Sergison', 'Totem', 'Umbrella', 'Vanilla', 'Wanguri', 'Alawa', 'Brinkin', 'Coconut', 'Dinah', 'East Point', 'Fannie Bay', 'Gilruth', 'Haritos', 'Iliffe', 'Jingili'],
    motorway: 'Stuart Highway', railLine: 'Adelaide-Darwin railway', station: 'Darwin Business Park',
    terrain: { base: 3, fall: 0.8, valleyDepth: 7, valleyWidth: 300, hillHeight: 16, hillSide: 1, roughness: 1.5, creekAngle: 120, creekOffset: -520, gridAngle: 15 },
    lstBase: 47, ghi: 5.8, ifd1pct1h: 118,
    has: { tram: false, counters: false, loggers: false, floodStudy: false, airportAnef: false, schools: false, contamination: true, stateContours: null },
  },
];

/** The tile with the given id. */
export function tileById(id: string): TileSpec {
  const t = TILES.find((x) => x.id === id);
  if (!t) throw new Error(`no sample-world tile ${JSON.stringify(id)}; tiles are ${TILES.map((x) => x.id).join(', ')}`);
  return t;
}
