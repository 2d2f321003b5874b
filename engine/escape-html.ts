/** Text made safe inside HTML text and double-quoted attributes (`&`, `<`, `>` and `"` as entities). */
export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
