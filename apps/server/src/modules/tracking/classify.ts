/**
 * Pure rules of call tracking (docs/tracking.md "Source rules"): how a visit is classified into a
 * traffic source from its landing page URL and referrer, whether a pool's source rules take a
 * visit, a short device label from a user agent, and phone-number normalisation of target numbers.
 * No I/O.
 */
import type { DniSourceRules, TrafficSource } from '@switchboard/contracts';
import { parsePhone } from '@switchboard/domain';

/** A classified visit: the traffic source and the marketing fields read from the URL. */
export type Visit = {
  trafficSource: TrafficSource;
  source: string | null;
  medium: string | null;
  campaign: string | null;
  keyword: string | null;
  content: string | null;
  landingPage: string | null;
  referrer: string | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  msclkid: string | null;
  fbclid: string | null;
};

const PAID_MEDIA = new Set([
  'cpc',
  'ppc',
  'paid',
  'paidsearch',
  'paid_search',
  'paid-search',
  'paidsocial',
  'paid_social',
  'paid-social',
  'cpm',
  'display',
  'ads',
]);
const EMAIL_MEDIA = new Set(['email', 'e-mail', 'newsletter', 'mail']);
/** Host name fragments of search engines (organic search when no utm and no click id). */
const SEARCH_ENGINES = [
  'google.',
  'bing.com',
  'yahoo.',
  'duckduckgo.com',
  'baidu.com',
  'yandex.',
  'ecosia.org',
  'search.brave.com',
  'startpage.com',
  'naver.com',
  'ask.com',
];

function clip(v: string | null | undefined, max = 500): string | null {
  if (v === null || v === undefined) return null;
  const t = v.trim();
  return t ? t.slice(0, max) : null;
}

function parseUrl(text: string | null | undefined): URL | null {
  if (!text) return null;
  try {
    return new URL(text);
  } catch (e) {
    if (e instanceof TypeError) return null;
    throw e;
  }
}

/** The landing page without its query and fragment (utm and click ids are kept in their own fields). */
export function pageWithoutQuery(url: string | null | undefined): string | null {
  const u = parseUrl(url);
  return u ? clip(`${u.origin}${u.pathname}`, 2000) : clip(url ?? null, 2000);
}

/**
 * Classifies a visit (docs/tracking.md "Source rules"): click ids first (gclid/gbraid/wbraid →
 * Google Ads, msclkid → Microsoft Ads, fbclid → Meta Ads), then utm parameters (a paid medium with
 * a known source → that ad platform, an e-mail medium → email, any other utm → custom), then the
 * referrer (a search engine → organic, another site → referral, the same site or none → direct).
 * `source` defaults to the referrer's host for organic and referral visits; `keyword` is utm_term.
 */
export function classifyVisit(pageUrl: string, referrer: string | null): Visit {
  const u = parseUrl(pageUrl);
  const q = u?.searchParams;
  const get = (k: string) => clip(q?.get(k) ?? null, 300);
  const ref = parseUrl(referrer);
  const refHost = ref && u && ref.host !== u.host ? ref.hostname.toLowerCase() : null;
  const visit: Visit = {
    trafficSource: 'direct',
    source: get('utm_source'),
    medium: get('utm_medium'),
    campaign: get('utm_campaign'),
    keyword: get('utm_term'),
    content: get('utm_content'),
    landingPage: pageWithoutQuery(pageUrl),
    referrer: clip(referrer, 2000),
    gclid: get('gclid'),
    gbraid: get('gbraid'),
    wbraid: get('wbraid'),
    msclkid: get('msclkid'),
    fbclid: get('fbclid'),
  };
  const src = (visit.source ?? '').toLowerCase();
  const medium = (visit.medium ?? '').toLowerCase();
  const paid = PAID_MEDIA.has(medium);
  if (visit.gclid || visit.gbraid || visit.wbraid || (paid && (src === 'google' || src === 'adwords' || src === 'google_ads'))) {
    visit.trafficSource = 'google_ads';
    visit.source ??= 'google';
    visit.medium ??= 'cpc';
  } else if (visit.msclkid || (paid && (src === 'bing' || src === 'microsoft' || src === 'microsoft_ads'))) {
    visit.trafficSource = 'microsoft_ads';
    visit.source ??= 'bing';
    visit.medium ??= 'cpc';
  } else if (visit.fbclid && !visit.source) {
    // fbclid is added to every outbound Facebook link, paid or not; with no utm it is Meta traffic.
    visit.trafficSource = 'meta_ads';
    visit.source = 'facebook';
    visit.medium ??= 'paid_social';
  } else if (paid && ['facebook', 'fb', 'instagram', 'ig', 'meta'].includes(src)) {
    visit.trafficSource = 'meta_ads';
  } else if (EMAIL_MEDIA.has(medium)) {
    visit.trafficSource = 'email';
  } else if (visit.source || visit.medium || visit.campaign) {
    visit.trafficSource = 'custom';
  } else if (refHost && SEARCH_ENGINES.some((e) => refHost.includes(e))) {
    visit.trafficSource = 'organic';
    visit.source = refHost.replace(/^www\./, '');
    visit.medium = 'organic';
  } else if (refHost) {
    visit.trafficSource = 'referral';
    visit.source = refHost.replace(/^www\./, '');
    visit.medium = 'referral';
  }
  return visit;
}

function ruleValue(field: string, v: Visit, pageUrl: string): string {
  switch (field) {
    case 'utm_source':
      return v.source ?? '';
    case 'utm_medium':
      return v.medium ?? '';
    case 'utm_campaign':
      return v.campaign ?? '';
    case 'utm_term':
      return v.keyword ?? '';
    case 'utm_content':
      return v.content ?? '';
    case 'landing_page':
      return pageUrl;
    default:
      return v.referrer ?? '';
  }
}

/** Whether one custom rule matches (case-insensitive). */
export function ruleMatches(rule: { field: string; operator: string; value: string }, v: Visit, pageUrl: string): boolean {
  const actual = ruleValue(rule.field, v, pageUrl).toLowerCase();
  const want = rule.value.toLowerCase();
  switch (rule.operator) {
    case 'equals':
      return actual === want;
    case 'starts_with':
      return actual.startsWith(want);
    case 'not_contains':
      return !actual.includes(want);
    default:
      return actual.includes(want);
  }
}

/** Whether a pool's source rules take the visit: all visitors, a listed traffic source, or any custom rule. */
export function poolTakesVisit(
  rules: DniSourceRules | { all_visitors: boolean; traffic_sources: string[]; custom_rules: Array<{ field: string; operator: string; value: string }> },
  v: Visit,
  pageUrl: string,
): boolean {
  if (rules.all_visitors) return true;
  if ((rules.traffic_sources as string[]).includes(v.trafficSource)) return true;
  return rules.custom_rules.some((r) => ruleMatches(r, v, pageUrl));
}

/** A short device label, e.g. "Chrome on Android", from a User-Agent header (null when unknown). */
export function deviceLabel(ua: string | undefined): string | null {
  if (!ua) return null;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  if (!browser && !os) return null;
  return [browser, os].filter(Boolean).join(' on ');
}

/** Target numbers as E.164, distinct; `errors` lists the indexes that are no phone number. */
export function normaliseNumbers(list: string[]): { numbers: string[]; invalid: number[] } {
  const numbers: string[] = [];
  const invalid: number[] = [];
  list.forEach((n, i) => {
    const e164 = parsePhone(n);
    if (!e164) invalid.push(i);
    else if (!numbers.includes(e164)) numbers.push(e164);
  });
  return { numbers, invalid };
}

/**
 * The pool size a traffic peak needs (docs/tracking.md "Pool health"): the peak of concurrent
 * sessions, plus the numbers resting in cool-down at that rate (peak × cool-down ÷ session
 * length), plus 20 % headroom; at least 1 when there was any traffic.
 */
export function recommendedPoolSize(peakConcurrent: number, sessionMinutes: number, coolDownMinutes: number): number {
  if (peakConcurrent <= 0) return 0;
  const resting = (peakConcurrent * coolDownMinutes) / Math.max(1, sessionMinutes);
  return Math.max(1, Math.ceil((peakConcurrent + resting) * 1.2));
}
