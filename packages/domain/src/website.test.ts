import { describe, it, expect } from 'vitest';
import { normalizeWebsite } from './website.js';

describe('normalizeWebsite (foundation §5)', () => {
  it('puts https:// in front of text without an http or https scheme', () => {
    expect(normalizeWebsite('example.com')).toBe('https://example.com');
    expect(normalizeWebsite('www.example.com/path?q=1')).toBe('https://www.example.com/path?q=1');
  });

  it('keeps an http or https scheme, whatever its case', () => {
    expect(normalizeWebsite('http://example.com')).toBe('http://example.com');
    expect(normalizeWebsite('https://example.com')).toBe('https://example.com');
    expect(normalizeWebsite('HTTP://Example.com')).toBe('HTTP://Example.com');
    expect(normalizeWebsite('HttpS://example.com')).toBe('HttpS://example.com');
  });

  it('treats other schemes and scheme-like text as missing a scheme', () => {
    expect(normalizeWebsite('ftp://example.com')).toBe('https://ftp://example.com');
    expect(normalizeWebsite('httpexample.com')).toBe('https://httpexample.com');
  });

  it('leaves empty text empty and trims surrounding spaces', () => {
    expect(normalizeWebsite('')).toBe('');
    expect(normalizeWebsite('   ')).toBe('');
    expect(normalizeWebsite('  example.com ')).toBe('https://example.com');
  });
});
