// One contract (issue 38): the TypeScript types of the payloads and of the DA and childcare responses are
// generated from the same JSON Schemas the responses are validated against and the OpenAPI documents embed.
// Each committed file must be what the generator makes of its schemas now, so the types cannot drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES, generatedSource, PAYLOAD_TYPES_FILE } from '../../../scripts/gen-payload-types.js';
import { PROPERTY_PAYLOAD_SCHEMA } from '../../../engine/property/schema.js';

describe('the payload types', () => {
  for (const g of GENERATED_TYPES) {
    it(`${g.file.replace(/.*\/engine\//, 'engine/')} is what its schemas generate now (rerun \`npx tsx scripts/gen-payload-types.ts\` when this fails)`, async () => {
      expect(readFileSync(g.file, 'utf8')).toBe(await generatedSource(g));
      for (const [name] of g.schemas) expect(readFileSync(g.file, 'utf8')).toContain(`export type ${name} = {`);
    }, 30_000);
  }

  it('name every top-level block of the schema, required where the schema requires it', () => {
    const text = readFileSync(PAYLOAD_TYPES_FILE, 'utf8');
    const full = text.slice(text.indexOf('export type PropertyPayload = {'), text.indexOf('\n};', text.indexOf('export type PropertyPayload = {')));
    const props = PROPERTY_PAYLOAD_SCHEMA.properties as Record<string, unknown>;
    const required = new Set(PROPERTY_PAYLOAD_SCHEMA.required as string[]);
    for (const block of Object.keys(props)) expect(full, block).toMatch(new RegExp(`\\n  ${block}${required.has(block) ? '' : '\\?'}: `));
  });
});
