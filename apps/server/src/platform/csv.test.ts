/** The CSV writer's formula neutralisation (OWASP "CSV Injection"), with papaparse reading back. */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { neutralizeCell, toCsv } from './csv.js';

describe('toCsv', () => {
  it('prefixes a quote to cells starting with = + - @ tab or CR', () => {
    const evil = ['=1+1', '+SUM(A1)', '-2+3', '@SUM(1)', '\t=1', '\r=1', '=HYPERLINK("http://x","y")', '+1 (212) 555-0100', "-1+cmd|' /C calc'!A0"];
    const csv = toCsv([evil], { fields: evil.map((_, i) => `c${i}`) });
    const back = Papa.parse<string[]>(csv, { header: false }).data[1]!;
    expect(back).toEqual(evil.map((v) => `'${v}`));
  });

  it('keeps plain signed integers (E.164 numbers) and harmless text as they are', () => {
    const fine = ['+15551234567', '-5', '12125550100', 'Ada =1', 'a@b.test', '', 'Plain'];
    const back = Papa.parse<string[]>(toCsv([fine]), { header: false }).data[0]!;
    expect(back).toEqual(fine);
    expect(toCsv([[null, undefined, 3, true]])).toBe(',,3,true');
  });

  it('writes a header row, CRLF line ends, and data-only pages', () => {
    expect(
      toCsv(
        [
          ['a', 'b'],
          ['=c', 'd'],
        ],
        { fields: ['x', 'y'] },
      ),
    ).toBe('x,y\r\na,b\r\n"\'=c",d');
    expect(toCsv([['a']], { fields: ['x'], header: false })).toBe('a');
  });

  it('neutralizes a single cell the same way', () => {
    expect(neutralizeCell('=1')).toBe("'=1");
    expect(neutralizeCell('+15551234567')).toBe('+15551234567');
    expect(neutralizeCell('ok')).toBe('ok');
  });
});
