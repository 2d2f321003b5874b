/**
 * Writes the TypeScript types of what the API answers, generated from the JSON Schemas the responses are
 * validated against and the OpenAPI documents embed, by json-schema-to-typescript. One contract, three
 * outputs: the schema, the OpenAPI document and the exported types.
 *
 * - engine/property/payload-types.ts: the full and core property payloads (engine/property/schema.ts);
 * - engine/da/response-types.ts: the DA listing's responses (engine/da/listing-schema.ts);
 * - engine/childcare/response-types.ts: the childcare responses (engine/childcare/childcare-schemas.ts);
 * - engine/scores/score-types.generated.ts: every score and surface (engine/scores/score-schema.ts), the
   library's `Scores` and `Surfaces`.
 *
 * test/engine/property/payload-types.test.ts fails when a file drifts from its schemas; rerun this then:
 *
 *   npx tsx scripts/gen-payload-types.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { CHILDCARE_ANALYSIS_SCHEMA, CHILDCARE_FEED_SCHEMA, CHILDCARE_SITE_SCHEMA } from '../engine/childcare/childcare-schemas.js';
import { DA_CATEGORIES_SCHEMA, DA_COUNCILS_SCHEMA, DA_DETAIL_SCHEMA, DA_LIST_SCHEMA, DA_NEARBY_SCHEMA, DA_STATS_SCHEMA } from '../engine/da/listing-schema.js';
import { CORE_PAYLOAD_SCHEMA, PROPERTY_PAYLOAD_SCHEMA } from '../engine/property/schema.js';
import { SCORE_DEFS, SURFACES_SCHEMA } from '../engine/scores/score-schema.js';
import { SCORES_SCHEMA } from '../engine/scores/scores-schema.js';

/** One generated file: its path and the schemas it types, each under its type's name. */
export interface GeneratedTypes {
  file: string;
  what: string;
  schemas: [name: string, schema: object][];
  /** Another generated file whose declarations this one imports instead of repeating (those equal to the letter). */
  reuses?: GeneratedTypes;
}

const at = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

/** The score and surface types, which the property payloads' file imports rather than repeats. */
const SCORE_TYPES: GeneratedTypes = {
  file: at('engine/scores/score-types.generated.ts'),
  what: 'Every score and surface (engine/scores/score-schema.ts)',
  schemas: [['Scores', { ...SCORES_SCHEMA, $defs: SCORE_DEFS }], ['Surfaces', { ...SURFACES_SCHEMA, $defs: SCORE_DEFS }]],
};

/** Every generated file. */
export const GENERATED_TYPES: GeneratedTypes[] = [
  { file: at('engine/property/payload-types.ts'), what: 'The property payloads (engine/property/schema.ts)', schemas: [['PropertyPayload', PROPERTY_PAYLOAD_SCHEMA], ['CorePayload', CORE_PAYLOAD_SCHEMA]], reuses: SCORE_TYPES },
  {
    file: at('engine/da/response-types.ts'),
    what: "The DA listing's responses (engine/da/listing-schema.ts)",
    schemas: [['DaListResponse', DA_LIST_SCHEMA], ['DaNearbyResponse', DA_NEARBY_SCHEMA], ['DaDetailResponse', DA_DETAIL_SCHEMA], ['DaCategoriesResponse', DA_CATEGORIES_SCHEMA], ['DaCouncilsResponse', DA_COUNCILS_SCHEMA], ['DaStatsResponse', DA_STATS_SCHEMA]],
  },
  {
    file: at('engine/childcare/response-types.ts'),
    what: 'The childcare responses (engine/childcare/childcare-schemas.ts)',
    schemas: [['ChildcareFeedResponse', CHILDCARE_FEED_SCHEMA], ['ChildcareAnalysisResponse', CHILDCARE_ANALYSIS_SCHEMA], ['ChildcareSiteResponse', CHILDCARE_SITE_SCHEMA]],
  },
  SCORE_TYPES,
];

/** The property payloads' file. */
export const PAYLOAD_TYPES_FILE = GENERATED_TYPES[0].file;

const header = (what: string) => `/* eslint-disable */
/**
 * ${what}: their TypeScript types, generated from those JSON Schemas by scripts/gen-payload-types.ts
 * with json-schema-to-typescript. Do not edit: change the schema and rerun \`npx tsx scripts/gen-payload-types.ts\`
 * (test/engine/property/payload-types.test.ts fails until you do). Objects the schema leaves open (a
 * publisher's native \`properties\`) are open (\`[k: string]: unknown\`); every object it closes is closed here,
 * so reading a field a response does not have fails to compile.
 */
`;

/** The generated text of `g`. */
export async function generatedSource(g: GeneratedTypes): Promise<string> {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const [name, schema] of g.schemas) {
    // The schema's title names the endpoint; the type is named for what it is.
    const s = { ...structuredClone(schema), title: name } as JSONSchema;
    let text = await compile(s, name, { bannerComment: '', additionalProperties: true, format: true, declareExternallyReferenced: true, unreachableDefinitions: false, strictIndexSignatures: false });
    // Shared definitions ($defs of the same name) are declared once, from the first schema that has them.
    text = text.replace(/^export interface (\w+) \{[\s\S]*?^\}\n/gm, (decl, n: string) => (n !== name && seen.has(n) ? '' : (seen.add(n), decl)));
    text = text.replace(/^export type (\w+) =[\s\S]*?;\n/gm, (decl, n: string) => (n !== name && seen.has(n) ? '' : (seen.add(n), decl)));
    parts.push(text);
  }
  // Type aliases, not interfaces: an object type alias is assignable to Record<string, unknown>, so a typed
  // response still goes wherever the engine's untyped one does (the server's caches, serialisation).
  let text = parts.join('\n').replace(/^export interface (\w+) \{$/gm, 'export type $1 = {').replace(/^\}$/gm, '};');
  if (g.reuses) {
    // Declarations the other file makes to the letter are imported from it, not written again.
    const theirs = new Set(declarations(await generatedSource(g.reuses)).map(([, decl]) => decl));
    const reused: string[] = [];
    for (const [name, decl] of declarations(text)) {
      if (!theirs.has(decl)) continue;
      text = text.replace(decl, '');
      reused.push(name);
    }
    const from = `./${relative(dirname(g.file), g.reuses.file).replace(/\.ts$/, '.js')}`.replace(/^\.\/\.\./, '..');
    if (reused.length) text = `import type { ${reused.join(', ')} } from '${from}';\n\n${text}`;
  }
  return `${header(g.what)}\n${text}`.replace(/\n{3,}/g, '\n\n');
}

/**
 * The top-level declarations of generated text, each with its doc comment: [name, text]. A declaration starts
 * at an unindented `/**` or `export` line (the `export` of a doc comment's own declaration staying with it).
 */
function declarations(text: string): [string, string][] {
  const chunks: string[][] = [];
  let cur: string[] = [];
  for (const line of text.split('\n')) {
    const docOpen = cur.length > 0 && cur[0].startsWith('/**') && !cur.some((l) => l.startsWith('export '));
    if (line.startsWith('/**') || (line.startsWith('export ') && !docOpen)) {
      if (cur.length) chunks.push(cur);
      cur = [];
    }
    cur.push(line);
  }
  if (cur.length) chunks.push(cur);
  return chunks.flatMap((c) => {
    const m = /^export type (\w+) =/m.exec(c.join('\n'));
    return m ? [[m[1], `${c.join('\n')}\n`] as [string, string]] : [];
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const g of GENERATED_TYPES) {
    writeFileSync(g.file, await generatedSource(g));
    process.stdout.write(`wrote ${g.file}\n`);
  }
}
