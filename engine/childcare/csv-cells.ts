/**
 * CSV cells safe in every spreadsheet and locale (OWASP "CSV Injection"; RFC 4180 sections 2.6-2.7), for the
 * childcare export and, through {@link pythonCellRules}, the reconciliation helper's worksheet: one rule set.
 *
 * - Every text field is quoted, its quotes doubled. Excel splits a line on the locale's list separator (`;` in
 *   most of continental Europe, a tab in a tab-delimited import), so a field holding `;` or a tab but not
 *   quoted would become two cells there, the second free to start with `=`.
 * - NUL is removed: it has no place in text, and readers cut or refuse a field at it.
 * - A field whose first character is a formula start (`=`, `+`, `-`, `@`, tab, CR, LF, or the full-width
 *   `＝＋－＠`) once leading white space and invisible format characters are passed over (Unicode Zs and Cf:
 *   U+00A0, U+3000, U+200B-U+200F, U+2060, U+FEFF, U+00AD, U+202A-U+202E, U+180E, ...) gets a leading
 *   apostrophe, so no spreadsheet evaluates it.
 * - The same after every `;` and tab inside a field: a reader that splits the file on `;` or tabs and does not
 *   take the quotes as quoting (the quote is then not at the start of its piece) would make `H2;=1+1` a cell
 *   `=1+1`; an apostrophe after the separator (`H2;'=1+1`) keeps that piece text too.
 * - Numbers of numeric columns are written as numbers (a negative cost stays a number, unquoted).
 */

/** Characters passed over before the formula test: Unicode space separators (Zs) and format characters (Cf). */
const IGNORABLE = /[\p{Zs}\p{Cf}]/u;
/** First characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = '=+-@\t\r\n\uff1d\uff0b\uff0d\uff20';
const DANGEROUS = new RegExp(`^[\\p{Zs}\\p{Cf}]*[${FORMULA_START.replace('-', '\\-')}]`, 'u');

/** A `;` or tab inside a field followed (past ignorables) by a formula start: an apostrophe goes after it. */
const DANGEROUS_AFTER_SEPARATOR = new RegExp(`([;\\t])(?=[\\p{Zs}\\p{Cf}]*[${FORMULA_START.replace('-', '\\-')}])`, 'gu');
/** The separators a field is split at by such a reader. */
export const INNER_SEPARATORS = ';\t';

/**
 * Text with NUL removed and, when it or a piece after a `;` or tab in it would start a formula, an apostrophe
 * before that; not yet quoted.
 */
export function neutralise(text: string): string {
  let s = text.includes('\0') ? text.replaceAll('\0', '') : text;
  if (s.includes(';') || s.includes('\t')) s = s.replace(DANGEROUS_AFTER_SEPARATOR, "$1'");
  return DANGEROUS.test(s) ? `'${s}` : s;
}

/** One CSV field: a number of a numeric column as it is, any other value neutralised and quoted; null empty. */
export function csvField(value: unknown, numeric = false): string {
  if (value === null || value === undefined) return '';
  if (numeric && typeof value === 'number' && Number.isFinite(value)) return String(value);
  return `"${neutralise(String(value)).replace(/"/g, '""')}"`;
}

/** The code points {@link IGNORABLE} matches, as inclusive ranges (computed once, for the Python rules). */
function ignorableRanges(): [number, number][] {
  const out: [number, number][] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (!IGNORABLE.test(String.fromCodePoint(cp))) continue;
    const last = out[out.length - 1];
    if (last && last[1] === cp - 1) last[1] = cp;
    else out.push([cp, cp]);
  }
  return out;
}

/**
 * The same rules as Python source (`re` has no `\p{...}`): the character class of leading characters passed
 * over, and the formula starts, each as the body of a `[...]` class with `\uXXXX` / `\UXXXXXXXX` escapes.
 */
export function pythonCellRules(): { ignorable: string; formulaStart: string } {
  return (pythonRules ??= makePythonRules());
}
let pythonRules: { ignorable: string; formulaStart: string } | undefined;

function makePythonRules(): { ignorable: string; formulaStart: string } {
  const esc = (cp: number) => (cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`);
  const ignorable = ignorableRanges().map(([a, b]) => (a === b ? esc(a) : `${esc(a)}-${esc(b)}`)).join('');
  const formulaStart = [...FORMULA_START].map((c) => esc(c.codePointAt(0)!)).join('');
  return { ignorable, formulaStart };
}
