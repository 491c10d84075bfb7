/** Same-origin file links (lib/files.ts): the browser asks its own origin for `/files/...`. */
import { describe, expect, it } from 'vitest';
import { fileSrc } from './files';

describe('fileSrc', () => {
  it('keeps the path and signature of a file URL built on another host', () => {
    expect(fileSrc('http://localhost:4000/files/c/1/recordings/1-abc.wav')).toBe('/files/c/1/recordings/1-abc.wav');
    expect(fileSrc('https://app.example.com/files/c/7/mms/x.jpg?exp=1&sig=ab')).toBe('/files/c/7/mms/x.jpg?exp=1&sig=ab');
    expect(fileSrc('/files/c/1/a.wav')).toBe('/files/c/1/a.wav');
  });

  it('leaves other URLs alone', () => {
    expect(fileSrc('https://cdn.example.com/image.png')).toBe('https://cdn.example.com/image.png');
    expect(fileSrc('blob:http://localhost/123')).toBe('blob:http://localhost/123');
    expect(fileSrc('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(fileSrc('')).toBe('');
    expect(fileSrc(null)).toBe('');
  });
});
