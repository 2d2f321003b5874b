/**
 * The address index: ranked free-text search over address points, nearest-address and parcel lookups.
 *
 * Search: the query is parsed (unit, number, words, state, postcode; see normalise.ts); candidates come from
 * an inverted index over street-name words (a word one edit away also counts, for typos); each candidate is
 * scored by weighted text relevance:
 *
 *   number 0.30 · street name 0.35 (share of its words found; a word one edit away counts 0.8) · street type
 *   0.05 · suburb 0.15 · state 0.05 · postcode 0.05 · unit 0.05
 *
 * with half credit for a state or postcode the query did not give, less for words the query has that match
 * nothing (0.04 each, at most 0.2), and a query without a street number scaled by 0.7. `match_confidence` is
 * that relevance, so an exact formatted address scores 1.0 and "12 Blyth St Brunswick East" about 0.95.
 */
import type { StateCode } from '../catalogue/states.js';
import { PointIndex } from '../vector/point-index.js';
import type { AddressRecord } from './address-record.js';
import { FULL_STREET_TYPES, normaliseWords, parseQuery, withinOneEdit, type ParsedQuery } from './normalise.js';

/** Below this relevance the best hit is not accepted (the lookup fails with candidates). */
export const MATCH_FLOOR = 0.5;
/** Below this relevance an accepted match carries `low_text_match` (spec 2.2). */
export const LOW_TEXT_MATCH = 0.6;

/** The warning codes of spec 2.2 (warn, never refuse). */
export type MatchWarning = 'state_mismatch' | 'postcode_mismatch' | 'locality_unverified' | 'low_text_match';

/** An alternative match. */
export interface AddressCandidate {
  address: string;
  confidence: number;
  state: StateCode;
  lat: number;
  lng: number;
  id: string;
}

/** The result of a search. */
export interface AddressResolution {
  /** The accepted match, or null when nothing reaches {@link MATCH_FLOOR}. */
  match: AddressRecord | null;
  /** Text relevance of the accepted (or best) hit, 0-1, two decimals. */
  confidence: number;
  warnings: MatchWarning[];
  /** Plain English; empty when the match is unremarkable. */
  note: string;
  /** Alternatives (the match excluded), best first. */
  candidates: AddressCandidate[];
}

/** An address with the word lists the ranking reads. */
export interface Prepared {
  rec: AddressRecord;
  nameWords: string[];
  type: string | null;
  suburbWords: string[];
}

/** The words the ranking reads of an address record. */
export function prepare(rec: AddressRecord): Prepared {
  const words = normaliseWords(rec.street);
  const last = words[words.length - 1];
  const hasType = words.length > 1 && FULL_STREET_TYPES.has(last);
  return { rec, nameWords: hasType ? words.slice(0, -1) : words, type: hasType ? last : null, suburbWords: normaliseWords(rec.suburb) };
}

/**
 * Where an index keeps its addresses and postings: in memory (built from records, the default) or in a
 * SQLite file (address-disk.ts), read per query. The ranking is the same code over either.
 */
export interface AddressPostings {
  readonly size: number;
  /** The address at position `i` (0-based), prepared. */
  item(i: number): Prepared;
  /** Makes the addresses at `positions` ready for `item` in one read (a disk index); optional. */
  prefetch?(positions: Iterable<number>): void;
  /** Positions of the addresses whose street name has `word`; empty when none. */
  withWord(word: string): readonly number[];
  /** ... and whose house number is `number`. */
  withWordAndNumber(word: string, number: string): readonly number[];
  /** Whether `word` is a street-name word of some address. */
  hasWord(word: string): boolean;
  /** Street-name words that `word` less one character is, or that share a one-character deletion with it. */
  deletionNeighbours(word: string): Iterable<string>;
  byId(id: string): AddressRecord | undefined;
  byPfi(pfi: string): AddressRecord[];
  nearest(lon: number, lat: number, maxDistanceM: number): { record: AddressRecord; distanceM: number } | null;
  close?(): void;
}

/** Every string `w` less one character. */
export function deletions(w: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < w.length; i++) out.push(w.slice(0, i) + w.slice(i + 1));
  return out;
}

/** The in-memory postings (the default index). */
class MemoryPostings implements AddressPostings {
  private readonly byWord = new Map<string, number[]>();
  /** The same postings split by house number (`word \0 number`): a query with a number reads only those. */
  private readonly byWordNumber = new Map<string, number[]>();
  private readonly ids = new Map<string, AddressRecord>();
  private readonly pfis = new Map<string, AddressRecord[]>();
  private readonly points: PointIndex;
  private deletionIndex?: Map<string, string[]>;

  constructor(private readonly items: Prepared[]) {
    items.forEach((p, i) => {
      for (const w of new Set(p.nameWords)) {
        const list = this.byWord.get(w);
        if (list) list.push(i);
        else this.byWord.set(w, [i]);
        const key = `${w}\u0000${p.rec.number}`;
        const numbered = this.byWordNumber.get(key);
        if (numbered) numbered.push(i);
        else this.byWordNumber.set(key, [i]);
      }
      this.ids.set(p.rec.id, p.rec);
      if (p.rec.pfi) {
        const l = this.pfis.get(p.rec.pfi);
        if (l) l.push(p.rec);
        else this.pfis.set(p.rec.pfi, [p.rec]);
      }
    });
    const coords = new Float64Array(items.length * 2);
    items.forEach((p, i) => {
      coords[2 * i] = p.rec.lon;
      coords[2 * i + 1] = p.rec.lat;
    });
    this.points = PointIndex.build(coords, { shared: false });
  }

  get size(): number {
    return this.items.length;
  }

  item(i: number): Prepared {
    return this.items[i];
  }

  withWord(word: string): readonly number[] {
    return this.byWord.get(word) ?? [];
  }

  withWordAndNumber(word: string, number: string): readonly number[] {
    return this.byWordNumber.get(`${word}\u0000${number}`) ?? [];
  }

  hasWord(word: string): boolean {
    return this.byWord.has(word);
  }

  deletionNeighbours(w: string): Iterable<string> {
    if (!this.deletionIndex) {
      // Built on the first misspelt query: every vocabulary word under each of its one-character deletions.
      const index = new Map<string, string[]>();
      for (const v of this.byWord.keys()) {
        for (const d of new Set(deletions(v))) {
          const list = index.get(d);
          if (list) list.push(v);
          else index.set(d, [v]);
        }
      }
      this.deletionIndex = index;
    }
    const found = new Set<string>(this.deletionIndex.get(w) ?? []);
    for (const d of deletions(w)) {
      if (this.byWord.has(d)) found.add(d);
      for (const v of this.deletionIndex.get(d) ?? []) found.add(v);
    }
    return found;
  }

  byId(id: string): AddressRecord | undefined {
    return this.ids.get(id);
  }

  byPfi(pfi: string): AddressRecord[] {
    return this.pfis.get(pfi) ?? [];
  }

  nearest(lon: number, lat: number, maxDistanceM: number): { record: AddressRecord; distanceM: number } | null {
    const n = this.points.nearest(lon, lat, 1, maxDistanceM)[0];
    return n ? { record: this.items[n.id].rec, distanceM: n.distance } : null;
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The words of the query that name a locality other than the matched address's: what is left once the
 * street's name (exactly or one edit away), any street type and the matched suburb are taken out.
 */
function typedLocality(p: Prepared, q: ParsedQuery): string[] {
  return q.words.filter((w) => !FULL_STREET_TYPES.has(w) && w !== p.type && !p.suburbWords.includes(w) && !p.nameWords.some((n) => n === w || (n.length >= 4 && withinOneEdit(w, n))));
}

/** The address index (immutable; rebuild to change). */
export class AddressIndex {
  constructor(private readonly postings: AddressPostings) {}

  /** Builds the index over `records`, in memory. */
  static build(records: readonly AddressRecord[]): AddressIndex {
    return new AddressIndex(new MemoryPostings(records.map(prepare)));
  }

  /** Number of addresses. */
  get size(): number {
    return this.postings.size;
  }

  /** The address with `id`. */
  byId(id: string): AddressRecord | undefined {
    return this.postings.byId(id);
  }

  /** The addresses on parcel `pfi`. */
  byPfi(pfi: string): AddressRecord[] {
    return this.postings.byPfi(pfi);
  }

  /** The nearest address within `maxDistanceM` (default unlimited), or null. */
  nearest(lon: number, lat: number, maxDistanceM = Infinity): { record: AddressRecord; distanceM: number } | null {
    return this.postings.nearest(lon, lat, maxDistanceM);
  }

  /** Releases what the postings hold open (a disk index's file). */
  close(): void {
    this.postings.close?.();
  }

  /**
   * The latest searches and their answers: a batch resolves each row's address before its lookup (to order
   * the lookups in space), and the lookup resolves it again; the index never changes, so the answer is the
   * same and is taken from here (copied: callers put it in payloads).
   */
  private readonly recent = new Map<string, AddressResolution>();

  /** Ranked search (see the module comment). */
  resolve(text: string, options: { limit?: number } = {}): AddressResolution {
    const key = `${options.limit ?? 5}|${text}`;
    let res = this.recent.get(key);
    if (!res) {
      res = this.search(text, options);
      if (this.recent.size >= 512) this.recent.delete(this.recent.keys().next().value!);
      this.recent.set(key, res);
    }
    return { ...res, warnings: [...res.warnings], candidates: res.candidates.map((c) => ({ ...c })) };
  }

  private search(text: string, options: { limit?: number }): AddressResolution {
    const limit = options.limit ?? 5;
    const q = parseQuery(text);
    const candidates = this.candidateIds(q);
    // The best limit + 1, by score and then text: kept in a small sorted buffer rather than sorting every
    // candidate (a common street name in a large index gives thousands).
    const order = (a: { i: number; score: number }, b: { i: number; score: number }) => b.score - a.score || this.postings.item(a.i).rec.text.localeCompare(this.postings.item(b.i).rec.text);
    const top: { i: number; score: number }[] = [];
    this.postings.prefetch?.(candidates);
    for (const i of candidates) {
      const c = { i, score: this.score(this.postings.item(i), q) };
      if (top.length > limit && order(c, top[limit]) >= 0) continue;
      let k = Math.min(top.length, limit);
      top[k] = c;
      while (k > 0 && order(top[k], top[k - 1]) < 0) {
        [top[k], top[k - 1]] = [top[k - 1], top[k]];
        k--;
      }
      top.length = Math.min(top.length, limit + 1);
    }
    const cand = (s: { i: number; score: number }): AddressCandidate => {
      const r = this.postings.item(s.i).rec;
      return { address: r.text, confidence: round2(s.score), state: r.state, lat: r.lat, lng: r.lon, id: r.id };
    };
    const best = top[0];
    if (!best || best.score < MATCH_FLOOR) {
      return { match: null, confidence: best ? round2(best.score) : 0, warnings: [], note: best ? 'No address matched well enough; the closest are listed as candidates.' : 'No address matched.', candidates: top.slice(0, limit).filter((s) => s.score > 0.2).map(cand) };
    }
    const match = this.postings.item(best.i);
    const confidence = round2(best.score);
    const locality = typedLocality(match, q);
    if (q.postcode && q.postcode !== match.rec.postcode && locality.length) {
      // Both the locality and the postcode the user typed contradict the closest address: a guess, not a
      // match (it would be billed and answered as the user's address). The closest are candidates.
      return {
        match: null,
        confidence,
        warnings: [],
        note: `The locality ("${locality.join(' ')}") and postcode (${q.postcode}) in the query both differ from the closest address, ${match.rec.text}; it is listed as a candidate, not taken as the match.`,
        candidates: top.slice(0, limit).map(cand),
      };
    }
    const warnings: MatchWarning[] = [];
    const notes: string[] = [];
    if (q.state && q.state !== match.rec.state) {
      warnings.push('state_mismatch');
      notes.push(`The query names ${q.state} but the matched address is in ${match.rec.state}.`);
    }
    if (q.postcode && q.postcode !== match.rec.postcode) {
      warnings.push('postcode_mismatch');
      notes.push(`The query's postcode ${q.postcode} differs from the matched address's ${match.rec.postcode}.`);
    }
    if (!match.suburbWords.every((w) => q.words.includes(w))) {
      warnings.push('locality_unverified');
      notes.push(`The matched suburb, ${match.rec.suburb}, does not appear in the query, so the locality is unverified.`);
    }
    if (confidence < LOW_TEXT_MATCH) {
      warnings.push('low_text_match');
      notes.push(`The text match is weak (${confidence}); check the address.`);
    }
    return { match: match.rec, confidence, warnings, note: notes.join(' '), candidates: top.slice(1, limit + 1).map(cand) };
  }

  /** Candidate positions: addresses whose street name shares a word (or a word one edit away) with the query. */
  private candidateIds(q: ParsedQuery): Set<number> {
    const words: string[] = [];
    for (const w of q.words) {
      if (w.length < 2) continue;
      if (this.postings.hasWord(w)) words.push(w);
      else if (w.length >= 4) words.push(...this.nearWords(w));
    }
    if (q.number !== null) {
      // With a number, the addresses with that number only, when there are any (a big street list stays cheap).
      const withNumber = new Set<number>();
      for (const w of words) for (const i of this.postings.withWordAndNumber(w, q.number)) withNumber.add(i);
      if (withNumber.size) return withNumber;
    }
    const out = new Set<number>();
    for (const w of words) for (const i of this.postings.withWord(w)) out.add(i);
    return out;
  }

  /**
   * The street-name words within one edit of `w` (an insertion, deletion or substitution), found through an
   * index of every word's one-character deletions (SymSpell's idea) rather than a scan of the vocabulary: a
   * word one edit from `w` is `w` less a character, has `w` as one of its deletions, or shares a deletion with
   * it; those candidates are then checked exactly.
   */
  private nearWords(w: string): string[] {
    return [...this.postings.deletionNeighbours(w)].filter((v) => withinOneEdit(w, v));
  }

  private score(p: Prepared, q: ParsedQuery): number {
    const r = p.rec;
    let s = 0;
    const used = new Set<number>();
    // Street name: each of its words found in the query (exact 1, one edit away 0.8).
    let name = 0;
    for (const w of p.nameWords) {
      let credit = 0;
      q.words.forEach((qw, k) => {
        if (used.has(k) || credit === 1) return;
        if (qw === w) {
          credit = 1;
          used.add(k);
        } else if (w.length >= 4 && withinOneEdit(qw, w) && credit < 0.8) {
          credit = 0.8;
          used.add(k);
        }
      });
      name += credit;
    }
    s += 0.35 * (p.nameWords.length ? name / p.nameWords.length : 0);
    if (q.number !== null && q.number === r.number) s += 0.3;
    // Street type: matching, or not typed at all.
    const typeAt = p.type ? q.words.findIndex((w, k) => w === p.type && !used.has(k)) : -1;
    if (typeAt >= 0) used.add(typeAt);
    const queryHasType = q.words.some((w) => FULL_STREET_TYPES.has(w));
    if (typeAt >= 0 || (!queryHasType && p.type)) s += 0.05;
    // Suburb: every word present.
    const suburbAt = p.suburbWords.map((w) => q.words.findIndex((qw, k) => qw === w && !used.has(k)));
    if (suburbAt.length && suburbAt.every((k) => k >= 0)) {
      s += 0.15;
      for (const k of suburbAt) used.add(k);
    }
    s += q.state === null ? 0.025 : q.state === r.state ? 0.05 : 0;
    s += q.postcode === null ? 0.025 : q.postcode === r.postcode ? 0.05 : 0;
    if ((q.unit ?? null) === (r.unit ?? null)) s += 0.05;
    else if (q.unit === null) s += 0.02;
    const unmatched = q.words.filter((_, k) => !used.has(k)).length;
    s -= Math.min(0.2, 0.04 * unmatched);
    if (q.number === null) s *= 0.7;
    return Math.max(0, Math.min(1, s));
  }
}
