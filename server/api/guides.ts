/** The guides the server serves beside its reference (server/openapi/guide-pages.ts renders them). */

/** The guides, in reading order (README.md's table lists the same, and a test checks it). */
export const GUIDES = ['cli', 'data', 'api', 'operators', 'da-listing', 'childcare', 'tiles', 'noise-cnossos', 'noise-cnossos-conformance', 'library', 'benchmarks', 'development', 'architecture'] as const;
export type GuideName = (typeof GUIDES)[number];

/** The path a guide is served at. */
export const guidePath = (name: GuideName): string => `/api/v1/docs/${name}`;
