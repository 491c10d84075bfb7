import { describe, it, expect } from 'vitest';
import * as c from './constants.js';
import { formatCurrency, formatDate, formatTime } from './constants.js';

describe('constants (foundation §9, spec 001 §9, spec 002 §9)', () => {
  it('holds the timing constants in milliseconds', () => {
    expect(c.NOTICE_AUTO_HIDE_MS).toBe(5000);
    expect(c.ERROR_TOAST_MS).toBe(10_000);
    expect(c.BILLING_ERROR_TOAST_MS).toBe(30_000);
    expect(c.RATE_LIMIT_RETRIES).toBe(3);
    expect(c.RATE_LIMIT_DEFAULT_WAIT_MS).toBe(5000);
    expect(c.LOGOUT_DELAY_MS).toBe(500);
    expect(c.COMPANY_SWITCH_REFRESH_DELAY_MS).toBe(150);
    expect(c.FINISHED_JOB_REMOVAL_MS).toBe(5000);
    expect(c.SMS_VERIFICATION_CANCEL_REFRESH_MS).toBe(15_000);
    expect(c.PLAN_MIGRATE_COMPANY_REFRESH_MS).toBe(1000);
    expect(c.PLAN_MIGRATE_INVOICES_REFRESH_MS).toBe(5000);
    expect(c.ONE_HOUR_MS).toBe(60 * 60 * 1000);
    expect(c.ONE_DAY_MS).toBe(24 * c.ONE_HOUR_MS);
  });

  it('holds routing defaults in seconds and the schedule step in minutes', () => {
    expect(c.CONFIRM_KEY_WAIT_DEFAULT_S).toBe(10);
    expect(c.RING_TIMEOUT_DEFAULT_S).toBe(20);
    expect(c.SCHEDULE_STEP_MINUTES).toBe(15);
  });

  it('holds page sizes and limits', () => {
    expect(c.EXTENSION_SUGGESTIONS_PER_PAGE).toBe(10);
    expect(c.ORGANIZATIONS_PER_PAGE).toBe(1000);
    expect(c.PHONE_SEARCH_DEFAULT_LIMIT).toBe(1);
    expect(c.BLOCKS_PER_PAGE).toBe(50);
    expect(c.BLOCKS_QUERY_PER_PAGE).toBe(1000);
    expect(c.CAMPAIGNS_PER_PAGE).toBe(13);
    expect(c.CAMPAIGN_EVENTS_PER_PAGE).toBe(10);
    expect(c.ALERTS_PER_PAGE).toBe(10);
    expect(c.CONVERSATIONS_PER_PAGE).toBe(5);
    expect(c.CONVERSATION_SEARCH_WINDOW_YEARS).toBe(2);
    expect(c.CONSUMER_INVITATIONS_PER_PAGE).toBe(1000);
    expect(c.COMPANIES_SLIM_PER_PAGE).toBe(100);
    expect(c.INACTIVE_CONSUMER_NUMBER_REMOVAL_DAYS).toBe(30);
    expect(c.SMS_MAX_LENGTH).toBe(1000);
    expect(c.MMS_MAX_LENGTH).toBe(1000);
    expect(c.MERGE_FIELD_LENGTH).toBe(10);
    expect(c.DEFAULT_UNSUBSCRIBE_TEXT).toBe('Reply STOP to stop');
    expect([...c.MONTHLY_MESSAGE_VOLUMES]).toEqual(['10_000', '25_000', '60_000', 'HIGH']);
  });

  it('holds the cache lifetimes', () => {
    expect(c.CACHE_MS).toEqual({
      default: 60_000,
      dashboard: 15_000,
      numberSearch: 300_000,
      timelineEvents: 5000,
      smsVerification: 3 * 60 * 1000,
      conversations: 600_000,
      counts: 30_000,
      analyticsActivity: 5000,
      company: Infinity,
    });
  });
});

describe('formatCurrency (foundation §9: en-US USD, 2 decimals when fractional)', () => {
  it('shows whole amounts without decimals', () => {
    expect(formatCurrency(5)).toBe('$5');
    expect(formatCurrency(0)).toBe('$0');
    expect(formatCurrency(1234)).toBe('$1,234');
    expect(formatCurrency(-5)).toBe('-$5');
  });

  it('shows at least 2 decimals when the amount has a fractional part', () => {
    expect(formatCurrency(5.5)).toBe('$5.50');
    expect(formatCurrency(1234.5)).toBe('$1,234.50');
    expect(formatCurrency(0.1 + 0.2)).toBe('$0.30');
    expect(formatCurrency(0.0125)).toBe('$0.0125');
  });

  it('accepts numeric strings and gives "" for non-numeric input', () => {
    expect(formatCurrency('19.9')).toBe('$19.90');
    expect(formatCurrency('20')).toBe('$20');
    expect(formatCurrency('')).toBe('');
    expect(formatCurrency('abc')).toBe('');
    expect(formatCurrency(Number.NaN)).toBe('');
  });
});

describe('formatTime (foundation §9: h:mm A)', () => {
  it('formats in 12-hour form with AM/PM', () => {
    expect(formatTime(new Date('2026-05-01T09:05:00Z'), 'UTC')).toBe('9:05 AM');
    expect(formatTime(new Date('2026-05-01T00:00:00Z'), 'UTC')).toBe('12:00 AM');
    expect(formatTime(new Date('2026-05-01T12:30:00Z'), 'UTC')).toBe('12:30 PM');
    expect(formatTime(new Date('2026-05-01T23:59:00Z'), 'UTC')).toBe('11:59 PM');
  });

  it('reads the clock in the given zone and accepts strings and epoch numbers', () => {
    expect(formatTime('2026-05-01T13:05:00Z', 'America/New_York')).toBe('9:05 AM');
    expect(formatTime(Date.UTC(2026, 0, 1, 17, 45), 'America/Chicago')).toBe('11:45 AM');
  });

  it('gives "" for an invalid date', () => {
    expect(formatTime('not a date', 'UTC')).toBe('');
  });
});

describe('formatDate (foundation §9: MMM D, or MMM D, YYYY when the year differs)', () => {
  const now = new Date('2026-06-15T12:00:00Z');

  it('omits the year within the current year', () => {
    expect(formatDate(new Date('2026-03-08T12:00:00Z'), now, 'UTC')).toBe('Mar 8');
    expect(formatDate('2026-09-30T12:00:00Z', now, 'UTC')).toBe('Sep 30');
  });

  it('adds the year when it differs from now', () => {
    expect(formatDate(new Date('2025-12-31T12:00:00Z'), now, 'UTC')).toBe('Dec 31, 2025');
    expect(formatDate(new Date('2027-01-01T12:00:00Z'), now, 'UTC')).toBe('Jan 1, 2027');
  });

  it('reads dates and years in the given zone', () => {
    const newYearUtc = new Date('2026-01-01T02:00:00Z');
    expect(formatDate(newYearUtc, now, 'UTC')).toBe('Jan 1');
    expect(formatDate(newYearUtc, now, 'America/New_York')).toBe('Dec 31, 2025');
  });

  it('gives "" for an invalid date', () => {
    expect(formatDate('nope', now, 'UTC')).toBe('');
  });
});
