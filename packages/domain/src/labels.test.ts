import { describe, it, expect } from 'vitest';
import {
  ACTIVITY_KINDS,
  CALL_STATUS,
  CALL_STATUS_LABELS,
  CONTACT_SOURCE_LABELS,
  CONVERSATION_ITEM_TYPES,
  EXTRA_ACTIVITY_KINDS,
  IN_APP_CALLING_STATUSES,
  NOTIFICATION_TYPES,
  NUMBER_CATEGORY_LABELS,
  NUMBER_SEARCH_MODES,
  NUMBER_TYPES,
  NUMBER_TYPE_LABELS,
  ORGANIZATION_ROLE,
  PROVIDER_LABELS,
  SERVICE_TYPES,
  USER_ROLES,
  callStatusLabel,
} from './labels.js';

describe('number tables (foundation §3, spec 002 §3)', () => {
  it('labels number categories', () => {
    expect(NUMBER_CATEGORY_LABELS).toEqual({ 1: 'Voice & SMS', 2: 'International', 3: 'Fax' });
  });

  it('labels number types with 2 local and 1 toll-free', () => {
    expect(NUMBER_TYPE_LABELS[2]).toBe('Local Voice & SMS');
    expect(NUMBER_TYPE_LABELS[1]).toBe('Toll-Free Voice & SMS');
    expect(NUMBER_TYPE_LABELS[3]).toBe('Fax number');
    expect(NUMBER_TYPE_LABELS[4]).toBe('Bulk numbers');
    expect(Object.keys(NUMBER_TYPE_LABELS)).toHaveLength(4);
  });

  it('numbers number types and service types', () => {
    expect(NUMBER_TYPES).toEqual({ local: 1, toll_free: 2, canadian: 3 });
    expect(SERVICE_TYPES).toEqual({ voice_sms: 1, fax: 2 });
  });

  it('labels providers as spec 002 names them', () => {
    expect(PROVIDER_LABELS).toEqual({ 1: 'Bandwidth', 2: 'Somos', 3: 'Messaging provider', 4: 'Provider dashboard' });
  });
});

describe('call status (foundation §3, spec 001 §3)', () => {
  it('labels every code exactly', () => {
    expect(CALL_STATUS_LABELS).toEqual({
      1: 'Started',
      2: 'Extension Selected',
      3: 'Hangup',
      4: 'Voicemail',
      5: 'No Answer',
      6: 'Received',
      7: 'Rejected',
      8: 'No Answer',
      9: 'Answered Already',
      10: 'Missed',
      11: 'Hangup',
      12: 'Connected',
      13: 'Blocked',
    });
  });

  it('names the codes 1 to 13 and every name has a label', () => {
    expect(Object.values(CALL_STATUS).sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(CALL_STATUS.CONNECTED).toBe(12);
    expect(CALL_STATUS.NO_ANSWER_8).toBe(8);
    expect(CALL_STATUS.HANGUP_11).toBe(11);
    expect(callStatusLabel(CALL_STATUS.EXTENSION_SELECTED)).toBe('Extension Selected');
  });

  it('gives "" for unknown codes', () => {
    expect(callStatusLabel(12)).toBe('Connected');
    expect(callStatusLabel(0)).toBe('');
    expect(callStatusLabel(14)).toBe('');
    expect(callStatusLabel(null)).toBe('');
  });
});

describe('other enumerations (foundation §3, §4, §6; spec 001 §3)', () => {
  it('lists them exactly', () => {
    expect([...CONTACT_SOURCE_LABELS]).toEqual(['Manual', 'Import', 'keyword', 'Migration']);
    expect([...ACTIVITY_KINDS]).toEqual(['message', 'call', 'voicemail', 'fax', 'note']);
    expect([...EXTRA_ACTIVITY_KINDS]).toEqual(['block', 'scheduledmessage', 'trackingmatch']);
    expect(NUMBER_SEARCH_MODES.map((m) => m.label)).toEqual(['Contains', 'Starts with', 'Ends with']);
    expect(NUMBER_SEARCH_MODES.map((m) => m.value)).toEqual(['contains', 'starts_with', 'ends_with']);
    expect([...USER_ROLES]).toEqual(['owner', 'administrator', 'billing', 'reporting', 'user', 'deactivated']);
    expect(ORGANIZATION_ROLE).toBe('org-administrator');
    expect([...IN_APP_CALLING_STATUSES]).toEqual(['active', 'away']);
    expect([...NOTIFICATION_TYPES]).toEqual(['neutral', 'success', 'warn', 'danger', 'loading']);
    expect([...CONVERSATION_ITEM_TYPES]).toEqual(['call', 'voicemail', 'message', 'scheduledmessage', 'fax']);
  });
});
