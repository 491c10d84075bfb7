/** The text of a failed softphone or dialer call: a 422's first field message, else the server's message, else `fallback`. */
import { HttpError } from '../../lib/http';

export function errorText(e: unknown, fallback: string): string {
  if (e instanceof HttpError) {
    const errs = (e.body as { errors?: Record<string, string[]> } | undefined)?.errors;
    const first = errs ? Object.values(errs)[0]?.[0] : undefined;
    if (first) return first;
    if (e.message && !/^HTTP \d+$/.test(e.message)) return e.message;
  }
  return fallback;
}
