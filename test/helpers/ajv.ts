/**
 * Ajv's JSON Schema 2020-12 build (what OpenAPI 3.1 schemas are), with ajv-formats' `date`, `date-time`, `uri`
 * and the rest checked. The packages are CommonJS: their default export is unwrapped here once.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module.default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule.default;

/** An Ajv 2020 validator: every error reported, unknown keywords (OpenAPI's own) ignored, formats checked. */
export function ajv2020(): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  // OpenAPI's `format: binary` (a file body) names a media type, not a string rule.
  ajv.addFormat('binary', true);
  return ajv;
}
