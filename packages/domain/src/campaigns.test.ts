import { describe, it, expect } from 'vitest';
import {
  CAMPAIGN_DISPLAY_STATUSES,
  CAMPAIGN_FILTER_LABELS,
  CAMPAIGN_STATES,
  CAMPAIGN_VALIDATION_MESSAGES,
  MERGE_FIELDS,
  campaignDisplayStatus,
  campaignStateForSave,
  composeCampaignMessage,
  containsLink,
  messageLengthError,
  newCampaignDefaults,
  renderMergeFields,
  showsDeliveryTime,
  validateCampaign,
} from './campaigns.js';

const now = new Date('2025-06-01T12:00:00Z');
const past = '2025-06-01T11:59:00Z';
const future = '2025-06-01T12:01:00Z';

describe('campaign states (spec 001 §4)', () => {
  it('lists the stored states and displayed statuses', () => {
    expect(CAMPAIGN_STATES).toEqual(['pending', 'draft', 'queued', 'sending', 'canceled', 'paused', 'sent', 'failed']);
    expect(CAMPAIGN_DISPLAY_STATUSES).toHaveLength(7);
  });

  it('shows pending and draft as draft', () => {
    expect(campaignDisplayStatus('pending', future, now)).toBe('draft');
    expect(campaignDisplayStatus('draft', past, now)).toBe('draft');
  });

  it('shows queued as in-progress when the send time is now or past, otherwise scheduled', () => {
    expect(campaignDisplayStatus('queued', past, now)).toBe('in-progress');
    expect(campaignDisplayStatus('queued', now, now)).toBe('in-progress');
    expect(campaignDisplayStatus('queued', now.getTime(), now)).toBe('in-progress');
    expect(campaignDisplayStatus('queued', future, now)).toBe('scheduled');
    expect(campaignDisplayStatus('queued', null, now)).toBe('in-progress');
  });

  it('shows sending as in-progress and the final states as themselves', () => {
    expect(campaignDisplayStatus('sending', future, now)).toBe('in-progress');
    for (const s of ['paused', 'sent', 'canceled', 'failed'] as const) expect(campaignDisplayStatus(s, future, now)).toBe(s);
  });

  it('shows any unknown state as draft', () => {
    expect(campaignDisplayStatus('archived', future, now)).toBe('draft');
    expect(campaignDisplayStatus('', null, now)).toBe('draft');
    expect(campaignDisplayStatus(undefined, null, now)).toBe('draft');
  });

  it('has the filter labels in order, each with a displayed status', () => {
    expect(CAMPAIGN_FILTER_LABELS.map((f) => f.label)).toEqual(['Draft', 'Scheduled', 'In Progress', 'Paused', 'Sent', 'Canceled', 'Failed']);
    expect(CAMPAIGN_FILTER_LABELS.map((f) => f.value)).toEqual([...CAMPAIGN_DISPLAY_STATUSES]);
  });

  it('a draft whose send time has passed shows no delivery time', () => {
    expect(showsDeliveryTime('draft', past, now)).toBe(false);
    expect(showsDeliveryTime('pending', past, now)).toBe(false);
    expect(showsDeliveryTime('draft', future, now)).toBe(true);
    expect(showsDeliveryTime('queued', past, now)).toBe(true);
    expect(showsDeliveryTime('sent', past, now)).toBe(true);
    expect(showsDeliveryTime('queued', null, now)).toBe(false);
  });

  it('saving a draft sends draft, scheduling or sending sends queued', () => {
    expect(campaignStateForSave('draft')).toBe('draft');
    expect(campaignStateForSave('send')).toBe('queued');
  });
});

describe('merge fields and defaults (spec 001 §3, §5)', () => {
  it('are First Name, Last Name, Phone and Email with their tags, 10 characters, enabled', () => {
    expect(MERGE_FIELDS.map((f) => [f.name, f.tag, f.length, f.enabled])).toEqual([
      ['First Name', '%%firstname%%', 10, true],
      ['Last Name', '%%lastname%%', 10, true],
      ['Phone', '%%phone%%', 10, true],
      ['Email', '%%email%%', 10, true],
    ]);
  });

  it('a new campaign has "Reply STOP to stop", skip_inbox false and the four merge fields', () => {
    const d = newCampaignDefaults();
    expect(d.unsubscribe_text).toBe('Reply STOP to stop');
    expect(d.skip_inbox).toBe(false);
    expect(d.dynamic_fields).toEqual(MERGE_FIELDS);
    expect(d.state).toBe('draft');
    expect(d.type).toBe('sms');
    d.dynamic_fields[0]!.enabled = false;
    expect(MERGE_FIELDS[0]!.enabled).toBe(true);
    expect(newCampaignDefaults().dynamic_fields[0]!.enabled).toBe(true);
  });

  it('renders tags, truncating each value to the field length', () => {
    const contact = { name: 'Alexandrina Montgomery-Smith', number: '+12125550123', email: 'alexandrina@example.com' };
    expect(renderMergeFields('Hi %%firstname%% %%lastname%%!', contact)).toBe('Hi Alexandrin Montgomery!');
    expect(renderMergeFields('%%phone%% / %%email%%', contact)).toBe('2125550123 / alexandrin');
    expect(renderMergeFields('Hi %%FirstName%%, hi %%firstname%%', { name: 'Bo' })).toBe('Hi Bo, hi Bo');
  });

  it('prefers first_name/last_name and blanks missing values and disabled fields', () => {
    expect(renderMergeFields('%%firstname%%|%%lastname%%', { name: 'X Y', first_name: 'Ann', last_name: 'Lee' })).toBe('Ann|Lee');
    expect(renderMergeFields('Hi %%firstname%%|%%email%%', {})).toBe('Hi |');
    const fields = MERGE_FIELDS.map((f) => (f.tag === '%%email%%' ? { ...f, enabled: false } : f));
    expect(renderMergeFields('[%%email%%]', { email: 'a@b.co' }, fields)).toBe('[]');
    expect(renderMergeFields('%%phone%%', { number: '+442071838750' }, [{ ...MERGE_FIELDS[2]!, length: 20 }])).toBe('+442071838750');
    expect(renderMergeFields('$& %%firstname%%', { name: '$1 $&' })).toBe('$& $1');
  });

  it('composes the body and the unsubscribe text', () => {
    expect(composeCampaignMessage('Sale today', 'Reply STOP to stop')).toBe('Sale today\nReply STOP to stop');
    expect(composeCampaignMessage('Sale today', ' ')).toBe('Sale today');
  });
});

describe('messageLengthError (spec 001 §5)', () => {
  const unsub = 'Reply STOP to stop'; // 18 characters
  it('allows body plus unsubscribe text up to 1000 characters', () => {
    expect(messageLengthError('a'.repeat(982), unsub, false)).toBeNull();
    expect(messageLengthError('a'.repeat(983), unsub, false)).toBe('Max 1000 characters per SMS');
    expect(messageLengthError('a'.repeat(1000), '', false)).toBeNull();
  });

  it('uses the MMS message when media is attached', () => {
    expect(messageLengthError('a'.repeat(982), unsub, true)).toBeNull();
    expect(messageLengthError('a'.repeat(983), unsub, true)).toBe('Max 1000 characters per MMS');
  });

  it('shows no error for an empty message', () => {
    expect(messageLengthError('', 'x'.repeat(2000), false)).toBeNull();
    expect(messageLengthError('   ', 'x'.repeat(2000), true)).toBeNull();
    expect(messageLengthError(null, unsub, false)).toBeNull();
  });

  it('counts an emoji as one character', () => {
    expect(messageLengthError('😀'.repeat(1000), '', false)).toBeNull();
  });
});

describe('containsLink', () => {
  it.each(['Visit https://example.com', 'http://x.y/z', 'go to www.shop.example', 'see example.com', 'bit.ly/abc', 'EXAMPLE.ORG now', 'ftp://files.example'])(
    'finds a link in %s',
    (t) => expect(containsLink(t)).toBe(true),
  );
  it.each(['Price $3.50 today', 'e.g. tomorrow', 'Hello.World', 'Reply STOP to stop', 'v1.2.3', '', 'end. Next'])('finds none in %s', (t) =>
    expect(containsLink(t)).toBe(false),
  );
  it('stays fast on long adversarial text (the pattern backtracks quadratically; only the first 2,000 characters are searched)', () => {
    const started = performance.now();
    expect(containsLink('a-'.repeat(500_000))).toBe(false);
    expect(containsLink('a.'.repeat(500_000))).toBe(false);
    expect(containsLink(`see example.com ${'a-'.repeat(500_000)}`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('validateCampaign (spec 001 §5)', () => {
  const valid = {
    title: 'Spring sale',
    text: 'Hi %%firstname%%, 20% off today',
    unsubscribe_text: 'Reply STOP to stop',
    groups: [3],
    number_id: 7,
    should_be_sent_at: future,
    media: [],
  };
  const opts = { linksEnabled: false, now };
  const m = CAMPAIGN_VALIDATION_MESSAGES;

  it('accepts a complete campaign, with or without a delivery time', () => {
    expect(validateCampaign(valid, opts)).toEqual({});
    expect(validateCampaign({ ...valid, should_be_sent_at: null }, opts)).toEqual({});
  });

  it('requires title, message, unsubscribe text, a group and a number', () => {
    expect(validateCampaign({}, opts)).toEqual({
      title: [m.titleRequired],
      text: [m.textRequired],
      unsubscribe_text: [m.unsubscribeTextRequired],
      groups: [m.groupRequired],
      number_id: [m.numberRequired],
    });
    expect(validateCampaign({ ...valid, title: '  ', groups: [] }, opts)).toEqual({ title: ['The title field is required.'], groups: [m.groupRequired] });
  });

  it('requires the delivery time, if set, to be in the future', () => {
    expect(validateCampaign({ ...valid, should_be_sent_at: past }, opts)).toEqual({ should_be_sent_at: [m.sendAtInPast] });
    expect(validateCampaign({ ...valid, should_be_sent_at: now }, opts)).toEqual({ should_be_sent_at: [m.sendAtInPast] });
    expect(validateCampaign({ ...valid, should_be_sent_at: 'not a date' }, opts)).toEqual({ should_be_sent_at: [m.sendAtInvalid] });
  });

  it('checks the message length, SMS or MMS', () => {
    expect(validateCampaign({ ...valid, text: 'a'.repeat(990) }, opts)).toEqual({ text: ['Max 1000 characters per SMS'] });
    expect(validateCampaign({ ...valid, text: 'a'.repeat(990), media: ['https://cdn/x.png'] }, opts)).toEqual({ text: ['Max 1000 characters per MMS'] });
  });

  it('refuses links unless links are enabled', () => {
    const withLink = { ...valid, text: 'Shop at example.com' };
    expect(validateCampaign(withLink, opts)).toEqual({ text: [m.linksNotAllowed] });
    expect(validateCampaign(withLink, { ...opts, linksEnabled: true })).toEqual({});
  });

  it('a draft needs only a title', () => {
    expect(validateCampaign({ title: 'Draft 1' }, { ...opts, draft: true })).toEqual({});
    expect(validateCampaign({ title: 'D', text: 'a'.repeat(2000), should_be_sent_at: past }, { ...opts, draft: true })).toEqual({});
    expect(validateCampaign({ title: '' }, { ...opts, draft: true })).toEqual({ title: [m.titleRequired] });
  });
});
