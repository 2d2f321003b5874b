/**
 * `propintel/childcare`: childcare market intelligence. The state analysis and the feed, the site
 * analysis of a radius or polygon catchment, CSV and GeoJSON exports, report file names and types, the
 * reconciliation helper script, and the JSON Schemas of each response.
 */

export { DATA_BOUNDARIES, GENERIC_NOTICES, PRODUCT, PRODUCT_VERSION, childcareAnalysis, childcareFeedItem } from '../childcare/analysis.js';
export type { NoticeLookup, OpenSchool, SourceNotice } from '../childcare/analysis.js';
export { CHILDCARE_ANALYSIS_SCHEMA, CHILDCARE_FEED_SCHEMA, CHILDCARE_GEOJSON_SCHEMA, CHILDCARE_SCHEMA_SCHEMA, CHILDCARE_SITE_SCHEMA } from '../childcare/childcare-schemas.js';
export { childcareCsvChunks, childcareGeoJsonChunks } from '../childcare/export.js';
export { WORKSHEET_BLANK, WORKSHEET_KEPT, reconciliationHelperScript } from '../childcare/reconciliation-helper.js';
export { reportFilename } from '../childcare/report/report-content.js';
export { reportContentType } from '../childcare/report/report.js';
export type { ReportFile, ReportFormat } from '../childcare/report/report.js';
export { POLYGON_LIMITS, SITE_RADIUS_KM, SiteInputError, catchmentPolygon, circleCatchment, siteAnalysis } from '../childcare/site.js';
export type { ChildcareWorld, SiteRequest } from '../childcare/site.js';
export type { ChildcareAnalysisResponse, ChildcareFeedResponse, ChildcareSiteResponse } from '../childcare/response-types.js';
