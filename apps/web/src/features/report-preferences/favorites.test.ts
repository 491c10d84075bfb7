import { describe, expect, it } from 'vitest';
import { favoriteHref, filtersFromSearch, screenLabel } from './favorites';

describe('favoriteHref', () => {
  it('reopens the path with its filters, grouping and columns as search params', () => {
    expect(
      favoriteHref({
        path: '/reports',
        filters: { preset: '30d', number_ids: [3, 4], minDuration: 30, isLead: null },
        grouping: 'trafficSource_day',
        columns: ['source', 'total'],
      }),
    ).toBe('/reports?preset=30d&number_ids=3%2C4&minDuration=30&group=trafficSource_day&columns=source%2Ctotal');
  });
  it('keeps a group already in the filters and leaves out empty parts', () => {
    expect(favoriteHref({ path: '/reports', filters: { group: 'geo' }, grouping: 'number_day', columns: [] })).toBe('/reports?group=geo');
    expect(favoriteHref({ path: '/dashboard', filters: {}, grouping: null, columns: [] })).toBe('/dashboard');
  });
  it('reads search params back as filters; labels known screens', () => {
    expect(filtersFromSearch('?preset=7d&group=geo')).toEqual({ preset: '7d', group: 'geo' });
    expect(screenLabel('/reports')).toBe('Call reports');
    expect(screenLabel('/elsewhere')).toBe('/elsewhere');
  });
});
