/**
 * The sandbox's demo website (docs/tracking.md "The demo site"): `GET /api/dni/demo/{key}` serves
 * a page of the company whose key it is, with the target number of its first active pool written
 * in every format the script swaps (a tel: link, and once split across elements), loading the tracking script. Buttons add
 * content after load (the MutationObserver path), navigate as a single-page site (history API),
 * and give consent (when the company waits for consent). Only with the sandbox carrier: a
 * production deployment serves no such page.
 *
 * Try it: open `{PUBLIC_URL}/api/dni/demo/{key}?utm_source=google&utm_medium=cpc&gclid=TEST`, call
 * the number shown from the Phone simulator, and see the call attributed to Google Ads.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../context.js';
import { publicCompany } from './public-cache.js';

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The formats of a North American E.164 number the demo writes (issue: the formats people write). */
export function demoFormats(e164: string): string[] {
  const d = e164.replace(/\D/g, '').slice(-10);
  const [a, b, c] = [d.slice(0, 3), d.slice(3, 6), d.slice(6)];
  return [`${a}-${b}-${c}`, `(${a}) ${b}-${c}`, `${a}.${b}.${c}`, `+1 ${a} ${b} ${c}`, `1-${a}-${b}-${c}`];
}

/** The number as site themes often write it, split across elements: `<span>(312)</span> <span>555</span>-<span>0147</span>`. */
function splitPhone(e164: string): string {
  const d = e164.replace(/\D/g, '').slice(-10);
  return `<p data-testid="split-phone">Office: <span class="area">(${d.slice(0, 3)})</span> <span>${d.slice(3, 6)}</span>-<span>${d.slice(6)}</span></p>`;
}

/** The demo page's HTML and its script nonce, or null (not the sandbox carrier, or an unknown key). */
export async function demoPage(ctx: AppContext, key: string): Promise<{ html: string; nonce: string } | null> {
  if (ctx.config.carrier !== 'sandbox') return null;
  const company = await publicCompany(ctx, key);
  if (!company) return null;
  const nonce = crypto.randomBytes(12).toString('base64');
  const target = company.pools.find((p) => p.targets.length)?.targets[0] ?? null;
  const formats = target ? demoFormats(target) : [];
  const list = formats.map((f, i) => `<li data-testid="format-${i}">${esc(f)}</li>`).join('');
  const scriptUrl = `/api/dni/public/${company.key}/script.js`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Plumbing — demo site</title>
<style>
body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1f24}
header{display:flex;justify-content:space-between;align-items:center;border-bottom:1px solid #ddd;padding-bottom:.5rem}
button,a.button{font:inherit;padding:.4rem .8rem;margin:.2rem;border:1px solid #888;border-radius:6px;background:#f5f5f5;color:inherit;text-decoration:none;cursor:pointer}
.note{background:#fff8e1;border:1px solid #f0d98c;padding:.5rem .8rem;border-radius:6px}
</style>
${company.waitForConsent ? `<script nonce="${nonce}">window.switchboardDni=window.switchboardDni||[];</script>` : ''}
<script async src="${esc(scriptUrl)}"></script>
</head>
<body>
<header><strong>Acme Plumbing</strong><a data-testid="header-phone" href="${target ? `tel:${esc(target)}` : '#'}">${esc(formats[1] ?? 'No tracking pool yet')}</a></header>
<main>
<h1 data-testid="page-title">Home</h1>
<p class="note">This is the call-tracking demo site of the sandbox. Open it with <code>?utm_source=google&amp;utm_medium=cpc&amp;gclid=TEST</code>, then call the number shown from the Phone simulator.</p>
${target ? `<p>Call us: <span data-testid="inline-phone">${esc(formats[0]!)}</span> or <a data-testid="tel-link" href="tel:${esc(target)}">${esc(formats[3]!)}</a></p><ul data-testid="formats">${list}</ul>${splitPhone(target)}` : '<p data-testid="no-pool">The company has no active tracking pool with a target number yet.</p>'}
<div data-testid="later"></div>
<p>
<button type="button" id="more" data-testid="add-content">Add content</button>
<button type="button" id="nav" data-testid="navigate">Go to pricing (single-page)</button>
${company.waitForConsent ? '<button type="button" id="consent" data-testid="consent">Accept cookies</button>' : ''}
</p>
</main>
<script nonce="${nonce}">
(function(){
  var target=${JSON.stringify(formats[2] ?? '')};
  document.getElementById('more').addEventListener('click',function(){
    var p=document.createElement('p');p.setAttribute('data-testid','added-phone');p.textContent='Emergency line: '+target;
    document.querySelector('[data-testid=later]').appendChild(p);
  });
  document.getElementById('nav').addEventListener('click',function(){
    history.pushState({},'', location.pathname.replace(/\\/pricing$/,'')+'/pricing'+location.search);
    document.title='Pricing — Acme Plumbing';
    document.querySelector('[data-testid=page-title]').textContent='Pricing';
  });
  var c=document.getElementById('consent');
  if(c)c.addEventListener('click',function(){(window.switchboardDni=window.switchboardDni||[]).push(['consent',true]);});
})();
</script>
</body>
</html>`;
  return { html, nonce };
}
