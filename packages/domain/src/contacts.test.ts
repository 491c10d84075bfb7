import { describe, it, expect } from 'vitest';
import { AGE_RANGES, CONTACT_GENDERS, CONTACT_TYPES, EAV_ENTITY_TYPES, deriveContactName, detectImportColumns, importColumnsError } from './contacts.js';
import { INVALID_CONTACT_FILE } from './messages.js';

describe('contact enumerations (spec 001 §3)', () => {
  it('genders, types and age ranges', () => {
    expect(CONTACT_GENDERS).toEqual(['Male', 'Female', 'Other']);
    expect(CONTACT_TYPES).toEqual(['Person', 'Business', 'Other']);
    expect(AGE_RANGES[0]).toBe('1-5');
    expect(AGE_RANGES[1]).toBe('6-10');
    expect(AGE_RANGES.at(-2)).toBe('61-65');
    expect(AGE_RANGES.at(-1)).toBe('65+');
    expect(AGE_RANGES).toHaveLength(14);
    AGE_RANGES.slice(0, -1).forEach((range, i) => expect(range).toBe(`${i * 5 + 1}-${i * 5 + 5}`));
  });

  it('EAV entity types with the spec ids', () => {
    expect(EAV_ENTITY_TYPES).toEqual({ Number: 1, Company: 2, TrackingPool: 3, Organization: 4, User: 5, Call: 6, Contact: 7 });
  });
});

describe('deriveContactName (name-field variants, or first plus last name)', () => {
  it.each([
    [{ name: 'Ann Lee' }],
    [{ Name: 'Ann Lee' }],
    [{ full_name: 'Ann Lee' }],
    [{ fullname: 'Ann Lee' }],
    [{ 'Full Name': 'Ann Lee' }],
    [{ contact_name: 'Ann Lee' }],
    [{ display_name: ' Ann   Lee ' }],
    [{ displayName: 'Ann Lee' }],
  ])('reads %o', (record) => expect(deriveContactName(record)).toBe('Ann Lee'));

  it('joins first and last name variants', () => {
    expect(deriveContactName({ first_name: 'Ann', last_name: 'Lee' })).toBe('Ann Lee');
    expect(deriveContactName({ firstname: 'Ann', lastname: 'Lee' })).toBe('Ann Lee');
    expect(deriveContactName({ First: 'Ann', Last: 'Lee' })).toBe('Ann Lee');
    expect(deriveContactName({ 'First Name': ' Ann ' })).toBe('Ann');
    expect(deriveContactName({ last_name: 'Lee' })).toBe('Lee');
  });

  it('prefers a non-blank full name and skips blank variants', () => {
    expect(deriveContactName({ name: 'Full', first_name: 'A', last_name: 'B' })).toBe('Full');
    expect(deriveContactName({ name: '  ', first_name: 'A', last_name: 'B' })).toBe('A B');
    expect(deriveContactName({ name: null, full_name: 'Ann' })).toBe('Ann');
  });

  it('gives "" without any name', () => {
    expect(deriveContactName({})).toBe('');
    expect(deriveContactName({ number: '+12125550123', email: 'a@b.co' })).toBe('');
  });
});

describe('detectImportColumns / importColumnsError (spec 001 §5)', () => {
  it('recognises common header spellings', () => {
    expect(detectImportColumns(['Name', 'Phone Number', 'E-mail'])).toEqual({ name: 0, number: 1, email: 2 });
    expect(detectImportColumns(['Email Address', 'Mobile', 'Full Name', 'Company', 'ZIP Code', 'City', 'State'])).toEqual({
      name: 2,
      number: 1,
      email: 0,
      company_name: 3,
      zip: 4,
      city: 5,
      state: 6,
    });
  });

  it('uses first and last name columns when there is no full-name column', () => {
    expect(detectImportColumns(['First Name', 'Last Name', 'Cell'])).toEqual({ name: { first: 0, last: 1 }, number: 2 });
    expect(detectImportColumns(['first_name', 'phone'])).toEqual({ name: { first: 0 }, number: 1 });
  });

  it('takes the first matching column', () => {
    expect(detectImportColumns(['phone', 'number'])).toMatchObject({ number: 0 });
  });

  it('reports the invalid-file message when name or number is missing', () => {
    expect(importColumnsError(detectImportColumns(['Name', 'Phone']))).toBeNull();
    expect(importColumnsError(detectImportColumns(['Name', 'Email']))).toBe(INVALID_CONTACT_FILE);
    expect(importColumnsError(detectImportColumns(['Phone', 'Email']))).toBe(INVALID_CONTACT_FILE);
    expect(importColumnsError(detectImportColumns([]))).toBe(INVALID_CONTACT_FILE);
  });
});
