/*
 * Switchboard call tracking: the tracking script a company puts on its website (docs/tracking.md
 * "The tracking script"). Served minified by GET /api/dni/public/{key}/script.js with its
 * configuration prepended as `var __sbdni = {k: key, a: apiBase, c: waitForConsent}`.
 *
 * - Classification happens on the server from the page URL (utm parameters, click ids) and the
 *   referrer; the script makes one request for a session and gets the swaps {target, number}.
 * - Every appearance of a target number in text nodes and tel: links is replaced, keeping its
 *   format (111-222-3333, (111) 222-3333, 111.222.3333, +1 111 222 3333, 1-111-222-3333), also when
 *   split across inline elements (<span>(111)</span> <span>222</span>-<span>3333</span>, markup kept),
 *   also in content added later (MutationObserver) and after single-page navigation (history API).
 * - Page views on navigation, a heartbeat while the page is visible.
 * - The session and visitor ids are kept in localStorage (the server also sets a first-party
 *   visitor cookie when served from the company's own subdomain).
 * - Consent: with "wait for consent" nothing is requested, stored or swapped until the page calls
 *   switchboardDni.consent(true) (also queued before the script loaded:
 *   (window.switchboardDni = window.switchboardDni || []).push(['consent', true])).
 *   switchboardDni.consent(false) withdraws it: the heartbeat and the observer stop, the page's own
 *   numbers come back, the stored ids are removed, and one last request (`/forget`) has the server
 *   remove its httpOnly visitor cookie; nothing is sent after that until consent is given again.
 * No dependencies; never blocks the page (loaded async, all work after DOM ready).
 */
(function (w, d, cfg) {
  'use strict';
  if (!cfg || w.__sbdniLoaded) return;
  w.__sbdniLoaded = 1;
  var KEY = 'sbdni_' + cfg.k;
  var swaps = [];
  var sid = null;
  var vid = null;
  var hbTimer = null;
  var observer = null;
  var consented = !cfg.c;
  var started = false;
  var hooked = false;
  var lastUrl = null;
  var pending = false;

  function load() {
    try {
      var v = JSON.parse(w.localStorage.getItem(KEY) || 'null');
      if (v && v.x > Date.now()) {
        sid = v.s;
      }
      if (v) vid = v.v || null;
    } catch (e) {
      /* storage blocked: session lasts this page only */
    }
  }
  function save(ttlS) {
    if (!consented) return;
    try {
      w.localStorage.setItem(KEY, JSON.stringify({ s: sid, v: vid, x: Date.now() + ttlS * 1000 }));
    } catch (e) {
      /* storage blocked */
    }
  }

  /** One GET with the query `q` (cookies included: the first-party visitor cookie); `cb` gets the JSON or null. */
  function call(path, q, cb) {
    if (!consented) return;
    var parts = [];
    for (var k in q) if (q[k] !== null && q[k] !== undefined && q[k] !== '') parts.push(k + '=' + encodeURIComponent(q[k]));
    w.fetch(cfg.a + path + '?' + parts.join('&'), { credentials: 'include', keepalive: true })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (j) {
        if (cb) cb(j);
      })
      ['catch'](function () {
        if (cb) cb(null);
      });
  }

  // ------------------------------------------------------------ number matching and swapping

  function digits(s) {
    return s.replace(/\D/g, '');
  }
  /** A pattern for one E.164 target: its national digits with any separators, optional country code. */
  function patternOf(e164) {
    var all = digits(e164);
    var cc = all.charAt(0) === '1' ? '1' : all.slice(0, 2);
    var nat = all.slice(cc.length);
    var sep = '[\\s.\\-()\\u00a0]{0,2}';
    var body = nat.split('').join(sep);
    return new RegExp('(^|[^\\d+])((?:\\+?' + cc + sep + ')?\\(?' + body + ')(?!\\d)', 'g');
  }
  /** The matched text with its digits replaced by the new number's, right-aligned (format kept). */
  function reformat(text, newE164) {
    var nd = digits(newE164);
    var count = digits(text).length;
    var use = nd.slice(Math.max(0, nd.length - count));
    var i = 0;
    return text.replace(/\d/g, function () {
      return use.charAt(i++) || '';
    });
  }
  function compile() {
    for (var i = 0; i < swaps.length; i++) swaps[i].re = patternOf(swaps[i].target);
  }
  function swapText(text) {
    var out = text;
    for (var i = 0; i < swaps.length; i++) {
      var s = swaps[i];
      s.re.lastIndex = 0;
      out = out.replace(s.re, function (m, pre, num) {
        return pre + reformat(num, s.number);
      });
    }
    return out;
  }
  var INLINE = /^(A|ABBR|B|BDI|BDO|CITE|CODE|DATA|DFN|EM|FONT|I|KBD|LABEL|MARK|Q|S|SAMP|SMALL|SPAN|STRONG|SUB|SUP|TIME|U|VAR)$/;
  /**
   * A number written across several text nodes of one line of text, e.g.
   * `<span>(312)</span> <span>555</span>-<span>0147</span>`: the text nodes are read as one text (nodes
   * under different blocks are kept apart), and each match spanning nodes gets the new number's digits
   * in place of its own, digit by digit, so every element keeps its share and the markup stays.
   */
  function swapSplit(root, list) {
    var text = '';
    var at = [];
    var prev;
    for (var i = 0; i < list.length; i++) {
      var b = list[i].parentNode;
      while (b !== root && INLINE.test(b.nodeName)) b = b.parentNode;
      if (i && b !== prev) text += '\0';
      prev = b;
      at.push(text.length);
      text += list[i].nodeValue;
    }
    var out = text.split('');
    var node = function (p) {
      for (var k = at.length - 1; at[k] > p; k--);
      return k;
    };
    for (var j = 0; j < swaps.length; j++) {
      var s = swaps[j];
      var m;
      s.re.lastIndex = 0;
      while ((m = s.re.exec(text))) {
        var st = m.index + m[1].length;
        var en = st + m[2].length;
        if (node(st) === node(en - 1)) continue;
        var nd = digits(s.number);
        var use = nd.slice(Math.max(0, nd.length - digits(m[2]).length));
        for (var q = st, c = 0; q < en; q++) if (/\d/.test(text.charAt(q))) out[q] = use.charAt(c++);
      }
    }
    for (var n = 0; n < list.length; n++) {
      var val = out.slice(at[n], at[n] + list[n].nodeValue.length).join('');
      if (val !== list[n].nodeValue) list[n].nodeValue = val;
    }
  }
  var SKIP = { SCRIPT: 1, STYLE: 1, NOSCRIPT: 1, TEXTAREA: 1, INPUT: 1, SELECT: 1, OPTION: 1, TEMPLATE: 1 };
  function swapNode(root) {
    if (!swaps.length || !root) return;
    if (root.nodeType === 3) {
      var t = swapText(root.nodeValue);
      if (t !== root.nodeValue) root.nodeValue = t;
      return;
    }
    if (root.nodeType !== 1 || SKIP[root.nodeName]) return;
    var walker = d.createTreeWalker(root, 4, {
      acceptNode: function (n) {
        return n.parentNode && SKIP[n.parentNode.nodeName] ? 2 : 1;
      },
    });
    var n;
    var list = [];
    while ((n = walker.nextNode())) list.push(n);
    for (var i = 0; i < list.length; i++) {
      var v = swapText(list[i].nodeValue);
      if (v !== list[i].nodeValue) list[i].nodeValue = v;
    }
    swapSplit(root, list);
    var links = root.querySelectorAll ? root.querySelectorAll('a[href^="tel:"]') : [];
    if (root.nodeName === 'A') links = [root].concat([].slice.call(links));
    for (var j = 0; j < links.length; j++) {
      var href = links[j].getAttribute('href');
      if (!href || href.slice(0, 4) !== 'tel:') continue;
      var h = 'tel:' + swapText(' ' + href.slice(4)).slice(1);
      if (h !== href) links[j].setAttribute('href', h);
    }
  }
  function observe() {
    if (observer || !w.MutationObserver) return;
    var queue = [];
    var scheduled = false;
    observer = new w.MutationObserver(function (muts) {
      for (var i = 0; i < muts.length; i++) {
        var m = muts[i];
        if (m.type === 'characterData') queue.push(m.target);
        else if (m.type === 'attributes') queue.push(m.target);
        else for (var j = 0; j < m.addedNodes.length; j++) queue.push(m.addedNodes[j]);
      }
      if (!scheduled) {
        scheduled = true;
        setTimeout(function () {
          scheduled = false;
          var q = queue;
          queue = [];
          for (var k = 0; k < q.length; k++) swapNode(q[k]);
        }, 0);
      }
    });
    observer.observe(d.documentElement, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['href'] });
  }

  // ------------------------------------------------------------ session, page views, heartbeat

  function apply(j) {
    if (!j || !j.session_id || !consented) return;
    sid = j.session_id;
    vid = j.visitor_id;
    swaps = j.swaps || [];
    compile();
    save(1800);
    swapNode(d.body);
    observe();
    if (!hbTimer) {
      hbTimer = setInterval(
        function () {
          if (!consented || d.visibilityState === 'hidden' || !sid) return;
          call('/heartbeat', { session_id: sid }, function (r) {
            if (r && r.active === false) open();
            else save(1800);
          });
        },
        (j.heartbeat_s || 60) * 1000,
      );
    }
  }
  /**
   * The session request's query: the page, the kept ids, and the GA4 and Meta cookies for the integrations (`_ga`,
   * `_ga_<stream>` as stream:value joined by !, `_fbp`, `_fbc`; docs/tracking.md "Ad platform ids").
   */
  function sessionQuery() {
    var q = { url: lastUrl, referrer: d.referrer, title: d.title, session_id: sid, visitor_id: vid };
    var gs = [];
    var all = d.cookie ? d.cookie.split('; ') : [];
    for (var i = 0; i < all.length; i++) {
      var at = all[i].indexOf('=');
      var n = all[i].slice(0, at);
      var v = all[i].slice(at + 1, at + 501);
      if (n === '_ga' || n === '_fbp' || n === '_fbc') q[n.slice(1)] = v;
      else if (n.indexOf('_ga_') === 0) gs.push(n.slice(4) + ':' + v);
    }
    q.gs = gs.join('!').slice(0, 500);
    return q;
  }
  function open() {
    if (pending || !consented) return;
    pending = true;
    lastUrl = w.location.href;
    call('/session', sessionQuery(), function (j) {
      pending = false;
      apply(j);
    });
  }
  function navigated() {
    if (!started || !consented || w.location.href === lastUrl) return;
    lastUrl = w.location.href;
    if (!sid) return open();
    call('/pageview', { session_id: sid, url: lastUrl, title: d.title }, function (r) {
      if (!consented) return;
      if (r && r.active === false) {
        sid = null;
        open();
      } else if (r) save(1800);
      swapNode(d.body);
    });
  }
  function hookHistory() {
    var h = w.history;
    ['pushState', 'replaceState'].forEach(function (name) {
      var orig = h[name];
      if (!orig) return;
      h[name] = function () {
        var r = orig.apply(this, arguments);
        setTimeout(navigated, 0);
        return r;
      };
    });
    w.addEventListener('popstate', function () {
      setTimeout(navigated, 0);
    });
  }
  function start() {
    if (started || !consented) return;
    started = true;
    load();
    if (!hooked) hookHistory();
    hooked = true;
    if (d.readyState === 'loading') d.addEventListener('DOMContentLoaded', open);
    else open();
  }

  /** Consent withdrawn: stop everything, put the page's own numbers back, forget the ids (see the header). */
  function withdraw() {
    var had = started;
    consented = started = pending = false;
    clearInterval(hbTimer);
    hbTimer = null;
    if (observer) observer.disconnect();
    observer = null;
    for (var i = 0; i < swaps.length; i++) swaps[i] = { target: swaps[i].number, number: swaps[i].target };
    compile();
    swapNode(d.body);
    swaps = [];
    sid = vid = null;
    try {
      w.localStorage.removeItem(KEY);
    } catch (e) {
      /* storage blocked */
    }
    // The visitor cookie is httpOnly (set by the server): only the server's answer can remove it.
    if (had) w.fetch(cfg.a + '/forget', { credentials: 'include', keepalive: true })['catch'](function () {});
  }

  // ------------------------------------------------------------ public API

  var queued = w.switchboardDni;
  var api = {
    /** Grants (true) or withdraws (false) consent; with consent the script starts, without it it stops and forgets. */
    consent: function (granted) {
      if (granted === false) return withdraw();
      consented = true;
      start();
    },
    /** The number shown for a target number (E.164), or null. */
    numberFor: function (target) {
      for (var i = 0; i < swaps.length; i++) if (swaps[i].target === target) return swaps[i].number;
      return null;
    },
    /** Swaps numbers inside an element rendered outside the observed document (e.g. a shadow root). */
    swap: function (el) {
      swapNode(el);
    },
    push: function (cmd) {
      if (cmd && typeof api[cmd[0]] === 'function') api[cmd[0]].apply(api, cmd.slice(1));
    },
  };
  w.switchboardDni = api;
  if (queued && queued.length) for (var q = 0; q < queued.length; q++) api.push(queued[q]);
  start();
})(window, document, typeof __sbdni === 'object' ? __sbdni : null);
