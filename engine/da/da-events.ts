/**
 * DA change events: the outbox the webhooks read (server/webhooks/). The DA store writes an event for every
 * record it adds (`da.created`) and for every record whose council status changes (`da.status_changed`), in
 * the same transaction as the record itself: an import that fails writes no event, and one that commits
 * loses none, even if the process dies the moment after. Re-importing the same file writes nothing, because
 * unchanged records are not written at all. Events are kept for a week ({@link EVENT_RETENTION_MS}): each
 * import deletes older ones, so a store nobody delivers from does not grow without bound.
 *
 * An event carries a thin snapshot of the DA as it was when the event happened (the webhook body's `data`):
 * identity, place, category and status, and the path of the full record, `/v1/das/{id}`. Descriptions and
 * applicant names stay out: council free text carries personal details, and the record is one request away.
 */
import { randomBytes } from 'node:crypto';
import type { DaRow } from './da-schema.js';

/** The kinds of DA event. */
export const DA_EVENT_TYPES = ['da.created', 'da.status_changed'] as const;
export type DaEventType = (typeof DA_EVENT_TYPES)[number];

/** The `data` of a DA event. */
export interface DaEventData {
  id: number;
  council_reference: string;
  council_name: string;
  state: string;
  address: string;
  address_suburb: string;
  trade_category: string;
  status: string;
  status_group: string;
  lodgement_date: string;
  latitude: number | null;
  longitude: number | null;
  /** The full record: `GET /v1/das/{id}` (relative to the API's base URL). */
  url: string;
  /** da.status_changed only: the status before. */
  previous_status?: string;
  /** da.status_changed only: the status group before. */
  previous_status_group?: string;
}

/** One event of the outbox. */
export interface DaEvent {
  /** Position in the outbox: increases with every event written (the webhook dispatcher's cursor). */
  seq: number;
  /** `evt_...`: unique, and the `webhook-id` of every delivery of this event. */
  id: string;
  type: DaEventType;
  /** When the event was written (the import's time), ISO 8601 UTC. */
  created_at: string;
  data: DaEventData;
}

/** Events older than this are deleted by later imports, whether or not a webhook worker has read them. */
export const EVENT_RETENTION_MS = 7 * 24 * 3600 * 1000;

let entropy = Buffer.alloc(0);
let taken = 0;

/**
 * A new event id: `evt_` and 16 characters of base64url (96 random bits). The random bytes are drawn 12 KiB
 * at a time: one `randomBytes` call per event cost 20 us, a fifth of a large import.
 */
export function newEventId(): string {
  if (taken + 12 > entropy.length) {
    entropy = randomBytes(12 * 1024);
    taken = 0;
  }
  taken += 12;
  return `evt_${entropy.toString('base64url', taken - 12, taken)}`;
}

type EventRow = Pick<DaRow, 'council_reference' | 'council_name' | 'state' | 'address' | 'address_suburb' | 'trade_category' | 'status' | 'status_group' | 'lodgement_date' | 'latitude' | 'longitude'>;

/** The event data of the record `row` with `id`, and for a status change the status it had before. */
export function eventData(id: number, row: EventRow, previous?: { status: string; status_group: string }): DaEventData {
  const data: DaEventData = {
    id,
    council_reference: row.council_reference,
    council_name: row.council_name,
    state: row.state,
    address: row.address,
    address_suburb: row.address_suburb,
    trade_category: row.trade_category,
    status: row.status,
    status_group: row.status_group,
    lodgement_date: row.lodgement_date,
    latitude: row.latitude,
    longitude: row.longitude,
    url: `/v1/das/${id}`,
  };
  if (previous) {
    data.previous_status = previous.status;
    data.previous_status_group = previous.status_group;
  }
  return data;
}

/** The event a write of `row` makes, or null: a new record, or a council status that changed. */
export function eventOf(id: number, row: EventRow, old?: Pick<DaRow, 'status' | 'status_group'>): { type: DaEventType; data: DaEventData } | null {
  if (!old) return { type: 'da.created', data: eventData(id, row) };
  if (old.status !== row.status) return { type: 'da.status_changed', data: eventData(id, row, old) };
  return null;
}
