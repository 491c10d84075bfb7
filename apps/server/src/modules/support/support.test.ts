/**
 * Support tickets (spec 002 "Support": `POST /contact/support-ticket/{companyId}`, multipart: message,
 * callback_number, callback_requested, attachments, page_url; docs/workspace.md "Support") through the real server:
 * stored, attachments kept, mailed to the tenant's support address with the attachments listed; 422 and 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { createOrganization } from '../companies/companies.service.js';

let s: TestServer;
let a: Account;
let other: Account;

beforeAll(async () => {
  s = await startTestServer();
  a = await createAccount(s, { firstName: 'Maya', lastName: 'Ortiz', companyName: 'Ortiz Auto' });
  other = await createAccount(s);
}, 180_000);

afterAll(async () => {
  await s?.close();
});

function form(fields: Record<string, string>, files: Array<{ name: string; type: string; body: string }> = []): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files) f.append('attachments[]', new Blob([file.body], { type: file.type }), file.name);
  return f;
}

describe('support ticket', () => {
  it('stores the ticket with its attachments and mails it to the default support address', async () => {
    const r = await a.client.request(
      'POST',
      `/api/contact/support-ticket/${a.companyId}`,
      form(
        {
          message: 'Calls to my main number go to voicemail.',
          callback_requested: '1',
          callback_number: '(415) 555-0142',
          page_url: 'https://app.example.com/numbers/12',
        },
        [
          { name: 'screenshot.png', type: 'image/png', body: 'PNGDATA-123' },
          { name: 'notes.txt', type: 'text/plain', body: 'hello' },
        ],
      ),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.message).toBe('Your support request was sent. We will get back to you soon.');
    const t = r.body.data;
    expect(t).toMatchObject({ companyId: a.companyId, callbackRequested: true, callbackNumber: '+14155550142', pageUrl: 'https://app.example.com/numbers/12' });
    expect(t.attachments.map((x: any) => [x.name, x.contentType, x.size])).toEqual([
      ['screenshot.png', 'image/png', 11],
      ['notes.txt', 'text/plain', 5],
    ]);
    expect(t.sentTo).toMatch(/^support@/);
    // The attachment is stored: the owner reads it back.
    const file = await a.client.request('GET', new URL(t.attachments[1].url).pathname);
    expect(file.body).toBe('hello');

    const mails = await s.ctx.mailer.outbox(10, t.sentTo);
    const mail = mails.find((m) => m.subject.includes(`#${t.id}`))!;
    expect(mail.subject).toContain('Ortiz Auto');
    expect(mail.text_body).toContain('Calls to my main number go to voicemail.');
    expect(mail.text_body).toContain(`Maya Ortiz <${a.email}>`);
    expect(mail.text_body).toContain('Call back: yes, at +14155550142');
    expect(mail.text_body).toContain('Page: https://app.example.com/numbers/12');
    expect(mail.text_body).toContain('Attachments (2):');
    expect(mail.text_body).toMatch(/- screenshot\.png \(image\/png, 11 bytes\): http\S+signature=/);

    const mine = await a.client.get(`/api/contact/support-tickets?companyId=${a.companyId}`);
    expect(mine.body.data.map((x: any) => x.id)).toEqual([t.id]);
  });

  it("mails the tenant's own support address when the business unit has one", async () => {
    const unit = await createOrganization(s.ctx, 'Helpful Agency', a.userId);
    await s.ctx.db.updateTable('companies').set({ organization_id: unit }).where('id', '=', a.companyId).execute();
    const saved = await a.client.put(`/api/companies/${a.companyId}/tenant/tenant-information`, {
      name: 'Helpful Phones',
      primaryColor: '#228be6',
      secondaryColor: '#15aabf',
      supportEmail: 'desk@helpful.example.com',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const r = await a.client.request('POST', `/api/contact/support-ticket/${a.companyId}`, form({ message: 'Need an invoice copy', page_url: '/billing' }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data).toMatchObject({
      sentTo: 'desk@helpful.example.com',
      callbackRequested: false,
      callbackNumber: null,
      pageUrl: '/billing',
      attachments: [],
    });
    const mail = (await s.ctx.mailer.outbox(5, 'desk@helpful.example.com'))[0]!;
    expect(mail.subject).toContain('[Helpful Phones support]');
    expect(mail.text_body).toContain('Attachments: none');
  });

  it('answers 422 with field errors and 403 for another company', async () => {
    const bad = await a.client.request(
      'POST',
      `/api/contact/support-ticket/${a.companyId}`,
      form({ message: '  ', callback_requested: 'true', page_url: 'javascript:alert(1)' }),
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['callback_number', 'message', 'page_url']);
    const badNumber = await a.client.request('POST', `/api/contact/support-ticket/${a.companyId}`, form({ message: 'x', callback_number: '12' }));
    expect(badNumber.status).toBe(422);
    expect(badNumber.body.errors.callback_number).toEqual(['The callback number must be a valid phone number.']);
    const many = await a.client.request(
      'POST',
      `/api/contact/support-ticket/${a.companyId}`,
      form(
        { message: 'files' },
        Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, type: 'text/plain', body: 'x' })),
      ),
    );
    expect(many.status).toBe(422);
    expect((await other.client.request('POST', `/api/contact/support-ticket/${a.companyId}`, form({ message: 'hi' }))).status).toBe(403);
    expect((await other.client.get(`/api/contact/support-tickets?companyId=${a.companyId}`)).status).toBe(403);
    expect((await a.client.request('POST', '/api/contact/support-ticket/abc', form({ message: 'hi' }))).status).toBe(422);
  });
});
