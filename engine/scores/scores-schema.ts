/**
 * The `scores` block's JSON Schema, from a registry: one property per score, referring to the definition its
 * descriptor names (`schema.ref`), with the definitions of engine/scores/score-schema.ts and any a descriptor
 * brings of its own. The payload schema (engine/property/schema.ts), the OpenAPI documents and the generated
 * library types (scripts/gen-payload-types.ts) all take it from here.
 */
import { SCORES, type ScoreRegistry } from './registry.js';
import { SCORE_DEFS } from './score-schema.js';

type Schema = Record<string, unknown>;

/** The `scores` block and every definition it refers to. */
export function scoresSchema(registry: ScoreRegistry = SCORES): { schema: Schema; defs: Record<string, Schema> } {
  const defs: Record<string, Schema> = { ...SCORE_DEFS };
  for (const d of registry) {
    for (const [name, def] of Object.entries(d.schema.definitions ?? {})) {
      if (name in defs && defs[name] !== def) throw new Error(`score ${d.key}: its schema definition ${name} is already defined`);
      defs[name] = def;
    }
    if (!(d.schema.ref in defs)) throw new Error(`score ${d.key}: its schema refers to ${d.schema.ref}, which no definition names`);
  }
  return {
    schema: {
      type: 'object',
      description: 'Screening scores by key, each with its level, components and provenance (only those asked for and computed).',
      properties: Object.fromEntries(registry.map((d) => [d.key, { $ref: `#/$defs/${d.schema.ref}` }])),
      additionalProperties: false,
    },
    defs,
  };
}

/** The registry's `scores` block. */
export const SCORES_SCHEMA: Schema = scoresSchema().schema;
