/**
 * The one rule table from a council's published status text to the listing's `status_group`, the childcare
 * pipeline stage and the decision outcome (DESIGN.md: "derived from council status text by one documented
 * rule table; the raw status is always kept").
 *
 * Council wording varies ("Permit Issued", "Determined - Approved", "Planning Consent Granted", "On
 * Exhibition", "Public notification", "Further Information Requested"); the rules are tried in order and the
 * first whose pattern matches the lower-cased text decides. The order matters: "Not approved" and
 * "Determined - Refused" are refusals before anything says approved; "Deferred Commencement" (a consent
 * whose conditions must be met before it operates, NSW EP&A Act s 4.16(3)) is an approval before "deferred"
 * (a decision put off) is pending; a withdrawn or lapsed application is no longer in the pipeline. A bare
 * "Current" or "Open" (how several registers mark an undecided application) is pending; "Determined" alone
 * names no outcome and stays unknown.
 */
import type { ChildcareStage } from './categories.js';

/** The listing's status groups. */
export const STATUS_GROUPS = ['pending', 'advertised', 'approved', 'rejected', 'other'] as const;
/** One of {@link STATUS_GROUPS}. */
export type StatusGroup = (typeof STATUS_GROUPS)[number];

/** The decision outcome of a decided application (null while undecided or when the text says nothing). */
export const DECISION_STATUSES = ['approved', 'refused', 'withdrawn', 'lapsed'] as const;
/** One of {@link DECISION_STATUSES}. */
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

/** One rule of the table. */
export interface StatusRule {
  /** The rule's name (reported by {@link classifyStatus} as `rule`). */
  name: string;
  /** Tested against the lower-cased status text. */
  pattern: RegExp;
  group: StatusGroup;
  stage: ChildcareStage;
  decision: DecisionStatus | null;
}

/** The rules, in the order they are tried. */
export const STATUS_RULES: readonly StatusRule[] = [
  { name: 'withdrawn', pattern: /withdrawn|cancelled by (the )?applicant/, group: 'other', stage: 'withdrawn', decision: 'withdrawn' },
  { name: 'lapsed', pattern: /lapsed|expired|surrendered|cancelled|revoked/, group: 'other', stage: 'unknown', decision: 'lapsed' },
  { name: 'refused', pattern: /refus|reject|not approved|not granted|declined/, group: 'rejected', stage: 'refused', decision: 'refused' },
  { name: 'approved', pattern: /approv|granted|permit issued|consent issued|deferred commencement|notice of decision/, group: 'approved', stage: 'approved', decision: 'approved' },
  { name: 'advertised', pattern: /advertis|exhibition|notification|on notice|public notice|on display|open for (public )?(comment|submissions)|submissions (open|invited)|public comment/, group: 'advertised', stage: 'advertised', decision: null },
  {
    name: 'pending',
    pattern: /assessment|in progress|received|lodged|verified|further information|additional information|information request|deferred|reconsideration|pending|review|submitted|appeal|referral|processing|consideration|awaiting|being (assessed|considered|determined|processed)|on hold|stop the clock|^current$|^open$/,
    group: 'pending',
    stage: 'under_assessment',
    decision: null,
  },
];

/** What a status text means. */
export interface StatusClass {
  status_group: StatusGroup;
  stage: ChildcareStage;
  decision_status: DecisionStatus | null;
  /** The rule that matched, or null when none did (an empty or unrecognised status: group `other`). */
  rule: string | null;
}

const memo = new Map<string, StatusClass>();

/** Classifies a council status text by {@link STATUS_RULES}; an unrecognised or empty text is `other` / `unknown`. */
export function classifyStatus(status: string): StatusClass {
  let c = memo.get(status);
  if (c) return c;
  const s = status.trim().toLowerCase();
  const rule = s ? STATUS_RULES.find((r) => r.pattern.test(s)) : undefined;
  c = rule ? { status_group: rule.group, stage: rule.stage, decision_status: rule.decision, rule: rule.name } : { status_group: 'other', stage: 'unknown', decision_status: null, rule: null };
  // Councils reuse a few dozen texts; the memo stays small, but is bounded against a feed of free text.
  if (memo.size < 10_000) memo.set(status, c);
  return c;
}
