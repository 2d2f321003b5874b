/**
 * The attributes a feature carries into a vector tile, and the fields a set of features can carry (TileJSON
 * `vector_layers[].fields`): one definition for the tile encoder, the layer file's record of each file's
 * fields, and the TileJSON documents, so a tile never carries an attribute its TileJSON does not declare.
 */

/** An MVT value type as TileJSON names it. */
export type FieldType = 'String' | 'Number' | 'Boolean';

/** The scalar properties of a feature (what a vector tile can carry): strings, finite numbers, booleans. */
export function scalarProperties(props: Record<string, unknown> | null | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(props ?? {})) {
    if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
  }
  return out;
}

/** The field types of the scalar properties of `props`, added to `into` (name -> the types seen). */
export function collectFields(into: Map<string, Set<FieldType>>, props: Record<string, unknown> | null | undefined): void {
  for (const [k, v] of Object.entries(scalarProperties(props))) {
    let types = into.get(k);
    if (!types) into.set(k, (types = new Set()));
    types.add(typeof v === 'number' ? 'Number' : typeof v === 'boolean' ? 'Boolean' : 'String');
  }
}

/** Fields as TileJSON gives them: name -> type, `Number|String` where a field carries more than one type. */
export function fieldsRecord(fields: ReadonlyMap<string, ReadonlySet<FieldType>>): Record<string, string> {
  return Object.fromEntries([...fields].sort(([a], [b]) => a.localeCompare(b)).map(([k, types]) => [k, [...types].sort().join('|')]));
}

/** `fields` (a TileJSON fields record) merged into `into`. */
export function mergeFields(into: Map<string, Set<FieldType>>, fields: Record<string, string>): void {
  for (const [k, t] of Object.entries(fields)) {
    let types = into.get(k);
    if (!types) into.set(k, (types = new Set()));
    for (const one of t.split('|')) types.add(one as FieldType);
  }
}
