/**
 * `propintel/property`: the property lookup's contract beside `Engine.property`. Blocks and component
 * selectors, licence checks, option and subject validation with their limits, cache lifetimes, the canned
 * samples, and the JSON Schemas of the payload and its usage block.
 */

export { BLOCK_SELECTORS } from '../property/kit/components.js';
export { PROPERTY_BLOCKS, SURFACE_LAYERS, checkLicence } from '../property/kit/contract.js';
export type { LicenceRefusal, PropertyBlock, PropertyLicence, PropertyOptions, PropertyService, PropertySubject, SurfaceLayer } from '../property/kit/contract.js';
export { LIMITS, resolveOptions, validateSubject } from '../property/kit/options.js';
export { LAYER_TTL_MS, SCORE_TTL_MS } from '../property/property-lookup.js';
export { payloadExpiry, propertyBodyOf, serialisePayload } from '../property/payload-body.js';
export type { PayloadBody, PropertyBody } from '../property/payload-body.js';
export { SAMPLE_NAMES, samplesDir } from '../property/samples.js';
export type { SampleName } from '../property/samples.js';
export { CORE_PAYLOAD_SCHEMA, PROPERTY_PAYLOAD_SCHEMA, USAGE_SCHEMA } from '../property/schema.js';
