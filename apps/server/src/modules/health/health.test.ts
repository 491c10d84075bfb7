import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestServer, type TestServer } from '../../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('platform endpoints', () => {
  it('GET /api/health answers ok once the database is reachable', async () => {
    const r = await new ApiClient(server.url).get('/api/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', ready: true });
  });

  it('until ready (first-start seed), the API answers 503 starting; health and readiness say so', async () => {
    const client = new ApiClient(server.url);
    server.ctx.readiness = { ready: false, reason: 'creating the demo account' };
    try {
      const ready = await client.get('/api/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ ready: false, message: 'creating the demo account' });
      expect(ready.headers.get('retry-after')).toBe('2');
      expect((await client.get('/api/health')).body).toEqual({ status: 'ok', ready: false });
      const api = await client.get('/api/user');
      expect(api.status).toBe(503);
      expect(api.body.message).toBe('Switchboard is starting. Please try again in a moment.');
    } finally {
      server.ctx.readiness = { ready: true, reason: null };
    }
    expect((await client.get('/api/ready')).body).toEqual({ ready: true });
  });

  it('GET /metrics exposes request durations in Prometheus format', async () => {
    const client = new ApiClient(server.url);
    await client.get('/api/health');
    const r = await client.get('/metrics');
    expect(r.status).toBe(200);
    expect(String(r.body)).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} [1-9]/);
  });

  it('answers unknown API routes with a JSON 404 in the error shape and serves the API description', async () => {
    const client = new ApiClient(server.url);
    const missing = await client.get('/api/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('not found');
    const docs = await client.get('/api/docs/json');
    expect(docs.status).toBe(200);
    expect(Object.keys(docs.body.paths)).toContain('/api/sanctum/login');
  });

  it('answers malformed JSON with 422, not 500', async () => {
    const client = new ApiClient(server.url);
    await client.get('/api/csrf-cookie');
    const r = await client.request('POST', '/api/sanctum/login', undefined, {
      'content-type': 'application/json',
      'x-xsrf-token': decodeURIComponent(client.cookie('XSRF-TOKEN') ?? ''),
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBeTruthy();
  });
});
