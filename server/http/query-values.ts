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

/** A decimal number as the API takes one: digits, an optional fraction and exponent, no spaces or hex. */
export const DECIMAL = /^[+-]?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})([eE][+-]?\d{1,3})?$/;

/**
 * A decimal number as a query value: digits, a point, an exponent, nothing else (not `0x1`, ` 1`, `Infinity`
 * or an empty string, which `Number` would take); undefined when `v` is not one.
 */
export function decimalValue(v: string): number | undefined {
  return DECIMAL.test(v) ? Number(v) : undefined;
}

