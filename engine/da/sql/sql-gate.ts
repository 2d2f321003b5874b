/**
 * The first of the read-only SQL endpoint's defences (`POST /v1/sql`, the MCP tool `sql_query`): a check of
 * the query's text before anything runs, in the style of Datasette's `validate_sql_select`. Later layers:
 * the query runs in a child process (killed at the time limit) on a read-only copy of the DA table that holds
 * nothing else (sql-mirror.ts), where SQLite must also report the statement as one that returns rows.
 *
 * Rules, on the text with string literals, quoted identifiers and comments blanked out:
 * - one statement, starting with SELECT or WITH;
 * - no ATTACH, DETACH, PRAGMA or load_extension anywhere; of the table-valued pragma functions only
 *   `pragma_table_info` and `pragma_table_xinfo` (reading the table's columns) are allowed;
 * - no `;` except a trailing one.
 */

/** A refusal: what is wrong, for the 422 body. */
export interface SqlRefusal {
  code: 'invalid_sql' | 'not_a_query' | 'forbidden_sql';
  message: string;
}

/** The longest query text accepted, characters. */
export const MAX_SQL_LENGTH = 20_000;

const ALLOWED_PRAGMA_FUNCTIONS = new Set(['pragma_table_info', 'pragma_table_xinfo']);

/** The text with literals, quoted identifiers and comments replaced by spaces (so keywords in them are not seen). */
export function blankLiterals(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`[^`]*`?|\[[^\]]*\]?|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, (m) => ' '.repeat(m.length));
}

/** Checks a query's text; null when it may run. */
export function gateSql(sql: unknown): SqlRefusal | null {
  if (typeof sql !== 'string' || sql.trim() === '') return { code: 'invalid_sql', message: 'query is empty: give one SELECT (or WITH ... SELECT) statement' };
  if (sql.length > MAX_SQL_LENGTH) return { code: 'invalid_sql', message: `query is ${sql.length} characters; at most ${MAX_SQL_LENGTH}` };
  const bare = blankLiterals(sql);
  const first = /^\s*([A-Za-z]+)/.exec(bare)?.[1]?.toUpperCase();
  if (first !== 'SELECT' && first !== 'WITH') {
    return { code: 'not_a_query', message: `only SELECT and WITH queries run here; this one starts with ${first ?? JSON.stringify(sql.trim().slice(0, 20))}` };
  }
  const semicolon = bare.indexOf(';');
  if (semicolon >= 0 && bare.slice(semicolon + 1).trim() !== '') return { code: 'invalid_sql', message: 'one statement only: the query has more after a ";"' };
  const word = /\b(attach|detach|pragma|load_extension)\b/i.exec(bare);
  if (word) return { code: 'forbidden_sql', message: `${word[1].toUpperCase()} is not allowed in a query` };
  // Quoted identifiers name tables too ("pragma_database_list", [x], `x`): check them unquoted, string
  // literals and comments still blanked.
  const names = sql.replace(/'(?:[^']|'')*'?|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, (m) => ' '.repeat(m.length)).replace(/["`\[\]]/g, ' ');
  const quotedWord = /\b(attach|detach|pragma|load_extension)\b/i.exec(names);
  if (quotedWord) return { code: 'forbidden_sql', message: `${quotedWord[1].toUpperCase()} is not allowed in a query` };
  for (const m of names.matchAll(/\bpragma_\w+/gi)) {
    if (!ALLOWED_PRAGMA_FUNCTIONS.has(m[0].toLowerCase())) return { code: 'forbidden_sql', message: `${m[0]} is not allowed; of the pragma functions only ${[...ALLOWED_PRAGMA_FUNCTIONS].join(' and ')} are` };
  }
  return null;
}
