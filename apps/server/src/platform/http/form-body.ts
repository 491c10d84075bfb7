/**
 * The form-body parser of the app (`@fastify/formbody`), shared by the API and the carrier webhooks.
 */
import qs from 'qs';

/**
 * Parses an `application/x-www-form-urlencoded` body. Bracket keys (`tags[]=a`, `a[b]=c`, also
 * percent-encoded) go through `qs` (arrays up to 1,000, depth 5), as the API's forms use them; a
 * flat body (every carrier webhook) through the built-in `URLSearchParams`, which is cheaper: a
 * repeated key becomes an array of its values in order, and empty keys, keys of Object.prototype
 * (`__proto__`, `constructor`, …) and pairs after the 1,000th are dropped, as `qs` does.
 */
export function parseFormBody(body: string): Record<string, unknown> {
  if (body.includes('[') || /%5b/i.test(body)) return qs.parse(body, { arrayLimit: 1000, depth: 5 }) as Record<string, unknown>;
  const out: Record<string, string | string[]> = Object.create(null);
  let pairs = 0;
  for (const [k, v] of new URLSearchParams(body)) {
    if (++pairs > 1000) break;
    if (k === '' || k in Object.prototype) continue;
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return { ...out };
}
