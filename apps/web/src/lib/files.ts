/**
 * Links to the product's own files (recordings, voicemails, greetings, message media) are served
 * at `/files/...` to the owning company's signed-in users (docs/architecture.md "Files"). The API
 * answers absolute URLs built on the server's `PUBLIC_URL` (the carrier needs those); a browser
 * that reached the app under another host name (127.0.0.1, a LAN address, a proxy) would send no
 * session cookie to that host. So the web always asks its own origin for them.
 */

/**
 * The same-origin form of a file URL: `https://any-host/files/c/1/x.wav?sig=…` → `/files/c/1/x.wav?sig=…`;
 * anything else (another site's media, a blob: or data: URL, an empty string) is returned unchanged.
 */
export function fileSrc(url: string | null | undefined): string {
  if (!url) return '';
  try {
    const u = new URL(url, typeof window === 'undefined' ? 'http://localhost' : window.location.origin);
    return u.pathname.startsWith('/files/') && (u.protocol === 'http:' || u.protocol === 'https:') ? `${u.pathname}${u.search}` : url;
  } catch (e) {
    if (e instanceof TypeError) return url; // not a URL at all: leave it to the element
    throw e;
  }
}
