import { describe, it, expect } from 'vitest';
import { ROUTE_DISPLAY_TYPES, ROUTE_TYPES, cleanForwards, cleanRoutes, displayRouteType, newRouteEntry, type RouteEntry } from './routing.js';
import { applyPreset, defaultSchedule } from './schedule.js';

describe('ROUTE_TYPES (foundation §3)', () => {
  it('lists the routing types', () => {
    expect([...ROUTE_TYPES]).toEqual(['standard', 'simultaneous', 'sequential', 'geo', 'voicemail', 'in-app-calling']);
  });
});

describe('newRouteEntry (foundation §3 defaults)', () => {
  it('has the foundation defaults', () => {
    expect(newRouteEntry('America/New_York')).toEqual({
      extension: 1,
      label: '',
      forwards: [],
      schedule: defaultSchedule('America/New_York'),
      stagger: false,
      caller_id_pass_thru: true,
      type: 'standard',
      confirm_key: null,
      confirm_key_wait: 10,
      timeout: 20,
      onhold_music_id: null,
      geo_by_state_enabled: false,
      geo_by_state_static_fallback: true,
      confirm_whisper: '',
      email_alert_address: '',
      voicemail_enabled: false,
      round_robin: null,
    });
  });

  it('uses a 24/7 schedule in UTC when no zone is given', () => {
    const entry = newRouteEntry();
    expect(entry.schedule.preset).toBe(1);
    expect(entry.schedule.timezone).toBe('UTC');
  });

  it('returns independent objects', () => {
    const a = newRouteEntry();
    a.forwards.push({ number: '+12125550123' });
    expect(newRouteEntry().forwards).toEqual([]);
  });
});

describe('cleanForwards (foundation §3)', () => {
  it('strips the validity, international and update-time fields and drops empty numbers', () => {
    expect(
      cleanForwards([
        { number: '+12125550123', valid: true, international: false, updated_at: '2026-01-01T00:00:00Z' },
        { number: '' },
        { number: '   ', valid: false },
        { number: ' +442071838750 ', international: true },
        {},
      ]),
    ).toEqual([{ number: '+12125550123' }, { number: '+442071838750' }]);
  });

  it('treats missing forwards as none', () => {
    expect(cleanForwards(undefined)).toEqual([]);
    expect(cleanForwards(null)).toEqual([]);
  });
});

describe('cleanRoutes (foundation §3)', () => {
  it('fills defaults, counting a missing extension as 1', () => {
    const [entry] = cleanRoutes([{ label: 'Sales' }], 'America/Chicago');
    expect(entry).toEqual({ ...newRouteEntry('America/Chicago'), label: 'Sales' });
  });

  it('keeps given values, including falsy ones', () => {
    const [entry] = cleanRoutes([
      { extension: 0, caller_id_pass_thru: false, geo_by_state_static_fallback: false, confirm_key: 0, timeout: 0, round_robin: 'even' },
    ]);
    expect(entry!.extension).toBe(0);
    expect(entry!.caller_id_pass_thru).toBe(false);
    expect(entry!.geo_by_state_static_fallback).toBe(false);
    expect(entry!.confirm_key).toBe(0);
    expect(entry!.timeout).toBe(0);
    expect(entry!.round_robin).toBe('even');
  });

  it('orders entries by extension ascending, stable for equal extensions', () => {
    const cleaned = cleanRoutes([
      { extension: 3, label: 'c' },
      { label: 'missing → 1' },
      { extension: 0, label: 'a' },
      { extension: 1, label: 'b' },
      { extension: 12, label: 'd' },
    ]);
    expect(cleaned.map((e) => [e.extension, e.label])).toEqual([
      [0, 'a'],
      [1, 'missing → 1'],
      [1, 'b'],
      [3, 'c'],
      [12, 'd'],
    ]);
  });

  it('sorts numerically, coercing numeric strings', () => {
    const cleaned = cleanRoutes([{ extension: '10' as unknown as number }, { extension: 9 }, { extension: null as unknown as number }]);
    expect(cleaned.map((e) => e.extension)).toEqual([1, 9, 10]);
  });

  it('cleans the forwards of every entry', () => {
    const [entry] = cleanRoutes([{ forwards: [{ number: '2125550123', valid: true }, { number: '' }] }]);
    expect(entry!.forwards).toEqual([{ number: '2125550123' }]);
  });

  it('keeps only the RouteEntry fields', () => {
    const [entry] = cleanRoutes([{ label: 'x', _id: 'abc' } as Partial<RouteEntry>]);
    expect(Object.keys(entry!)).toEqual(Object.keys(newRouteEntry()));
  });
});

describe('displayRouteType (foundation §3, spec 002 §3)', () => {
  const two = [{ number: '+12125550123' }, { number: '+12125550124' }];

  it('is Standard for a single forward on a 24/7 schedule', () => {
    expect(displayRouteType(newRouteEntry())).toBe('Standard');
    expect(displayRouteType({ forwards: [{ number: '+12125550123' }] })).toBe('Standard');
    expect(displayRouteType({ forwards: [{ number: '+12125550123' }, { number: ' ' }], stagger: true })).toBe('Standard');
  });

  it('gives the multiple-forward and stagger variants', () => {
    expect(displayRouteType({ forwards: two })).toBe('Simultaneous');
    expect(displayRouteType({ forwards: two, type: 'simultaneous' })).toBe('Simultaneous');
    expect(displayRouteType({ forwards: two, type: 'sequential' })).toBe('Sequential');
    expect(displayRouteType({ forwards: two, stagger: true })).toBe('Staggered');
    expect(displayRouteType({ forwards: two, stagger: true, type: 'sequential' })).toBe('Staggered');
  });

  it('gives the preset-hours type for limited hours', () => {
    for (const preset of [2, 3, 4, 6] as const) {
      expect(displayRouteType({ forwards: two, schedule: applyPreset(preset, 'UTC') })).toBe('Business Hours');
    }
  });

  it('gives Voicemail, In-App Calling and Geo Routing before anything else', () => {
    expect(displayRouteType({ type: 'voicemail', forwards: two })).toBe('Voicemail');
    expect(displayRouteType({ schedule: applyPreset(5, 'UTC') })).toBe('Voicemail');
    expect(displayRouteType({ type: 'in-app-calling', schedule: applyPreset(2, 'UTC') })).toBe('In-App Calling');
    expect(displayRouteType({ type: 'geo' })).toBe('Geo Routing');
    expect(displayRouteType({ geo_by_state_enabled: true, forwards: two })).toBe('Geo Routing');
  });

  it('does not treat voicemail after no answer as a voicemail route', () => {
    expect(displayRouteType({ voicemail_enabled: true, forwards: [{ number: '+12125550123' }] })).toBe('Standard');
  });

  it('only returns listed labels', () => {
    expect(ROUTE_DISPLAY_TYPES).toContain(displayRouteType({ forwards: two, stagger: true }));
    expect(ROUTE_DISPLAY_TYPES).toHaveLength(8);
  });
});

describe('cleanForwards keeps geo states', () => {
  it('normalizes the states a forward serves and omits the key when there are none', () => {
    expect(
      cleanForwards([
        { number: ' +13125550101 ', states: [' il', 'xx', 'IN'] },
        { number: '+12125550102', states: [] },
        { number: '', states: ['NY'] },
      ]),
    ).toEqual([{ number: '+13125550101', states: ['IL', 'IN'] }, { number: '+12125550102' }]);
  });
});
