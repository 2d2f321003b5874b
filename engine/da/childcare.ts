/**
 * Childcare pipeline fields from council text: the stage from each council's status vocabulary (the one
 * status rule table, status-rules.ts), the works type and the number of places from the description.
 */
import type { ChildcareStage, ChildcareWorksType } from './categories.js';
import { classifyStatus } from './status-rules.js';

/** The pipeline stage of a council status (an unrecognised status is `unknown`, e.g. Lapsed). */
export function childcarePipelineStage(status: string): ChildcareStage {
  return classifyStatus(status).stage;
}

/** The works type of a childcare proposal. */
export function childcareWorksType(description: string): ChildcareWorksType {
  const d = description.toLowerCase();
  if (/change of use/.test(d)) return 'change_of_use';
  // More places, children or rooms in a centre that exists ("additional car parking" is not an extension).
  if (/\bextension\b|\bexpan(d|sion)|increase (in |of )?(the )?(number of )?(children|places|capacity|licensed)|additional (\d+ )?(children|places|rooms?|playrooms?|capacity)/.test(d)) return 'extension';
  if (/alteration|\badditions?\b|fit-?out|refurbish/.test(d)) return 'alterations';
  if (/construction|development|\bnew\b|erection/.test(d)) return 'new_centre';
  return 'other';
}

/** The number of places or children proposed, or null. */
export function childcarePlaces(description: string): number | null {
  const m = /(\d+)\s*(?:places|children|child places)/i.exec(description) ?? /for (\d+) children/i.exec(description);
  return m ? Number(m[1]) : null;
}
