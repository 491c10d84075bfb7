/**
 * Invitations end to end as the invitee meets them (issue 23 item 10; docs/accounts.md "Invitations", docs/auth.md
 * "Development outbox"): the mail states the company and the role; with the development outbox the inviter gets the
 * link and the invitee, without an account, reads the mail carrying it (and only that); the password is set once and
 * the accept answer signs the invitee in; a cancelled link says so once (410), the same on preview and accept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, uniqueEmail } from '../../../test/fixtures.js';
import { IpClient, startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const tokenOf = (url: string) => decodeURIComponent(/token=([^&\s]+)/.exec(url)![1]!);

async function anonymous(): Promise<IpClient> {
  const c = new IpClient(s.url);
  await c.get('/api/csrf-cookie');
  return c;
}

describe('an invitation read and accepted through its link alone', () => {
  it('states company and role, shows its own mail without an account, sets the password once and signs in', async () => {
    const owner = await createAccount(s, { companyName: 'Harbor Plumbing' });
    const email = uniqueEmail('dana');
    const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email, role: 'administrator' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    // No mail server in the tests: the inviter is handed the link.
    expect(r.body.invitation_url).toMatch(/\/accept-invitation\?token=/);
    const token = tokenOf(r.body.invitation_url);

    const [mail] = await s.ctx.mailer.outbox(1, email);
    expect(mail!.subject).toBe("You're invited to join Harbor Plumbing as Administrator");
    expect(mail!.text_body).toContain('Test User invited you to join Harbor Plumbing on Switchboard as Administrator.');

    const anon = await anonymous();
    expect((await anon.get('/api/dev/outbox')).status).toBe(401);
    const preview = await anon.get(`/api/invitations/${token}`);
    expect(preview.body.data).toMatchObject({ email, company_name: 'Harbor Plumbing', role: 'administrator', invited_by: 'Test User', dev_outbox: true });
    // The token-scoped outbox: exactly the mail that carries this link.
    const box = await anon.get(`/api/dev/outbox/invitations/${encodeURIComponent(token)}`);
    expect(box.status).toBe(200);
    expect(box.body.data).toHaveLength(1);
    expect(box.body.data[0]).toMatchObject({ to: email, subject: mail!.subject });
    expect(box.body.data[0].text).toContain(encodeURIComponent(token));
    expect((await anon.get(`/api/dev/outbox/invitations/${'x'.repeat(43)}`)).status).toBe(404);

    // One password, no confirmation; the answer signs the invitee in.
    const ok = await anon.post(`/api/invitations/${token}/accept`, { first_name: 'Dana', last_name: 'Diaz', password: 'dana-password-1' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ message: 'Welcome to Harbor Plumbing. You are signed in.', email, company_id: owner.companyId, signed_in: true });
    const me = await anon.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, companies: [{ id: owner.companyId, name: 'Harbor Plumbing', role: 'administrator' }] });
    // The link is used up: its mail view closes with it.
    expect((await (await anonymous()).get(`/api/dev/outbox/invitations/${encodeURIComponent(token)}`)).status).toBe(404);
  });

  it('signs in as the invitee a browser where someone else was signed in', async () => {
    const owner = await createAccount(s);
    const other = await createAccount(s);
    const email = uniqueEmail('second');
    const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email, role: 'user' });
    const ok = await other.client.post(`/api/invitations/${tokenOf(r.body.invitation_url)}/accept`, {
      first_name: 'Sam',
      last_name: 'Second',
      password: 'second-password-1',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await other.client.get('/api/user')).body.email).toBe(email);
  });

  it('a cancelled invitation answers one message, 410, on preview, accept and its mail', async () => {
    const owner = await createAccount(s);
    const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: uniqueEmail('gone'), role: 'user' });
    const token = tokenOf(r.body.invitation_url);
    expect((await owner.client.delete(`/api/companies/${owner.companyId}/invitations/${r.body.data.id}`)).status).toBe(200);
    const anon = await anonymous();
    const message = 'This invitation was cancelled. Ask the person who invited you for a new one.';
    const preview = await anon.get(`/api/invitations/${token}`);
    expect([preview.status, preview.body.message]).toEqual([410, message]);
    const accept = await anon.post(`/api/invitations/${token}/accept`, { first_name: 'G', last_name: 'One', password: 'gone-password-1' });
    expect([accept.status, accept.body.message]).toEqual([410, message]);
    expect((await anon.get(`/api/dev/outbox/invitations/${encodeURIComponent(token)}`)).status).toBe(410);
  });

  it('resending hands over the new link; the mail to an existing user states the role', async () => {
    const owner = await createAccount(s, { companyName: 'Resend Co' });
    const existing = await createAccount(s);
    const added = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: existing.email, role: 'reporting' });
    expect(added.body.added).toBe(true);
    expect((await s.ctx.mailer.outbox(1, existing.email))[0]!.subject).toBe('You now have access to Resend Co as Reporting');
    const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: uniqueEmail('again'), role: 'billing' });
    const resent = await owner.client.post(`/api/companies/${owner.companyId}/invitations/${r.body.data.id}/resend`);
    expect(resent.body.invitation_url).toMatch(/token=/);
    expect(resent.body.invitation_url).not.toBe(r.body.invitation_url);
    expect((await (await anonymous()).get(`/api/invitations/${tokenOf(resent.body.invitation_url)}`)).body.data.role).toBe('billing');
  });
});
