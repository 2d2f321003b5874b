/** The outcome of charging one address to a key (the usage meter's step, shared by the stores and the batch runner). */
/** What happened when a lookup was offered to the meter. */
export interface ChargeOutcome {
  /** `charged` (a new address this period), `repeat` (already counted: free) or `quota_exceeded` (refused). */
  outcome: 'charged' | 'repeat' | 'quota_exceeded';
  /** Unique addresses counted in the period after this call. */
  used: number;
}
