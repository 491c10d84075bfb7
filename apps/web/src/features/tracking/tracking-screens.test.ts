/**
 * Pure pieces of the tracking screens: the live feed's patching, the sub-navigation, report periods, rule
 * summaries, lead summaries, the pools table's columns and the bulk update's business units.
 */
import { describe, expect, it } from 'vitest';
import type { FeedBody, FeedCall, FeedVisitor } from './api/feed';
import { periodBounds } from './components/ReportsPage';
import { contactSummary } from './components/LeadsPage';
import { DEFAULT_POOL_COLUMNS, POOL_COLUMNS, poolColumnsOf, rulesSummary } from './components/PoolsPage';
import { managedUnits } from './api/bulk-update';
import { activeTrackingPage } from './components/TrackingNav';
import { applyCall, applyVisitor } from './realtime/use-feed-live';

function visitor(id: string, page: string): FeedVisitor {
  return {
    session_id: id,
    traffic_source: 'google_ads',
    source: 'google',
    medium: 'cpc',
    campaign: null,
    keyword: null,
    page_url: page,
    page_title: null,
    number: '+14155550101',
    fallback: false,
    pool_id: 1,
    pool_name: 'Website',
    started_at: '2026-11-23T08:00:00.000Z',
    last_seen_at: '2026-11-23T08:00:00.000Z',
    page_views: 1,
    device: null,
  };
}

function call(id: number): FeedCall {
  return {
    call_id: id,
    at: '2026-11-23T08:01:00.000Z',
    from: '+13125550100',
    number: '+14155550101',
    method: 'pool',
    session_id: 's1',
    pool_id: 1,
    pool_name: 'Website',
    traffic_source: 'google_ads',
    source: 'google',
    campaign: null,
    keyword: null,
    landing_page: null,
    is_first_contact: true,
  };
}

const empty: FeedBody = { visitors: [], calls: [], generated_at: '2026-11-23T08:00:00.000Z' };

describe('live feed patching', () => {
  it('puts a started or moved visitor on top once, and drops an ended one', () => {
    let feed = applyVisitor(empty, 'started', visitor('a', '/'));
    feed = applyVisitor(feed, 'started', visitor('b', '/'));
    expect(feed.visitors.map((v) => v.session_id)).toEqual(['b', 'a']);
    feed = applyVisitor(feed, 'moved', visitor('a', '/pricing'));
    expect(feed.visitors.map((v) => [v.session_id, v.page_url])).toEqual([
      ['a', '/pricing'],
      ['b', '/'],
    ]);
    feed = applyVisitor(feed, 'ended', visitor('b', '/'));
    expect(feed.visitors.map((v) => v.session_id)).toEqual(['a']);
  });

  it('keeps one entry per call, newest first, at most 25', () => {
    let feed = empty;
    for (let i = 1; i <= 30; i++) feed = applyCall(feed, call(i));
    expect(feed.calls).toHaveLength(25);
    expect(feed.calls[0]!.call_id).toBe(30);
    expect(feed.calls[24]!.call_id).toBe(6);
    feed = applyCall(feed, call(10));
    expect(feed.calls.filter((c) => c.call_id === 10)).toHaveLength(1);
    expect(feed.calls[0]!.call_id).toBe(10);
  });
});

describe('sub-navigation', () => {
  it('marks the page a path belongs to', () => {
    expect(activeTrackingPage('/tracking')).toBe('/tracking');
    expect(activeTrackingPage('/tracking/pools/7')).toBe('/tracking');
    expect(activeTrackingPage('/tracking/sessions/abc')).toBe('/tracking/feed');
    expect(activeTrackingPage('/tracking/bulk-update')).toBe('/tracking/bulk-update');
    expect(activeTrackingPage('/tracking/script')).toBe('/tracking/script');
    expect(activeTrackingPage('/tracking/leads')).toBe('/tracking/leads');
    expect(activeTrackingPage('/tracking/leads/12')).toBe('/tracking/leads');
  });
});

describe('report periods and rule summaries', () => {
  it('starts a period at local midnight days - 1 days back and ends now', () => {
    const now = new Date(2026, 10, 23, 15, 30);
    const { from, to } = periodBounds(7, now);
    expect(new Date(from)).toEqual(new Date(2026, 10, 17, 0, 0));
    expect(to).toBe(now.toISOString());
    expect(new Date(periodBounds(1, now).from)).toEqual(new Date(2026, 10, 23, 0, 0));
  });

  it('says which visitors a pool serves', () => {
    expect(rulesSummary({ source_rules: { all_visitors: true, traffic_sources: ['google_ads'], custom_rules: [] } })).toBe('All visitors');
    expect(
      rulesSummary({
        source_rules: {
          all_visitors: false,
          traffic_sources: ['google_ads', 'meta_ads'],
          custom_rules: [{ field: 'utm_campaign', operator: 'equals', value: 'x' }],
        },
      }),
    ).toBe('Google Ads, Meta Ads, 1 custom rule');
    expect(rulesSummary({ source_rules: { all_visitors: false, traffic_sources: [], custom_rules: [] } })).toBe('No visitors (no source chosen)');
  });
});

describe('leads, pool columns and business units', () => {
  it("sums up a lead's contacts, leaving out what is zero", () => {
    expect(contactSummary({ calls: 2, texts: 1, sessions: 3 })).toBe('2 calls · 1 text · 3 visits');
    expect(contactSummary({ calls: 1, texts: 0, sessions: 1 })).toBe('1 call · 1 visit');
    expect(contactSummary({ calls: 0, texts: 0, sessions: 0 })).toBe('No contact yet');
  });

  it("keeps a preset's known pool columns in its order", () => {
    expect(DEFAULT_POOL_COLUMNS.every((c) => POOL_COLUMNS.some((o) => o.key === c))).toBe(true);
    expect(poolColumnsOf(['health', 'gone', 'size', 'visitors'])).toEqual(['health', 'size', 'visitors']);
    expect(poolColumnsOf([])).toEqual([]);
  });

  it('offers the business units where the person manages a company', () => {
    const company = (id: number, org: number | null, role: 'owner' | 'administrator' | 'reporting' | 'user') => ({
      id,
      name: `C${id}`,
      role,
      timezone: 'UTC',
      organization_id: org,
    });
    expect(
      managedUnits([
        company(1, 7, 'owner'),
        company(2, 7, 'reporting'),
        company(3, null, 'owner'),
        company(4, 9, 'administrator'),
        company(5, 7, 'administrator'),
      ]),
    ).toEqual([
      {
        id: 7,
        companies: [
          { id: 1, name: 'C1' },
          { id: 5, name: 'C5' },
        ],
      },
      { id: 9, companies: [{ id: 4, name: 'C4' }] },
    ]);
    expect(managedUnits([company(2, 7, 'user')])).toEqual([]);
  });
});
