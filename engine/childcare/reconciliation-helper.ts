/**
 * The reconciliation helper (spec 4.2 rule 5): a Python 3 script, standard library only (analysts have
 * Python; nothing to install), served by `GET /api/v1/childcare/reconciliation-helper`. It pages through the
 * childcare feed with the key from PROPINTEL_API_KEY (DALEADS_API_KEY, the original interface's name, also
 * works) or a hidden prompt, and writes a review worksheet: the record identifiers, stage, works type and
 * observed_at, plus blank columns for the customer's own matching. It asks the API first whether the key has
 * the childcare licence (`/api/v1/childcare/schema`, the spec's key check) and stops with status 3, naming what
 * the key lacks, when it has not (a DA-listing key would otherwise page through the plain listing and write a
 * worksheet of every category with blank stages). It never overwrites a worksheet without --force, waits
 * out 429 answers per Retry-After, and writes the file only once every page has arrived.
 */
import { pythonCellRules } from './csv-cells.js';

/** The worksheet's columns: kept from the feed, then the blank review columns. */
export const WORKSHEET_KEPT = ['id', 'council_reference', 'childcare_pipeline_stage', 'childcare_works_type', 'observed_at', 'state', 'council_name', 'address', 'status', 'lodgement_date'] as const;
export const WORKSHEET_BLANK = ['customer_match', 'customer_source', 'customer_record_id', 'classification_review', 'review_notes'] as const;

/** The script's text. */
export function reconciliationHelperScript(version: string): string {
  const rules = pythonCellRules();
  return `#!/usr/bin/env python3
"""propintel childcare reconciliation helper (propintel ${version}).

Pages through every row of the childcare feed (GET /api/v1/das with a childcare key) and writes a CSV review
worksheet: the record identifiers, pipeline stage, works type and observed_at, plus blank columns for your own
matching (customer_match, customer_source, customer_record_id, classification_review, review_notes).

Usage:
  PROPINTEL_API_KEY=pi_... python3 propintel_reconciliation_helper.py --base-url https://api.example.com
  python3 propintel_reconciliation_helper.py --out worksheet.csv --force      # prompts for the key

The key is read from PROPINTEL_API_KEY (or DALEADS_API_KEY), or asked for without echo. It is never written
anywhere. The key's childcare licence is checked first (GET /api/v1/childcare/schema).

Exit status: 0 written; 1 the API refused a page; 2 a usage problem (no key, a worksheet already there);
3 the key lacks the childcare licence, or the state asked for is not in it. Python 3.8 or later, standard
library only.
"""
import argparse
import csv
import getpass
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

KEPT = ${JSON.stringify(WORKSHEET_KEPT)}
BLANK = ${JSON.stringify(WORKSHEET_BLANK)}
# The export's cell rules (propintel engine/childcare/csv-cells.ts): NUL removed; a cell whose first character,
# past white space and invisible format characters (Unicode Zs and Cf), starts a formula gets a leading
# apostrophe (OWASP CSV injection), and so does each piece after a ";" or tab inside a cell (a reader splitting
# on them without taking quotes as quoting); every text cell is quoted.
DANGEROUS = re.compile(r"^[${rules.ignorable}]*[${rules.formulaStart}]")
DANGEROUS_AFTER_SEPARATOR = re.compile(r"([;\\t])(?=[${rules.ignorable}]*[${rules.formulaStart}])")


def cell(value):
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    text = DANGEROUS_AFTER_SEPARATOR.sub(r"\\1'", str(value).replace("\\x00", ""))
    return "'" + text if DANGEROUS.match(text) else text


class Refused(Exception):
    """The API refused a request: its status and error body ({error, message, ...})."""

    def __init__(self, status, body, url):
        super().__init__(status)
        self.status, self.body, self.url = status, body if isinstance(body, dict) else {}, url

    def __str__(self):
        code = self.body.get("error", "")
        message = self.body.get("message", "")
        return "HTTP %d%s from %s%s" % (self.status, " " + code if code else "", self.url, ": " + message if message else "")


def fetch(url, key, attempts=12):
    for _ in range(attempts):
        request = urllib.request.Request(url, headers={"Authorization": "Bearer " + key, "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)
        except urllib.error.HTTPError as err:
            if err.code == 429:
                wait = err.headers.get("Retry-After", "5")
                seconds = int(wait) if wait.isdigit() else 5
                print("rate limited: waiting %d s as Retry-After asks" % seconds, file=sys.stderr)
                time.sleep(min(seconds, 24 * 3600))
                continue
            detail = err.read().decode("utf-8", "replace")
            try:
                body = json.loads(detail)
            except ValueError:
                body = {"message": detail[:500]}
            raise Refused(err.code, body, url)
    raise SystemExit("gave up after %d rate-limited attempts" % attempts)


def check_licence(base_url, key, state):
    """The key's childcare licence, asked of the API before any row is read; None, or what the key lacks."""
    try:
        schema = fetch(base_url + "/api/v1/childcare/schema", key)
    except Refused as refused:
        if refused.status in (401, 403):
            return "this key cannot read the childcare feed (%s): %s" % (refused.body.get("error", "HTTP %d" % refused.status), refused.body.get("message", ""))
        raise
    allowed = (schema.get("licence") or {}).get("allowed_states") or []
    if state and state.upper() not in allowed:
        return "this key's childcare licence covers %s, not %s" % (", ".join(allowed) or "no state", state)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description="Write a childcare reconciliation worksheet from the propintel feed.")
    parser.add_argument("--base-url", default=os.environ.get("PROPINTEL_BASE_URL", "http://127.0.0.1:8080"), help="the API's base URL")
    parser.add_argument("--out", default="childcare-reconciliation.csv", help="the worksheet to write")
    parser.add_argument("--force", action="store_true", help="overwrite an existing worksheet")
    parser.add_argument("--state", help="one entitled state (default: all of the key's states)")
    parser.add_argument("--per-page", type=int, default=100, help="rows per request (at most 100)")
    args = parser.parse_args(argv)
    if os.path.exists(args.out) and not args.force:
        print("%s already exists; it was left as it is. Give --force to overwrite it." % args.out, file=sys.stderr)
        return 2
    key = os.environ.get("PROPINTEL_API_KEY") or os.environ.get("DALEADS_API_KEY") or getpass.getpass("API key: ")
    if not key:
        print("no API key: set PROPINTEL_API_KEY or type it at the prompt", file=sys.stderr)
        return 2
    base_url = args.base_url.rstrip("/")
    try:
        lacking = check_licence(base_url, key, args.state)
    except Refused as refused:
        print("could not check the key: %s" % refused, file=sys.stderr)
        return 1
    if lacking:
        print("%s; no worksheet was written. A key made with --childcare-states and the childcare add-on has the licence." % lacking, file=sys.stderr)
        return 3
    query = {"per_page": args.per_page}
    if args.state:
        query["state"] = args.state
    path = "/api/v1/das?" + urllib.parse.urlencode(query)
    rows, total = [], None
    while path:
        try:
            doc = fetch(base_url + path, key)
        except Refused as refused:
            print("%s; no worksheet was written" % refused, file=sys.stderr)
            return 1
        rows.extend(doc["data"])
        total = doc["meta"]["pages"].get("total", total)
        path = doc["meta"]["pages"].get("next")
        print("%d of %s rows" % (len(rows), total), file=sys.stderr)
    partial = args.out + ".partial"
    with open(partial, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, quoting=csv.QUOTE_NONNUMERIC)
        writer.writerow(KEPT + BLANK)
        for row in rows:
            writer.writerow([cell(row.get(name)) for name in KEPT] + [""] * len(BLANK))
    os.replace(partial, args.out)
    print("wrote %d rows to %s" % (len(rows), args.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;
}
