/**
 * The five `core` keys every planning item carries (spec 2.4): feature_type, code, name, description, scheme;
 * a key is null when the publisher supplies no equivalent. Read per publisher schema (the catalogue's
 * `schema`), so each state's own fields stay under `properties` and the core is comparable across states.
 */
import type { CatalogueSource } from '../../catalogue/catalogue.js';
import type { PayloadPath } from '../../catalogue/payload-paths.js';

/** The five core keys, in order. */
export const PLANNING_CORE_FIELDS = ['feature_type', 'code', 'name', 'description', 'scheme'] as const;

/** A planning item's core. */
export interface PlanningCore {
  feature_type: string | null;
  code: string | null;
  name: string | null;
  description: string | null;
  scheme: string | null;
}

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));
const title = (s: string) => s.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());

type Mapper = (p: Record<string, unknown>) => PlanningCore;

const core = (feature_type: string, code: unknown, name: unknown, description: unknown, scheme: unknown): PlanningCore => ({ feature_type, code: str(code), name: str(name), description: str(description), scheme: str(scheme) });

const SCHEMAS: Record<string, Mapper> = {
  // ZONE_DESC in Vicmap DataMart extracts; ZONE_DESCR where a Shapefile export cut it to ten characters.
  vicmap_planning_zone: (p) => core('zone', p.ZONE_CODE, p.ZONE_DESC ?? p.ZONE_DESCR, null, p.LGA ? `${title(String(p.LGA))} Planning Scheme` : null),
  vicmap_planning_overlay: (p) => core('overlay', p.ZONE_CODE, p.ZONE_DESC ?? p.ZONE_DESCR, null, p.LGA ? `${title(String(p.LGA))} Planning Scheme` : null),
  nsw_lep_zoning: (p) => core('zone', p.SYM_CODE, p.LAY_CLASS, p.PURPOSE, p.EPI_NAME),
  nsw_lep_overlay: (p) => core('overlay', p.MAP_TYPE, p.LAY_CLASS, p.H_NAME ?? p.CLASS ?? (p.HEIGHT_M !== undefined ? `Maximum height ${p.HEIGHT_M} m` : null), p.EPI_NAME),
  qld_city_plan_zone: (p) => core('zone', p.ZONE_CODE, p.ZONE_DESC, p.ZONE_PREC, p.PLAN),
  qld_city_plan_overlay: (p) => core('overlay', p.OVL_CODE, p.OVL2_DESC, p.OVL2_CAT, 'Brisbane City Plan 2014'),
  // wa_plan_zone: when the source gives one readable classification, name mirrors code and description is null.
  wa_plan_zone: (p) => core('zone', p.zone, p.zone, str(p.description) ?? null, p.scheme_name),
  wa_lps_special_control: (p) => core('overlay', p.sca_code, p.sca_name, null, p.scheme_name),
  sa_pdc_zone: (p) => core('zone', p.legend, p.name, null, p.code_version ? `Planning and Design Code ${p.code_version}` : 'Planning and Design Code'),
  sa_pdc_overlay: (p) => core('overlay', p.overlay_code, p.overlay_name, p.historic_area, p.code_version ? `Planning and Design Code ${p.code_version}` : 'Planning and Design Code'),
  tas_tps_zone: (p) => core('zone', p.ZONE_CODE, p.ZONE, null, p.SCHEME),
  tas_tps_code_overlay: (p) => core('overlay', p.CODE, p.CODE_NAME, p.PRECINCT ?? p.AREA, 'Tasmanian Planning Scheme'),
  act_territory_plan_zone: (p) => core('zone', p.LAND_USE_ZONE_CODE, p.LAND_USE_ZONE, null, 'Territory Plan 2023'),
  act_territory_plan_overlay: (p) => core('overlay', p.OVERLAY_CODE, p.OVERLAY, p.PRECINCT, 'Territory Plan 2023'),
  nt_planning_scheme_zone: (p) => core('zone', p.ZONE_CODE, p.ZONE_DESC, null, p.SCHEME),
  nt_planning_scheme_overlay: (p) => core('overlay', p.OVERLAY_CODE, p.OVERLAY, null, 'NT Planning Scheme 2020'),
};

const REGISTER_CODE = ['VHR_NUMBER', 'SHR_NUMBER', 'QHR_ID', 'PLACE_NUMBER', 'SAHR_ID', 'THR_ID', 'ACT_HERITAGE_ID', 'HERITAGE_ID'];
const REGISTER_NAME = ['NAME', 'ITEM_NAME', 'PLACE_NAME', 'DETAILS'];
const first = (p: Record<string, unknown>, keys: string[]) => keys.map((k) => p[k]).find((v) => v !== undefined && v !== null && v !== '');

/** The core of a planning item from its source and properties. */
export function planningCore(source: CatalogueSource, path: PayloadPath, p: Record<string, unknown>): PlanningCore {
  const mapper = source.schema ? SCHEMAS[source.schema] : undefined;
  if (mapper) return mapper(p);
  switch (path) {
    case 'planning.heritage':
      return core('heritage_place', first(p, REGISTER_CODE), first(p, REGISTER_NAME), p.SIGNIFICANCE ?? p.CLASS ?? p.STATUS ?? null, p.REGISTER ?? null);
    case 'planning.easement':
      return core('easement', p.easement_id ?? p.EASEMENT_ID, p.purpose ?? p.PURPOSE, p.width_m !== undefined ? `${p.width_m} m wide${p.beneficiary ? `, in favour of ${p.beneficiary}` : ''}` : null, null);
    case 'planning.growth_area':
      return core('growth_area', p.code ?? null, p.name ?? p.NAME, p.status ?? p.STATUS, p.framework_plan ?? null);
    case 'planning.overlay':
      return core('overlay', p.OVL_CODE ?? p.code ?? null, p.OVL2_DESC ?? p.name ?? null, p.OVL2_CAT ?? p.description ?? null, p.amendment ?? null);
    default:
      return core(path.split('.')[1] ?? 'zone', p.code ?? p.CODE ?? null, p.name ?? p.NAME ?? null, p.description ?? null, p.scheme ?? null);
  }
}
