/** The GA4 and Meta browser ids read from the page's cookies (ad-ids.ts; docs/tracking.md "Ad platform ids"). */
import { describe, expect, it } from 'vitest';
import { adIdsOf, gaClientIdOf, gaSessionIdOf, hasAdIds } from './ad-ids.js';

describe('ad platform ids', () => {
  it('reads the GA4 client id of _ga and the session id of _ga_<stream> (GS1 and GS2 formats)', () => {
    expect(gaClientIdOf('GA1.1.1234567890.1764000000')).toBe('1234567890.1764000000');
    expect(gaClientIdOf('GA1.2.99.1')).toBe('99.1');
    for (const bad of [undefined, '', 'GA1.1.abc.def', 'GA1.1.1234567890', 'x GA1.1.1.2']) expect(gaClientIdOf(bad)).toBeNull();
    expect(gaSessionIdOf('XYZ:GS1.1.1764000000.5.1.1764000100.0.0.0')).toBe('1764000000');
    expect(gaSessionIdOf('ABC123:GS2.1.s1764000001$o3$g1$t1764000100$j0$l0$h0')).toBe('1764000001');
    expect(gaSessionIdOf('BAD:nonsense!ABC:GS2.1.s42$o1')).toBe('42');
    expect(gaSessionIdOf(undefined)).toBeNull();
    expect(gaSessionIdOf('ABC:GS2.1.sX$o1')).toBeNull();
  });

  it('keeps well-formed _fbp/_fbc and builds fbc from the landing fbclid when the page had none', () => {
    const now = 1_764_000_000_123;
    expect(adIdsOf({ fbp: 'fb.1.1764000000000.987654321', fbc: 'fb.1.1764000000000.AbC-1_x' }, 'other', now)).toEqual({
      ga_client_id: null,
      ga_session_id: null,
      fbp: 'fb.1.1764000000000.987654321',
      fbc: 'fb.1.1764000000000.AbC-1_x',
    });
    expect(adIdsOf({ fbc: 'garbage' }, 'IwAR123', now).fbc).toBe(`fb.1.${now}.IwAR123`);
    expect(adIdsOf({ fbp: 'fb.1.x.1' }, 'bad fbclid!', now)).toMatchObject({ fbp: null, fbc: null });
    expect(hasAdIds(adIdsOf({}, null, now))).toBe(false);
    expect(hasAdIds(adIdsOf({ ga: 'GA1.1.1.2' }, null, now))).toBe(true);
  });
});
