/**
 * The poi block (spec 2.5): state open-data schools within school_radius_m, nearest first; the school
 * catchments the subject lies in (polygon membership, ignoring the radius) with exactly seven keys; and the
 * childcare list, withheld pending the publisher's consent (an empty list that is never a finding).
 */
import { coveringHits, withinHits } from '../kit/layer-query.js';
import { r7 } from '../kit/layer-item.js';
import { layerItemOf, lookup, withGeometry, type BlockContext } from './context.js';

/** The seven keys of a school catchment item, in order. */
export const SCHOOL_CATCHMENT_FIELDS = ['feature_type', 'school_name', 'catchment_type', 'school_type', 'school_sector', 'year_levels', 'school_location'] as const;

/** `poi.childcare_500m_status`: the childcare list is withheld until the publisher consents. */
export const CHILDCARE_STATUS = 'withheld_pending_publisher_consent';

const text = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

/** Builds the poi block. */
export function poiBlock(ctx: BlockContext, wanted: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const point = { ...ctx.subject, parcel: null };
  if (wanted('schools_500m')) {
    const items = lookup(ctx, 'poi.schools_500m', () => {
      const hits = withinHits(ctx.store, 'poi.schools_500m', point, ctx.options.school_radius_m);
      return { items: hits.map((h) => layerItemOf(ctx, h, { distance: true })), sources: hits.map((h) => h.layer.source.id) };
    }, { emptyIsNotAssessed: true, component: 'poi.schools_500m' });
    if (items) out.schools_500m = items;
  }
  if (wanted('school_catchments')) {
    const items = lookup(ctx, 'poi.school_catchments', () => {
      const hits = coveringHits(ctx.store, 'poi.school_catchments', point);
      const schools = ctx.store.recordsFor('poi.schools_500m', ctx.subject.state);
      const items = hits.map((h) => {
        const p = h.properties;
        const id = text(p.school_id);
        let location: { lat: number; lng: number; source: string } | null = null;
        if (id) {
          for (const t of schools) {
            const row = t.rows.find((r) => String(r.school_id) === id);
            if (row && Number.isFinite(Number(row.lat)) && Number.isFinite(Number(row.lon ?? row.lng))) {
              location = { lat: r7(Number(row.lat)), lng: r7(Number(row.lon ?? row.lng)), source: t.source.id };
              break;
            }
          }
        }
        const item: Record<string, unknown> = {
          feature_type: 'school_catchment',
          school_name: text(p.school_name ?? p.SCHOOL_NAME ?? p.name),
          catchment_type: text(p.catchment_type ?? p.CATCHMENT_TYPE),
          school_type: text(p.school_type ?? p.SCHOOL_TYPE),
          school_sector: text(p.school_sector ?? p.SECTOR),
          year_levels: text(p.year_levels ?? p.YEAR_LEVELS),
          school_location: location,
        };
        return withGeometry(ctx, item, h, 'poi');
      });
      return { items, sources: hits.map((h) => h.layer.source.id) };
    });
    if (items) out.school_catchments = items;
  }
  if (wanted('childcare_500m')) {
    out.childcare_500m = [];
    out.childcare_500m_status = CHILDCARE_STATUS;
  }
  return out;
}
