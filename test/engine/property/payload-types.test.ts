// One contract (issue 38): the payload's TypeScript types are generated from the same JSON Schema the payloads
// are validated against and the OpenAPI document embeds. The committed file must be what the generator makes
// of the schema now, so the types cannot drift from it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAYLOAD_TYPES_FILE, payloadTypesSource } from '../../../scripts/gen-payload-types.js';
import { PROPERTY_PAYLOAD_SCHEMA } from '../../../engine/property/schema.js';

describe('the payload types', () => {
  it('are what the schema generates now (rerun `npx tsx scripts/gen-payload-types.ts` when this fails)', async () => {
    expect(readFileSync(PAYLOAD_TYPES_FILE, 'utf8')).toBe(await payloadTypesSource());
  }, 30_000);

  it('name every top-level block of the schema, required where the schema requires it', () => {
    const text = readFileSync(PAYLOAD_TYPES_FILE, 'utf8');
    const full = text.slice(text.indexOf('export type PropertyPayload = {'), text.indexOf('\n};', text.indexOf('export type PropertyPayload = {')));
    const props = PROPERTY_PAYLOAD_SCHEMA.properties as Record<string, unknown>;
    const required = new Set(PROPERTY_PAYLOAD_SCHEMA.required as string[]);
    for (const block of Object.keys(props)) expect(full, block).toMatch(new RegExp(`\\n  ${block}${required.has(block) ? '' : '\\?'}: `));
  });
});
