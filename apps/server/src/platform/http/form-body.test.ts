/**
 * parseFormBody answers what `qs` answers (the parser it replaces for flat bodies): flat carrier
 * webhooks through URLSearchParams, bracket keys through qs.
 */
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { parseFormBody } from './form-body.js';

describe('parseFormBody', () => {
  it.each([
    'CallSid=CA1&From=%2B13125550142&To=%2B14155550100&Body=hello+world%21&NumMedia=0',
    'a=1&a=2&a=3',
    'x=&y',
    'tags[]=a&tags[]=b',
    'a%5Bb%5D=c',
    'e=%E2%9C%93&f=a%26b%3Dc',
    '',
    'k=v=w',
    '=x&z=1',
    '__proto__=1&constructor=2&toString=3&ok=4',
    Array.from({ length: 1005 }, (_, i) => `p${i}=${i}`).join('&'),
  ])('%s', (body) => {
    expect(parseFormBody(body)).toEqual(qs.parse(body, { arrayLimit: 1000, depth: 5 }));
  });

  it('keeps repeated keys in order and reads a Twilio body as strings', () => {
    expect(parseFormBody('MediaUrl=a&MediaUrl=b')).toEqual({ MediaUrl: ['a', 'b'] });
    expect(parseFormBody('Digits=1%23&FromState=CA')).toEqual({ Digits: '1#', FromState: 'CA' });
  });
});
