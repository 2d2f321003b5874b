/**
 * Writes engine/property/payload-types.ts: the TypeScript types of the full and core property payloads,
 * generated from their JSON Schemas (engine/property/schema.ts, which the tests validate every payload against
 * and the OpenAPI document embeds) by json-schema-to-typescript. One contract, three outputs: the schema, the
 * OpenAPI document and the exported types. test/engine/property/payload-types.test.ts fails when the file
 * drifts from the schema; rerun this then:
 *
 *   npx tsx scripts/gen-payload-types.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { CORE_PAYLOAD_SCHEMA, PROPERTY_PAYLOAD_SCHEMA } from '../engine/property/schema.js';

export const PAYLOAD_TYPES_FILE = fileURLToPath(new URL('../engine/property/payload-types.ts', import.meta.url));

const HEADER = `/* eslint-disable */
/**
 * The property payloads' TypeScript types, generated from their JSON Schemas (engine/property/schema.ts) by
 * scripts/gen-payload-types.ts with json-schema-to-typescript. Do not edit: change the schema and rerun
 * \`npx tsx scripts/gen-payload-types.ts\` (test/engine/property/payload-types.test.ts fails until you do).
 * Publisher-native \`properties\` objects are open (\`[k: string]: unknown\`); every block the schema closes is
 * closed here, so reading a field the payload does not have fails to compile.
 */
`;

/** The generated file's text. */
export async function payloadTypesSource(): Promise<string> {
  const one = async (schema: Record<string, unknown>, name: string) => {
    // The schema's title names the endpoint; the type is named for what it is.
    const s = { ...structuredClone(schema), title: name } as JSONSchema;
    return compile(s, name, { bannerComment: '', additionalProperties: true, format: true, declareExternallyReferenced: true, unreachableDefinitions: false, strictIndexSignatures: false });
  };
  const full = await one(PROPERTY_PAYLOAD_SCHEMA, 'PropertyPayload');
  // The core payload's $defs are the full one's: declared once, from the full payload's output.
  const core = (await one(CORE_PAYLOAD_SCHEMA, 'CorePayload')).replace(/^export interface (LayerItem|PlanningItem|DaItem) \{[\s\S]*?^\}\n/gm, '');
  // Type aliases, not interfaces: an object type alias is assignable to Record<string, unknown>, so a typed
  // payload still goes wherever the engine's untyped one does (the server's response cache, serialisation).
  const text = `${full}\n${core}`.replace(/^export interface (\w+) \{$/gm, 'export type $1 = {').replace(/^\}$/gm, '};');
  return `${HEADER}\n${text}`.replace(/\n{3,}/g, '\n\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(PAYLOAD_TYPES_FILE, await payloadTypesSource());
  process.stdout.write(`wrote ${PAYLOAD_TYPES_FILE}\n`);
}
