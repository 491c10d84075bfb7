import { describe, it, expect } from 'vitest';
import {
  DEFAULT_HELP_TEXT,
  HELP_KEYWORDS,
  OPT_IN_CONFIRMATION,
  OPT_IN_KEYWORDS,
  OPT_OUT_CONFIRMATION,
  OPT_OUT_KEYWORDS,
  RECIPIENT_UNSUBSCRIBED,
  classifyKeyword,
} from './opt-out.js';

describe('keyword lists (docs/messaging.md "Opt-outs and compliance")', () => {
  it("are exactly the issue's keywords", () => {
    expect(OPT_OUT_KEYWORDS).toEqual(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT']);
    expect(OPT_IN_KEYWORDS).toEqual(['START', 'YES', 'UNSTOP']);
    expect(HELP_KEYWORDS).toEqual(['HELP', 'INFO']);
  });
});

describe('classifyKeyword', () => {
  it.each(OPT_OUT_KEYWORDS)('%s opts out', (k) => expect(classifyKeyword(k)).toBe('opt-out'));
  it.each(OPT_IN_KEYWORDS)('%s opts in', (k) => expect(classifyKeyword(k)).toBe('opt-in'));
  it.each(HELP_KEYWORDS)('%s asks for help', (k) => expect(classifyKeyword(k)).toBe('help'));

  it('ignores case', () => {
    expect(classifyKeyword('stop')).toBe('opt-out');
    expect(classifyKeyword('Stop')).toBe('opt-out');
    expect(classifyKeyword('sToPaLl')).toBe('opt-out');
    expect(classifyKeyword('unstop')).toBe('opt-in');
    expect(classifyKeyword('Help')).toBe('help');
  });

  it('trims surrounding whitespace and punctuation', () => {
    expect(classifyKeyword('  STOP  ')).toBe('opt-out');
    expect(classifyKeyword('\nstop\n')).toBe('opt-out');
    expect(classifyKeyword('Stop!')).toBe('opt-out');
    expect(classifyKeyword('"stop."')).toBe('opt-out');
    expect(classifyKeyword('...yes!!')).toBe('opt-in');
    expect(classifyKeyword('help?')).toBe('help');
  });

  it('only counts a single-word reply', () => {
    expect(classifyKeyword('stop it')).toBeNull();
    expect(classifyKeyword('please stop')).toBeNull();
    expect(classifyKeyword('STOP STOP')).toBeNull();
    expect(classifyKeyword('yes please')).toBeNull();
    expect(classifyKeyword('stopping')).toBeNull();
    expect(classifyKeyword('opt out')).toBeNull();
    expect(classifyKeyword('st-op')).toBeNull();
  });

  it('gives null for empty and non-keyword bodies', () => {
    expect(classifyKeyword('')).toBeNull();
    expect(classifyKeyword('   ')).toBeNull();
    expect(classifyKeyword('!!!')).toBeNull();
    expect(classifyKeyword('Hello')).toBeNull();
    expect(classifyKeyword(null)).toBeNull();
    expect(classifyKeyword(undefined)).toBeNull();
  });
});

describe('confirmation texts', () => {
  it('tell the person how to undo', () => {
    expect(OPT_OUT_CONFIRMATION).toBe('You have been unsubscribed and will receive no further messages. Reply START to resubscribe.');
    expect(classifyKeyword(/Reply (\w+)/.exec(OPT_OUT_CONFIRMATION)![1]!)).toBe('opt-in');
    expect(classifyKeyword(/Reply (\w+)/.exec(OPT_IN_CONFIRMATION)![1]!)).toBe('opt-out');
    expect(DEFAULT_HELP_TEXT).toContain('STOP');
    expect(RECIPIENT_UNSUBSCRIBED).toContain('unsubscribed');
  });
});
