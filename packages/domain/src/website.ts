/**
 * Website text normalization (foundation §5 "Website text without an http or https scheme gets https:// put in front").
 */

/**
 * Puts "https://" in front of a website that has no http or https scheme (checked case-insensitively).
 * Surrounding whitespace is trimmed; an empty (or blank) text stays empty.
 *
 * @param text e.g. "example.com", "HTTP://example.com"
 * @returns e.g. "https://example.com", "HTTP://example.com" (unchanged), "" for empty input
 */
export function normalizeWebsite(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}
