/** The role → ability matrix (docs/permissions.md): the rows the product promises, checked by hand. */
import { describe, expect, it } from 'vitest';
import { ABILITIES, abilitiesOf, isAbility, roleCan, rolesWith } from './permissions.js';

describe('ABILITY_MATRIX', () => {
  it('owner can do everything; deactivated nothing', () => {
    expect(abilitiesOf('owner')).toEqual(ABILITIES);
    expect(abilitiesOf('deactivated')).toEqual([]);
    expect(abilitiesOf(null)).toEqual([]);
  });

  it('administrator: everything but ownership, deleting the account and billing', () => {
    expect(ABILITIES.filter((a) => !roleCan('administrator', a))).toEqual(['ownership.manage', 'account.delete', 'billing.read', 'billing.manage']);
  });

  it('billing: billing, invoices, seeing the company, own preferences and support only', () => {
    expect(abilitiesOf('billing')).toEqual(['company.read', 'billing.read', 'billing.manage', 'preferences.own', 'support.contact']);
  });

  it('reporting reads reports, calls and recordings but changes nothing of the company', () => {
    expect(roleCan('reporting', 'reports.read')).toBe(true);
    expect(roleCan('reporting', 'calls.read')).toBe(true);
    expect(roleCan('reporting', 'calls.work')).toBe(false);
    expect(roleCan('reporting', 'inbox.read')).toBe(false);
    expect(roleCan('reporting', 'numbers.manage')).toBe(false);
  });

  it('user works the inbox, calls and contacts; no setup, no purchase, no reports', () => {
    for (const a of ['inbox.work', 'calls.work', 'contacts.write', 'numbers.read'] as const) expect(roleCan('user', a)).toBe(true);
    for (const a of ['numbers.manage', 'numbers.purchase', 'reports.read', 'users.manage', 'contacts.bulk'] as const) expect(roleCan('user', a)).toBe(false);
  });

  it('lists roles of an ability highest first and knows its names', () => {
    expect(rolesWith('numbers.purchase')).toEqual(['owner', 'administrator']);
    expect(rolesWith('company.read')).toEqual(['owner', 'administrator', 'billing', 'reporting', 'user']);
    expect(isAbility('reports.read')).toBe(true);
    expect(isAbility('toString')).toBe(false);
  });
});
