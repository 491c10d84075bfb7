/** The contact form's shared rules (ContactFormSchema): the same fields and messages as the server. */
import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, ContactFormSchema } from './contacts.js';

const errorsOf = (input: unknown) => {
  const r = ContactFormSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('ContactFormSchema', () => {
  it('needs a name (full, first or last) and a valid number, with the server messages', () => {
    expect(errorsOf({ name: null, number: null })).toEqual({ name: CONTACT_MESSAGES.nameRequired, number: CONTACT_MESSAGES.numberRequired });
    expect(errorsOf({ first_name: 'Ada', number: '12' })).toEqual({ number: CONTACT_MESSAGES.numberInvalid });
    expect(errorsOf({ last_name: 'Lovelace', number: '(415) 555-0134' })).toEqual({});
    expect(errorsOf({ name: 'Ada Lovelace', number: '+14155550134', email: 'not-an-email' })).toHaveProperty('email');
  });
});
