/**
 * The consumer area's entry, loaded by the route `/caddy/*` (app/public-routes.tsx) before the area itself. A step of
 * its own so the main chunk holds one import without dependencies: the area's list of chunks to preload (its shared
 * Mantine pieces, icons, contracts) sits here, not in the script every visitor of the sign-in page downloads
 * (e2e/tests/web-performance.spec.ts: the sign-in page's 150 KB budget).
 */
export const loadCaddyApp = () => import('./components/CaddyApp');
