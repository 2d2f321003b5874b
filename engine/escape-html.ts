/**
 * Text made safe inside HTML text and double-quoted attributes: `&`, `<`, `>` and `"` as entities, and NUL
 * removed (HTML has no place for it: parsers drop or replace it, and a record should not smuggle one in).
 */
export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"\0]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\0': '' })[c]!);
}
