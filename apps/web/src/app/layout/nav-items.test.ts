/** The navigation per role (docs/permissions.md "Web"): what each role of the selected company is offered. */
import { describe, expect, it } from 'vitest';
import type { SessionState } from '../../lib/session';
import { allowedSections, homePath } from './NavItems';

/** A session whose selected company (id 1) gives `role`. */
function as(role: string): Pick<SessionState, 'user' | 'companyId'> {
  return { companyId: 1, user: { companies: [{ id: 1, name: 'Acme', role }] } as unknown as SessionState['user'] };
}

const sectionsOf = (role: string) => allowedSections(as(role)).map((s) => s.title);
const linksOf = (role: string) => allowedSections(as(role)).flatMap((s) => s.items.map((i) => i.label));

describe('navigation by role', () => {
  it('gives a user their work and no administration', () => {
    expect(sectionsOf('user')).not.toContain('Administration');
    expect(linksOf('user')).toEqual(
      expect.arrayContaining(['Inbox', 'Voicemail', 'Contacts', 'Groups', 'Numbers', 'Blocked callers', 'Tags', 'Settings', 'Support']),
    );
    for (const hidden of ['Campaigns', 'Dashboard', 'Activity', 'Tracking pools', 'Users', 'Organizations', 'API keys', 'Webhooks', 'Custom fields'])
      expect(linksOf('user')).not.toContain(hidden);
    expect(homePath(as('user'))).toBe('/inbox');
  });

  it('gives reporting the reports, tracking, alerts and campaigns, not the inbox, contacts or administration', () => {
    expect(sectionsOf('reporting')).not.toContain('Administration');
    expect(linksOf('reporting')).toEqual(expect.arrayContaining(['Activity', 'Dashboard', 'Call reports', 'Alerts', 'Tracking pools', 'Campaigns']));
    for (const hidden of ['Inbox', 'Contacts', 'Groups', 'Tags', 'Users']) expect(linksOf('reporting')).not.toContain(hidden);
  });

  it('gives owners and administrators every administration screen, and nothing to a deactivated member', () => {
    const admin = ['Users', 'Organizations', 'General settings', 'Data groups', 'Tenant settings', 'API keys', 'Webhooks', 'Audit log'];
    expect(linksOf('owner')).toEqual(expect.arrayContaining(admin));
    expect(linksOf('administrator')).toEqual(expect.arrayContaining(admin));
    for (const hidden of ['Inbox', 'Numbers', 'Contacts', 'Users', 'Webhooks']) expect(linksOf('billing')).not.toContain(hidden);
    expect(linksOf('deactivated')).toEqual(['Settings']);
  });
});
