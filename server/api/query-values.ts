/**
 * Spellings of query values shared by every surface that takes them as text (the HTTP API, the CLI, the
 * DA listing functions), so each accepts the same words.
 */

/** A boolean written as `1`, `0`, `true` or `false` (any case); undefined for anything else. */
export function booleanText(v: string): boolean | undefined {
  switch (v.toLowerCase()) {
    case '1':
    case 'true':
      return true;
    case '0':
    case 'false':
      return false;
    default:
      return undefined;
  }
}
