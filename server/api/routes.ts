/**
 * Every endpoint the server answers, in one table: the router dispatches on it and the OpenAPI document
 * (server/openapi/) is generated from it, so the two cannot drift apart.
 */
import { SAMPLE_NAMES, type SampleName } from '../../engine/property/samples.js';

/** What an endpoint does. */
export type RouteKind =
  | { kind: 'property'; variant: 'full' | 'core' }
  | { kind: 'sample'; name: SampleName }
  | { kind: 'sandbox' }
  | { kind: 'health' }
  | { kind: 'openapi' }
  | { kind: 'docs' };

/** One endpoint. */
export interface Route {
  path: string;
  /** True when the endpoint needs `Authorization: Bearer <key>`. */
  keyed: boolean;
  summary: string;
  description: string;
  /** OpenAPI tag. */
  tag: 'Property' | 'Samples' | 'Service';
  handler: RouteKind;
}

const SAMPLE_TEXT: Record<SampleName, string> = {
  sample: 'A complete canned response of the full endpoint (real engine output on a sample-world address).',
  core: 'A canned response of /core.',
  walkability: 'A canned `scores.walkability`.',
  flood: 'A canned `scores.flood` with an official modelled depth.',
  bushfire: 'The canned bushfire screening contract (it predates the indicative BAL field).',
  context: 'Only `heat_island`, `view_quality` and `solar`.',
  contamination: 'A canned contamination sample.',
};

/** The endpoints, in the order of spec section 4 and then the service's own. */
export const ROUTES: readonly Route[] = [
  {
    path: '/api/v1/property',
    keyed: true,
    tag: 'Property',
    summary: 'Full payload for one address or point',
    description:
      'One Australian address (free text) or point (lat and lng, never both kinds) in, one JSON payload out: DAs, planning, hazards, environment, locality facts, nine scores and, with include_surfaces=1 on geometry-licensed keys, the noise, heat and contour surfaces. Billed per unique address per key per billing period; repeats are free.',
    handler: { kind: 'property', variant: 'full' },
  },
  {
    path: '/api/v1/property/core',
    keyed: true,
    tag: 'Property',
    summary: 'Score-free closed Core contract',
    description:
      'Identity, DAs, POI, planning, hazards, environment, transport, utilities, administrative and public housing. Never returns scores, surfaces or future top-level blocks. The key must cover the complete Core component set. Same resolver, rights filters, coverage states, source inventory, meter and cache as the full endpoint.',
    handler: { kind: 'property', variant: 'core' },
  },
  ...SAMPLE_NAMES.map(
    (name): Route => ({
      path: name === 'sample' ? '/api/v1/property/sample' : `/api/v1/property/sample/${name}`,
      keyed: false,
      tag: 'Samples',
      summary: name === 'sample' ? 'Complete canned response' : `Canned ${name} sample`,
      description: `${SAMPLE_TEXT[name]} No key needed; takes no parameters.`,
      handler: { kind: 'sample', name },
    }),
  ),
  {
    path: '/api/v1/property/sandbox',
    keyed: false,
    tag: 'Samples',
    summary: 'The twelve never-metered sandbox addresses',
    description: 'Addresses across eight states and territories that any key may look up without being metered. No key needed.',
    handler: { kind: 'sandbox' },
  },
  {
    path: '/healthz',
    keyed: false,
    tag: 'Service',
    summary: 'Liveness',
    description: 'Answers 200 with the version while the server accepts requests.',
    handler: { kind: 'health' },
  },
  {
    path: '/api/v1/openapi.json',
    keyed: false,
    tag: 'Service',
    summary: 'This API as OpenAPI 3.1',
    description: 'The machine-readable description of every endpoint, with the payload JSON Schemas.',
    handler: { kind: 'openapi' },
  },
  {
    path: '/api/v1/docs',
    keyed: false,
    tag: 'Service',
    summary: 'Human-readable reference',
    description: 'An HTML reference page generated from the OpenAPI document; served offline, no external assets.',
    handler: { kind: 'docs' },
  },
];
