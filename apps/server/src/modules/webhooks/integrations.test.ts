/**
 * API keys, rate limits, outbound webhooks and the audit log through the real server (docs/api-and-webhooks.md,
 * docs/audit.md): a key shown once and stored hashed, its scopes and the user's role both applied, rate-limit headers
 * and 429; webhook deliveries verified with the Standard Webhooks reference verifier, retried after failures,
 * replayed, the endpoint disabled after failing with a mail to the owner, private targets refused; audit entries
 * with secrets redacted, append-only; tenant isolation and 422s.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { ApiClient, eventually, startReceiver, startTestServer, type ReceivedRequest, type TestServer } from '../../../test/harness.js';
import { apiRateLimits } from '../../app.js';
import { ABILITIES } from '@switchboard/domain';
import { ABILITY_AREAS, requiredScopeFor } from '../../platform/auth/api-key-scopes.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { events } from '../../platform/events/index.js';
import { redact, REDACTED } from '../audit/audit.service.js';
import { webhookTuning } from './webhooks.delivery.js';

let s: TestServer;
let a: Account;
let other: Account;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let receiverUrl: string;
let received: ReceivedRequest[];
/** Status codes the receiver answers in turn (then 200). */
let plan: number[] = [];
const savedTuning = { ...webhookTuning };

beforeAll(async () => {
  webhookTuning.retryDelaysMs = [150, 150, 150];
  webhookTuning.addressPolicy = { allowHosts: ['127.0.0.1'] };
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Ada' });
  other = await createAccount(s, { firstName: 'Otto' });
  receiver = await startReceiver(() => plan.shift() ?? 200);
  receiverUrl = `${receiver.base}/hook`;
  received = receiver.received;
}, 60_000);

afterAll(async () => {
  Object.assign(webhookTuning, savedTuning);
  receiver?.close();
  await s?.close();
});

function keyClient(token: string): ApiClient {
  const c = new ApiClient(s.url);
  c.bearer = token;
  return c;
}

describe('API keys', () => {
  it('shows the key once, stores only its hash, lists it with last use, and deletes it (spec messages)', async () => {
    const created = await a.client.post('/api/personalAccessTokens', { name: 'CRM sync', scopes: ['calls:read'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.message).toBe('API key created successfully');
    const token: string = created.body.data.token;
    expect(token).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.data).toMatchObject({
      name: 'CRM sync',
      scopes: ['calls:read'],
      business_unit_id: null,
      prefix: token.slice(0, 10),
      last_used_at: null,
    });

    const stored = await s.ctx.db.selectFrom('api_tokens').select(['token_hash', 'kind']).where('id', '=', created.body.data.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ token_hash: hashToken(token), kind: 'personal' });

    expect((await keyClient(token).get(`/api/blocks/${a.companyId}`)).status).toBe(200);
    const list = await a.client.get('/api/personalAccessTokens');
    expect(list.status).toBe(200);
    const mine = list.body.data.find((k: { id: number }) => k.id === created.body.data.id);
    expect(mine.token).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect(mine.last_used_at).not.toBeNull();
    expect(mine.last_used_ip).toBe('127.0.0.1');

    // Another user cannot delete it; its owner can, and the key stops working.
    expect((await other.client.delete(`/api/personalAccessTokens/${created.body.data.id}`)).status).toBe(404);
    const deleted = await a.client.delete(`/api/personalAccessTokens/${created.body.data.id}`);
    expect(deleted.body).toEqual({ message: 'API key deleted successfully' });
    expect((await keyClient(token).get(`/api/blocks/${a.companyId}`)).status).toBe(401);
  });

  it("applies the key's scopes and the user's role; a key cannot manage keys", async () => {
    const created = await a.client.post('/api/personalAccessTokens', { name: 'Reader', scopes: ['calls:read', 'webhooks:read'] });
    const key = keyClient(created.body.data.token);
    expect((await key.get(`/api/blocks/${a.companyId}`)).status).toBe(200);
    const write = await key.post('/api/blocks', { company_id: a.companyId, target: '7735550155', global: true, action: 'reject' });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ message: 'This API key does not have the calls:write scope.' });
    expect((await key.get(`/api/blocks/${other.companyId}`)).status).toBe(403); // not the user's company
    expect((await key.get('/api/personalAccessTokens')).status).toBe(403);
    expect((await key.post('/api/personalAccessTokens', { name: 'escalate', scopes: ['account:write'] })).status).toBe(403);

    // The user's role still applies: as a reporting member, a key with calls:write cannot write.
    const writer = await a.client.post('/api/personalAccessTokens', { name: 'Writer', scopes: ['calls:write', 'calls:read'] });
    const wkey = keyClient(writer.body.data.token);
    expect((await wkey.post('/api/blocks', { company_id: a.companyId, target: '7735550156', global: true, action: 'reject' })).status).toBe(201);
    await s.ctx.db.updateTable('company_users').set({ role: 'reporting' }).where('company_id', '=', a.companyId).where('user_id', '=', a.userId).execute();
    try {
      expect((await wkey.post('/api/blocks', { company_id: a.companyId, target: '7735550157', global: true, action: 'reject' })).status).toBe(403);
    } finally {
      await s.ctx.db.updateTable('company_users').set({ role: 'owner' }).where('company_id', '=', a.companyId).where('user_id', '=', a.userId).execute();
    }
  });

  it('maps every ability of the matrix onto a scope: read abilities to :read, the rest to :write', () => {
    expect(ABILITIES.filter((x) => !ABILITY_AREAS[x])).toEqual([]);
    expect(requiredScopeFor('GET', '/api/x', { kind: 'company', ability: 'contacts.read' })).toBe('contacts:read');
    expect(requiredScopeFor('POST', '/api/x', { kind: 'company', ability: 'contacts.bulk' })).toBe('contacts:write');
    expect(requiredScopeFor('GET', '/api/audit-log', { kind: 'company', ability: 'audit.read' })).toBe('webhooks:read');
    expect(requiredScopeFor('GET', '/api/admin', { kind: 'operator' })).toBeNull();
    expect(requiredScopeFor('POST', '/api/personalAccessTokens', { kind: 'signedIn' })).toBeNull();
    expect(requiredScopeFor('GET', '/api/user', { kind: 'signedIn' })).toBe('account:read');
  });

  it('answers 422 for bad input and a business unit the user does not reach', async () => {
    const empty = await a.client.post('/api/personalAccessTokens', { name: '', scopes: [] });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['name', 'scopes']);
    expect((await a.client.post('/api/personalAccessTokens', { name: 'x', scopes: ['calls:admin'] })).status).toBe(422);
    const unit = await a.client.post('/api/personalAccessTokens', { name: 'x', scopes: ['calls:read'], business_unit_id: 999999 });
    expect(unit.status).toBe(422);
    expect(unit.body.errors.business_unit_id).toEqual(['The selected business unit id is invalid.']);
    expect((await a.client.delete('/api/personalAccessTokens/abc')).status).toBe(422);
  });
});

describe('rate limits', () => {
  it('sends RateLimit headers and answers 429 with Retry-After past the limit', async () => {
    const created = await a.client.post('/api/personalAccessTokens', { name: 'Busy', scopes: ['calls:read'] });
    const key = keyClient(created.body.data.token);
    const saved = apiRateLimits.apiKeyPerMinute;
    apiRateLimits.apiKeyPerMinute = 3;
    try {
      const first = await key.get(`/api/blocks/${a.companyId}`);
      expect(first.headers.get('ratelimit-limit')).toBe('3');
      expect(first.headers.get('ratelimit-remaining')).toBe('2');
      expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      await key.get(`/api/blocks/${a.companyId}`);
      await key.get(`/api/blocks/${a.companyId}`);
      const limited = await key.get(`/api/blocks/${a.companyId}`);
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/^Too many requests\. Please retry in/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // The session user has a counter of its own.
      expect((await a.client.get(`/api/blocks/${a.companyId}`)).status).toBe(200);
    } finally {
      apiRateLimits.apiKeyPerMinute = saved;
    }
  });

  it('documents bearer API keys in the OpenAPI document', async () => {
    const doc = await new ApiClient(s.url).get('/api/docs/json');
    expect(doc.status).toBe(200);
    expect(doc.body.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.body.paths['/api/personalAccessTokens']).toBeDefined();
    expect(doc.body.paths['/api/webhook-endpoints']).toBeDefined();
  });
});

async function createEndpoint(url = receiverUrl, eventTypes = ['message.received']) {
  const r = await a.client.post('/api/webhook-endpoints', { company_id: a.companyId, url, events: eventTypes, description: 'CRM' });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const secret = (await a.client.get(`/api/webhook-endpoints/${r.body.data.id}/secret`)).body.data.secret as string;
  return { id: r.body.data.id as number, secret };
}

function inboundMessage(sid: string) {
  return {
    companyId: a.companyId,
    numberId: 1,
    conversationId: null,
    itemId: null,
    from: '+17735550100',
    body: 'Hello there',
    carrierSid: sid,
    receivedAt: new Date(),
    keyword: null,
    campaignId: null,
  };
}

describe('outbound webhooks', () => {
  it('refuses private and loopback targets and bad input (422), and hides other companies (403/404)', async () => {
    for (const url of ['http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://localhost:9/hook', 'ftp://example.com/x']) {
      const r = await a.client.post('/api/webhook-endpoints', { company_id: a.companyId, url, events: ['call.completed'] });
      expect(r.status, url).toBe(422);
      expect(r.body.errors.url, url).toBeDefined();
    }
    expect((await a.client.post('/api/webhook-endpoints', { company_id: a.companyId, url: receiverUrl, events: ['call.exploded'] })).status).toBe(422);
    expect((await a.client.post('/api/webhook-endpoints', { company_id: a.companyId, url: receiverUrl, events: [] })).status).toBe(422);
    const mine = await createEndpoint(receiverUrl, ['call.completed']);
    expect((await other.client.get(`/api/webhook-endpoints/${mine.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/webhook-endpoints/${mine.id}/secret`)).status).toBe(404);
    expect((await other.client.delete(`/api/webhook-endpoints/${mine.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/webhook-endpoints?company_id=${a.companyId}`)).status).toBe(403);
    expect((await other.client.post('/api/webhook-endpoints', { company_id: a.companyId, url: receiverUrl, events: ['call.completed'] })).status).toBe(403);
    expect((await a.client.delete(`/api/webhook-endpoints/${mine.id}`)).status).toBe(200);
  });

  it('signs deliveries (Standard Webhooks reference verifier), retries a failing endpoint, logs attempts, and replays', async () => {
    const ep = await createEndpoint();
    received.length = 0;
    plan = [500, 503];
    await events.publish(s.ctx, 'message.received', inboundMessage('SM-webhook-1'));
    await events.publish(s.ctx, 'message.received', inboundMessage('SM-webhook-1')); // repeated: no second delivery

    const deliveries = await eventually(async () => {
      const r = await a.client.get(`/api/webhook-endpoints/${ep.id}/deliveries`);
      return r.body.data.length === 1 && r.body.data[0].status === 'succeeded' ? r.body.data : undefined;
    }, 15_000);
    expect(received).toHaveLength(3);
    expect(deliveries[0]).toMatchObject({ event_type: 'message.received', attempts: 3, last_status_code: 200 });

    // Every attempt carries the same webhook-id and verifies with the endpoint's secret.
    const wh = new Webhook(ep.secret);
    for (const r of received) {
      const headers = {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      };
      expect(wh.verify(r.body, headers)).toMatchObject({
        type: 'message.received',
        data: { company_id: a.companyId, carrier_sid: 'SM-webhook-1', body: 'Hello there' },
      });
      expect(headers['webhook-id']).toBe(deliveries[0].message_id);
    }
    // A wrong secret does not verify.
    const last = received[2]!;
    expect(() =>
      new Webhook('whsec_' + Buffer.from('another secret of 24 b!!').toString('base64')).verify(last.body, {
        'webhook-id': String(last.headers['webhook-id']),
        'webhook-timestamp': String(last.headers['webhook-timestamp']),
        'webhook-signature': String(last.headers['webhook-signature']),
      }),
    ).toThrow();

    const detail = await a.client.get(`/api/webhook-endpoints/${ep.id}/deliveries/${deliveries[0].id}`);
    expect(detail.body.data.attempts_log.map((x: { status_code: number }) => x.status_code)).toEqual([500, 503, 200]);
    for (const x of detail.body.data.attempts_log) expect(x.duration_ms).toBeGreaterThanOrEqual(0);

    // Replay: a new delivery of the same message.
    const replay = await a.client.post(`/api/webhook-endpoints/${ep.id}/deliveries/${deliveries[0].id}/replay`);
    expect(replay.status).toBe(202);
    expect(replay.body.data).toMatchObject({ replay_of: deliveries[0].id, message_id: deliveries[0].message_id });
    await eventually(async () => received.length === 4);
    expect(received[3]!.body).toBe(received[0]!.body);
    expect(received[3]!.headers['webhook-id']).toBe(deliveries[0].message_id);
    // Another company's user cannot replay it.
    expect((await other.client.post(`/api/webhook-endpoints/${ep.id}/deliveries/${deliveries[0].id}/replay`)).status).toBe(404);
    await a.client.delete(`/api/webhook-endpoints/${ep.id}`);
  });

  it('gives up after the last retry and disables an endpoint failing for too long, mailing the owner', async () => {
    const ep = await createEndpoint(receiverUrl, ['message.received']);
    received.length = 0;
    plan = [500, 500, 500, 500, 500, 500];
    const savedDisable = webhookTuning.disableAfterMs;
    webhookTuning.disableAfterMs = 250;
    try {
      await events.publish(s.ctx, 'message.received', inboundMessage('SM-webhook-2'));
      const failed = await eventually(async () => {
        const r = await a.client.get(`/api/webhook-endpoints/${ep.id}/deliveries?status=failed`);
        return r.body.data.length === 1 ? r.body.data[0] : undefined;
      }, 15_000);
      expect(failed.last_status_code === 500 || failed.last_error !== null).toBe(true);
      const endpoint = (await a.client.get(`/api/webhook-endpoints/${ep.id}`)).body.data;
      expect(endpoint.enabled).toBe(false);
      expect(endpoint.disabled_reason).toMatch(/^Every delivery failed since/);
      const mail = await eventually(() =>
        s.ctx.db
          .selectFrom('mail_outbox')
          .select(['to_address', 'subject', 'text_body'])
          .where('to_address', '=', a.email)
          .where('subject', '=', 'A webhook endpoint was disabled')
          .executeTakeFirst(),
      );
      expect(mail.text_body).toContain(receiverUrl);
      // Disabled: new events make no delivery; enabling it again starts over.
      await events.publish(s.ctx, 'message.received', inboundMessage('SM-webhook-3'));
      expect((await a.client.get(`/api/webhook-endpoints/${ep.id}/deliveries`)).body.meta.total).toBe(1);
      plan = [];
      const enabled = await a.client.patch(`/api/webhook-endpoints/${ep.id}`, { enabled: true });
      expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
      const test = await a.client.post(`/api/webhook-endpoints/${ep.id}/test`);
      expect(test.status).toBe(202);
      await eventually(async () => (await a.client.get(`/api/webhook-endpoints/${ep.id}/deliveries/${test.body.data.id}`)).body.data.status === 'succeeded');
    } finally {
      webhookTuning.disableAfterMs = savedDisable;
    }
  });

  it('rotates the secret: later deliveries verify only with the new one', async () => {
    const ep = await createEndpoint(receiverUrl, ['message.received']);
    const rotated = await a.client.post(`/api/webhook-endpoints/${ep.id}/rotate-secret`);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(ep.secret);
    received.length = 0;
    plan = [];
    const test = await a.client.post(`/api/webhook-endpoints/${ep.id}/test`);
    await eventually(async () => received.length === 1);
    const r = received[0]!;
    const headers = {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    };
    expect(new Webhook(rotated.body.data.secret).verify(r.body, headers)).toMatchObject({ type: 'webhook.test' });
    expect(() => new Webhook(ep.secret).verify(r.body, headers)).toThrow();
    expect(test.body.data.event_type).toBe('webhook.test');
  });
});

describe('audit log', () => {
  it('redacts secrets at any depth', () => {
    expect(redact({ name: 'x', password: 'hunter2', nested: { api_key: 'k', card_number: '4242', ok: [1, { token: 't' }] } })).toEqual({
      name: 'x',
      password: REDACTED,
      nested: { api_key: REDACTED, card_number: REDACTED, ok: [1, { token: REDACTED }] },
    });
  });

  it('records changes with who, what and where; refusals too; owners and administrators read and export it', async () => {
    const created = await a.client.request(
      'POST',
      '/api/webhook-endpoints',
      { company_id: a.companyId, url: receiverUrl, events: ['call.completed'], description: 'Audit me' },
      { 'user-agent': 'audit-test/1' },
    );
    expect(created.status).toBe(201);
    // Entries are written once the answer is sent: wait for them.
    const entry = await eventually(async () => {
      const log = await a.client.get(`/api/audit-log?company_id=${a.companyId}&entity_type=webhook-endpoints&action=create`);
      expect(log.status).toBe(200);
      return log.body.data.find((e: { entity_id: string }) => e.entity_id === String(created.body.data.id));
    });
    expect(entry).toMatchObject({
      actor_kind: 'user',
      actor_user_id: a.userId,
      actor_name: 'Ada User',
      action: 'create',
      entity_type: 'webhook-endpoints',
      method: 'POST',
      path: '/api/webhook-endpoints',
      status_code: 201,
      outcome: 'success',
      ip: '127.0.0.1',
      user_agent: 'audit-test/1',
      company_id: a.companyId,
    });
    expect(entry.changes).toMatchObject({ url: receiverUrl, description: 'Audit me' });

    // Rotating a secret is recorded; the answer's secret never is.
    await a.client.post(`/api/webhook-endpoints/${created.body.data.id}/rotate-secret`);
    // (An earlier test rotated another endpoint's secret: wait for this one's entry, recorded after the answer.)
    const rotated = await eventually(async () => {
      const r = await a.client.get(`/api/audit-log?company_id=${a.companyId}&action=rotate-secret`);
      return r.body.data.some((e: any) => e.entity_id === String(created.body.data.id)) ? r : undefined;
    });
    expect(rotated.body.data.find((e: any) => e.entity_id === String(created.body.data.id))).toMatchObject({ entity_type: 'webhook-endpoints' });
    expect(JSON.stringify(rotated.body)).not.toContain('whsec_');

    // API-key actions name the key; refusals are recorded as such.
    const k = await a.client.post('/api/personalAccessTokens', { name: 'Audited', scopes: ['calls:read', 'calls:write'] });
    const key = keyClient(k.body.data.token);
    expect((await key.post('/api/blocks', { company_id: a.companyId, target: '7735550177', global: true, action: 'reject' })).status).toBe(201);
    expect((await key.delete(`/api/webhook-endpoints/${created.body.data.id}`)).status).toBe(403);
    const byKey = await eventually(async () => {
      const r = await a.client.get(`/api/audit-log?company_id=${a.companyId}&actor_kind=api_key&outcome=success`);
      const mine = r.body.data.filter((e: { api_key_id: number }) => e.api_key_id === k.body.data.id);
      return mine.length ? mine : undefined;
    });
    expect(byKey.map((e: { entity_type: string; outcome: string; api_key_id: number }) => [e.entity_type, e.outcome, e.api_key_id])).toEqual([
      ['blocks', 'success', k.body.data.id],
    ]);
    const refused = await eventually(async () => {
      const r = await s.ctx.db.selectFrom('audit_log').selectAll().where('api_key_id', '=', k.body.data.id).where('outcome', '=', 'refused').execute();
      return r.length ? r : undefined;
    });
    expect(refused[0]).toMatchObject({ status_code: 403, entity_type: 'webhook-endpoints', action: 'delete' });

    // Append-only: the database refuses UPDATE and DELETE.
    await expect(s.ctx.db.updateTable('audit_log').set({ action: 'forged' }).where('id', '=', entry.id).execute()).rejects.toThrow(/append-only/);
    await expect(s.ctx.db.deleteFrom('audit_log').where('id', '=', entry.id).execute()).rejects.toThrow(/append-only/);

    // Export as CSV; other companies' people and non-managers are refused; bad filters are 422.
    const csv = await a.client.get(`/api/audit-log/export?company_id=${a.companyId}&entity_type=webhook-endpoints`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(String(csv.body).split('\r\n')[0]).toBe(
      'time_utc,actor,actor_kind,actor_user_id,api_key_id,operator_user_id,action,entity_type,entity_id,outcome,status_code,method,path,changes,ip,user_agent',
    );
    expect(String(csv.body)).toContain('Audit me');
    expect((await other.client.get(`/api/audit-log?company_id=${a.companyId}`)).status).toBe(403);
    expect((await a.client.get('/api/audit-log?company_id=abc')).status).toBe(422);
    expect((await a.client.get(`/api/audit-log?company_id=${a.companyId}&from=2026-02-30`)).status).toBe(422);
    await s.ctx.db.updateTable('company_users').set({ role: 'reporting' }).where('company_id', '=', a.companyId).where('user_id', '=', a.userId).execute();
    try {
      expect((await a.client.get(`/api/audit-log?company_id=${a.companyId}`)).status).toBe(403);
    } finally {
      await s.ctx.db.updateTable('company_users').set({ role: 'owner' }).where('company_id', '=', a.companyId).where('user_id', '=', a.userId).execute();
    }
  });
});
