/**
 * The tracking script, its snippet and its verification (spec 002 "DNI": `GET
 * .../trackingNumbers/script`, `POST .../trackingNumbers/verifyScript`; docs/tracking.md "The
 * tracking script", "Verification").
 *
 * The script (`client/dni.js`) is minified once per process with esbuild and served per company
 * key with its configuration prepended (`var __sbdni={k,a,c}`), cacheable for 5 minutes. Its URL is
 * on the product (`PUBLIC_URL`), or on the company's own subdomain when one is set (a CNAME to the
 * product: script and visitor cookie are then first-party).
 */
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { DniScriptBody, VerifyScriptBody } from '@switchboard/contracts';
import { transformSync } from 'esbuild';
import type { AppContext } from '../../context.js';
import { fieldError } from '../../platform/http/errors.js';
import { FetchTimeoutError, ResponseTooLargeError, UnsafeUrlError, assertFetchableUrl, safeFetch } from '../../platform/http/safe-fetch.js';
import { assertCompanyAccess } from '../companies/companies.service.js';
import { ensureSettings, toSettingsDto } from './pools.js';
import { publicCompany } from './public-cache.js';

/** The script's size budget, gzipped (issue: under 5 KB). */
export const SCRIPT_BUDGET_BYTES = 5 * 1024;

let minified: string | null = null;
/** The client script, minified (once per process). */
export function clientScript(): string {
  if (minified === null) {
    const source = fs.readFileSync(new URL('./client/dni.js', import.meta.url), 'utf8');
    minified = transformSync(source, { minify: true, target: 'es2017', legalComments: 'none' }).code;
  }
  return minified;
}

/** The origin the public calls and the script are served from: the first-party host when set, else PUBLIC_URL. */
export function publicOrigin(ctx: AppContext, firstPartyHost: string | null): string {
  return firstPartyHost ? `https://${firstPartyHost}` : ctx.config.publicUrl;
}

/** The script for a company key with its configuration, or null for an unknown key. */
export async function scriptFor(ctx: AppContext, key: string): Promise<string | null> {
  const company = await publicCompany(ctx, key);
  if (!company) return null;
  const cfg = { k: company.key, a: `${publicOrigin(ctx, company.firstPartyHost)}/api/dni/public/${company.key}`, c: company.waitForConsent ? 1 : 0 };
  return `var __sbdni=${JSON.stringify(cfg)};${clientScript()}`;
}

/** The script's size: raw and gzipped bytes (bench/dni, the script screen). */
export function scriptSize(): { raw: number; gzip: number } {
  const body = `var __sbdni=${JSON.stringify({ k: 'x'.repeat(20), a: 'https://calls.example.com/api/dni/public/' + 'x'.repeat(20), c: 0 })};${clientScript()}`;
  return { raw: Buffer.byteLength(body), gzip: gzipSync(body, { level: 9 }).length };
}

/** The sandbox demo site's URL for a key (docs/tracking.md "The demo site"), or null when the carrier is not the sandbox. */
export function demoUrl(ctx: AppContext, key: string): string | null {
  return ctx.config.carrier === 'sandbox' ? `${ctx.config.publicUrl}/api/dni/demo/${key}` : null;
}

/** `GET .../trackingNumbers/script` (any member): settings, the snippet to paste, the consent call, the last page seen. */
export async function getScript(ctx: AppContext, userId: number, companyId: number): Promise<DniScriptBody> {
  await assertCompanyAccess(ctx, userId, companyId);
  const s = await ensureSettings(ctx, companyId);
  const url = `${publicOrigin(ctx, s.first_party_host)}/api/dni/public/${s.key}/script.js`;
  const stub = s.wait_for_consent ? `<script>window.switchboardDni=window.switchboardDni||[];</script>\n` : '';
  return {
    settings: toSettingsDto(s),
    script_url: url,
    snippet: `${stub}<script async src="${url}"></script>`,
    consent_snippet: `(window.switchboardDni=window.switchboardDni||[]).push(['consent',true]);`,
    last_seen_at: s.last_seen_at?.toISOString() ?? null,
    last_seen_url: s.last_seen_url,
    demo_url: demoUrl(ctx, s.key),
  };
}

/** Verification timings (tests lower them). */
export const verifyTuning = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 };

const KEY_IN_PAGE = /\/api\/dni\/public\/([a-z0-9]{8,40})\/script\.js/;

/**
 * `POST .../trackingNumbers/verifyScript` {url} (any member): fetches the page server-side
 * (`verifyTuning`: 10 s, 2 MB; public addresses only, except the product's own demo site with the
 * sandbox carrier) and reports whether it loads this company's script.
 * @throws ValidationError 422 `url` for text that is no http(s) URL or a private-network target.
 */
export async function verifyScript(ctx: AppContext, userId: number, companyId: number, rawUrl: string): Promise<VerifyScriptBody> {
  await assertCompanyAccess(ctx, userId, companyId);
  const s = await ensureSettings(ctx, companyId);
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(rawUrl) ? rawUrl : `https://${rawUrl}`);
  } catch (e) {
    if (e instanceof TypeError) throw fieldError('url', 'The url must be a valid URL.');
    throw e;
  }
  const own = new URL(ctx.config.publicUrl);
  const isDemo = ctx.config.carrier === 'sandbox' && url.origin === own.origin && url.pathname.startsWith('/api/dni/demo/');
  const policy = isDemo ? { allowHosts: [url.hostname] } : undefined;
  try {
    assertFetchableUrl(url, policy);
  } catch (e) {
    if (e instanceof UnsafeUrlError) throw fieldError('url', 'The url must be a public http or https address.');
    throw e;
  }
  const base = { url: url.toString(), checked_at: new Date().toISOString() };
  try {
    const res = await safeFetch(url, {
      timeoutMs: verifyTuning.timeoutMs,
      maxBytes: verifyTuning.maxBytes,
      headers: { accept: 'text/html,*/*' },
      ...(policy ? { policy } : {}),
    });
    if (!res.ok)
      return { ...base, result: 'http_error', installed: false, key_found: null, http_status: res.status, message: `The page answered ${res.status}.` };
    const found = KEY_IN_PAGE.exec(res.body.toString('utf8'))?.[1] ?? null;
    if (found === s.key)
      return { ...base, result: 'installed', installed: true, key_found: found, http_status: res.status, message: 'The tracking script is installed.' };
    if (found) {
      return {
        ...base,
        result: 'other_key',
        installed: false,
        key_found: found,
        http_status: res.status,
        message: 'The page loads a tracking script with another company key.',
      };
    }
    return {
      ...base,
      result: 'not_found',
      installed: false,
      key_found: null,
      http_status: res.status,
      message: 'The tracking script was not found on the page.',
    };
  } catch (e) {
    if (e instanceof UnsafeUrlError) throw fieldError('url', 'The url must be a public http or https address.');
    if (e instanceof FetchTimeoutError)
      return { ...base, result: 'timeout', installed: false, key_found: null, http_status: null, message: 'The page did not answer in time.' };
    if (e instanceof ResponseTooLargeError)
      return { ...base, result: 'too_large', installed: false, key_found: null, http_status: null, message: 'The page is too large to check.' };
    if (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string') {
      return { ...base, result: 'unreachable', installed: false, key_found: null, http_status: null, message: 'The page could not be reached.' };
    }
    throw e;
  }
}
