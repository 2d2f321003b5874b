// A route is a value: a route of a new product module, added to the list the router and the OpenAPI builder
// walk, is answered (with its key check, HEAD, 405 and the CORS preflight) and described (operation,
// security, 405, preflight, 414), and what it answers validates against the document the server serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TYPE } from '../../server/api/api-types.js';
import { ROUTES } from '../../server/api/routes.js';
import { get, withHead, type RouteValue } from '../../server/api/route-value.js';
import { keyIdOf } from '../../server/keys/api-key.js';
import { openApiDocument } from '../../server/openapi/openapi.js';
import { notAllowed } from '../../server/api/operation-docs.js';
import { ajv2020 } from '../helpers/ajv.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Obj = Record<string, any>;

const ECHO = { type: 'object', required: ['id', 'key'], additionalProperties: false, properties: { id: { type: 'string' }, key: { type: 'string' } } };

/** The whole of a small product module: one keyed route that answers its path id and the caller's key id. */
const echo: RouteValue = {
  path: '/api/v1/echo/{id}',
  tag: 'Service',
  summary: 'Echo a path id',
  description: 'Answers the id in the path, decoded, and the id of the key that asked.',
  operations: [
    get(
      'key',
      (route, base) => ({
        ...base,
        parameters: [{ name: 'id', in: 'path', required: true, description: 'Anything.', schema: { type: 'string' } }],
        security: [{ bearer: [] }],
        responses: { 200: { description: 'OK', content: { 'application/json': { schema: ECHO } } }, 405: notAllowed(route) },
      }),
      (c) => ({ status: 200, contentType: JSON_TYPE, headers: { 'Cache-Control': 'no-store' }, body: JSON.stringify({ id: c.id, key: c.key.id }) }),
    ),
  ],
};

let srv: TestServer;
let key: string;
let doc: Obj;

beforeAll(async () => {
  srv = await startTestServer({ routes: [...ROUTES, echo], threads: 1 });
  key = await srv.key();
  doc = (await srv.get('/api/v1/openapi.json')).body as Obj;
}, 120_000);

afterAll(async () => {
  await srv?.close();
});

describe('a route added as a value', () => {
  it('is answered: its key checked, its id decoded, HEAD, 405 with Allow, and the preflight', async () => {
    const res = await srv.get('/api/v1/echo/a%20b', key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'a b', key: keyIdOf(key) });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const validate = ajv2020().compile(doc.paths['/api/v1/echo/{id}'].get.responses[200].content['application/json'].schema);
    expect(validate(res.body)).toBe(true);
    const anonymous = await srv.get('/api/v1/echo/x');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('missing_key');
    const head = await fetch(`${srv.url}/api/v1/echo/x`, { method: 'HEAD', headers: { authorization: `Bearer ${key}` } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${srv.url}/api/v1/echo/x`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const pre = await fetch(`${srv.url}/api/v1/echo/x`, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
  });

  it('is described in the document this server serves, with what every path shares, and only there', async () => {
    const path = doc.paths['/api/v1/echo/{id}'] as Obj;
    expect(Object.keys(path)).toEqual(['get', 'options']);
    expect(path.get).toMatchObject({ tags: ['Service'], summary: 'Echo a path id', operationId: 'echo_id', security: [{ bearer: [] }] });
    expect(path.get.responses[405].headers.Allow.schema.const).toBe(withHead(echo).concat('OPTIONS').join(', '));
    // Shared by every keyed operation and every path: the store's 503, the 414, the preflight.
    expect(path.get.responses[503].content['application/json'].schema.allOf[1].properties.error.enum).toEqual(['service_unavailable']);
    expect(path.get.responses[414].content['application/json'].schema.allOf[1].properties.error.enum).toEqual(['uri_too_long']);
    expect(path.options.operationId).toBe('echo_id_options');
    const docs = await srv.get('/api/v1/docs');
    expect(docs.body).toContain('<code>/api/v1/echo/{id}</code>');
    // The routes' own list holds no such path: the default document does not describe it.
    expect((openApiDocument().paths as Obj)['/api/v1/echo/{id}']).toBeUndefined();
    expect(Object.keys(doc.paths)).toEqual([...ROUTES.map((r) => r.path), echo.path]);
  });
});
