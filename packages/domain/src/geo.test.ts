import { describe, it, expect } from 'vitest';
import { matchGeoForward, nextRoundRobin, normalizeGeoStates } from './geo.js';
import { regionOfNumber } from './area-codes.js';

const ny = { number: '+12125550001', states: ['NY', 'NJ'] };
const ca = { number: '+13105550002', states: ['ca'] };
const staticA = { number: '+13125550003' };
const staticB = { number: '+13125550004', states: [] as string[] };
const forwards = [ny, ca, staticA, staticB];

describe('matchGeoForward (spec 000 §3 geo routing)', () => {
  it('sends the caller to the forwards of their state, case-insensitively', () => {
    expect(matchGeoForward('NY', forwards, true)).toEqual([ny]);
    expect(matchGeoForward('nj', forwards, false)).toEqual([ny]);
    expect(matchGeoForward(' CA ', forwards, true)).toEqual([ca]);
    expect(matchGeoForward(regionOfNumber('+14155550123'), forwards, false)).toEqual([ca]);
  });

  it('returns every matching forward in order', () => {
    const both = { number: '+1', states: ['TX', 'NY'] };
    expect(matchGeoForward('NY', [ny, both, staticA], true)).toEqual([ny, both]);
  });

  it('falls back to the forwards without states when enabled', () => {
    expect(matchGeoForward('TX', forwards, true)).toEqual([staticA, staticB]);
    expect(matchGeoForward(null, forwards, true)).toEqual([staticA, staticB]);
  });

  it('gives [] without a match and without the fallback', () => {
    expect(matchGeoForward('TX', forwards, false)).toEqual([]);
    expect(matchGeoForward(undefined, forwards, false)).toEqual([]);
    expect(matchGeoForward('NY', [], true)).toEqual([]);
  });
});

describe('normalizeGeoStates', () => {
  it('upper-cases, keeps known codes and drops duplicates', () => {
    expect(normalizeGeoStates([' ny', 'CA', 'xx', 'NY', '', null, 'on'])).toEqual(['NY', 'CA', 'ON']);
    expect(normalizeGeoStates(undefined)).toEqual([]);
  });
});

describe('nextRoundRobin (the next call starts with the next forward)', () => {
  const list = ['a', 'b', 'c'];
  it('starts at the first forward without a cursor', () => {
    expect(nextRoundRobin(list, null)).toEqual({ forwards: ['a', 'b', 'c'], cursor: 0 });
    expect(nextRoundRobin(list, undefined)).toEqual({ forwards: ['a', 'b', 'c'], cursor: 0 });
  });

  it('rotates by one forward per call and wraps around', () => {
    let cursor: number | null = null;
    const starts: string[] = [];
    for (let i = 0; i < 5; i++) {
      const turn: { forwards: string[]; cursor: number | null } = nextRoundRobin(list, cursor);
      starts.push(turn.forwards[0]!);
      cursor = turn.cursor;
    }
    expect(starts).toEqual(['a', 'b', 'c', 'a', 'b']);
    expect(nextRoundRobin(list, 0).forwards).toEqual(['b', 'c', 'a']);
    expect(nextRoundRobin(list, 2)).toEqual({ forwards: ['a', 'b', 'c'], cursor: 0 });
  });

  it('handles a shrunk list, bad cursors and no forwards', () => {
    expect(nextRoundRobin(list, 7)).toEqual({ forwards: ['c', 'a', 'b'], cursor: 2 });
    expect(nextRoundRobin(list, -3).cursor).toBe(0);
    expect(nextRoundRobin(list, 1.5).cursor).toBe(0);
    expect(nextRoundRobin([], 1)).toEqual({ forwards: [], cursor: null });
    expect(list).toEqual(['a', 'b', 'c']);
  });
});
