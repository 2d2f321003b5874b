/**
 * The land-cover legend of the heat surface: ESA WorldCover 10 m class codes (ESA WorldCover 2021 v200,
 * Product User Manual, Table 1 "WorldCover legend") and the role each class plays as a driver of
 * neighbourhood heat.
 *
 * Roles: tree cover, water, wetland and mangroves cool (shade and evapotranspiration; the meta-analysis of
 * Bowler, Buyung-Ali, Knight & Pullin 2010, "Urban greening to cool towns and cities", Landscape and Urban
 * Planning 97(3), finds parks and trees about 1 degree C cooler by day); built-up and bare ground are heat
 * sources (impervious, dry surfaces store and re-emit heat: Oke 1982, "The energetic basis of the urban
 * heat island", QJRMS 108). Shrubland is counted as cooling (vegetated, evapotranspiring) though weaker than
 * trees. Grassland and cropland are neutral: summer-dry Australian grass heats close to bare ground while
 * irrigated grass cools, so the class alone does not say which. Snow/ice and moss/lichen are neutral.
 */

/** What a land-cover class does to neighbourhood heat. */
export type HeatDriverRole = 'cooling' | 'heat_source' | 'neutral';

/** One legend entry. */
export interface LandCoverClass {
  /** WorldCover class code (the raster value). */
  code: number;
  /** Machine name. */
  name: string;
  /** WorldCover's own label. */
  label: string;
  heat_driver_role: HeatDriverRole;
}

/** The WorldCover legend with heat-driver roles, in code order. 0 is no data. */
export const LAND_COVER_CLASSES: readonly LandCoverClass[] = [
  { code: 10, name: 'tree_cover', label: 'Tree cover', heat_driver_role: 'cooling' },
  { code: 20, name: 'shrubland', label: 'Shrubland', heat_driver_role: 'cooling' },
  { code: 30, name: 'grassland', label: 'Grassland', heat_driver_role: 'neutral' },
  { code: 40, name: 'cropland', label: 'Cropland', heat_driver_role: 'neutral' },
  { code: 50, name: 'built_up', label: 'Built-up', heat_driver_role: 'heat_source' },
  { code: 60, name: 'bare_sparse', label: 'Bare / sparse vegetation', heat_driver_role: 'heat_source' },
  { code: 70, name: 'snow_ice', label: 'Snow and ice', heat_driver_role: 'neutral' },
  { code: 80, name: 'permanent_water', label: 'Permanent water bodies', heat_driver_role: 'cooling' },
  { code: 90, name: 'herbaceous_wetland', label: 'Herbaceous wetland', heat_driver_role: 'cooling' },
  { code: 95, name: 'mangroves', label: 'Mangroves', heat_driver_role: 'cooling' },
  { code: 100, name: 'moss_lichen', label: 'Moss and lichen', heat_driver_role: 'neutral' },
];

/** WorldCover's no-data value. */
export const LAND_COVER_NO_DATA = 0;

/** Legend position by class code (255 = not a legend class). */
export const CLASS_INDEX: Uint8Array = (() => {
  const t = new Uint8Array(256).fill(255);
  LAND_COVER_CLASSES.forEach((c, i) => (t[c.code] = i));
  return t;
})();
