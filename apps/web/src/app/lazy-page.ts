import { lazy, type ComponentType } from 'react';

/** The route `handle` of a lazily loaded page: `preload()` starts fetching its chunk (guards.tsx RequireAuth). */
export interface PreloadHandle {
  preload?: () => Promise<unknown>;
}

/** A lazily loaded page: the route's `Component` (React.lazy) and `handle.preload`. */
export interface LazyPage {
  Component: ComponentType;
  handle: PreloadHandle;
}

/**
 * One lazy component per page export: two routes showing the same page (`/inbox` and `/inbox/:conversationId`) keep
 * one component type, so moving between them keeps the page's state.
 */
const pages = new Map<string, LazyPage>();

/**
 * A page loaded when it is first shown: its own script chunk, fetched with Mantine's whole stylesheet
 * (app/full-styles.ts; main.tsx carries only what the sign-in page needs). `page(() => import('…'), 'ExportName')`
 * gives the route's `Component` and a `handle.preload()`; a `<Suspense>` above shows the loader meanwhile.
 *
 * It is a React.lazy component, not the router's `lazy`: a router fetches every matched route's `lazy` as soon as it
 * matches, before any guard has run, so a signed-out visitor opening a deep link would download the page (and the
 * signed-in shell) just to be sent to the sign-in form. A React.lazy page is fetched only when rendered, which
 * RequireAuth does only for a signed-in user; it preloads the matched pages together so the layout and the page
 * do not load one after the other (apps/web/README.md "First page").
 */
export function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): LazyPage {
  let entry = pages.get(name);
  if (!entry) {
    let loading: Promise<{ default: ComponentType }> | undefined;
    const preload = () => (loading ??= Promise.all([load(), import('./full-styles')]).then(([module]) => ({ default: module[name] as ComponentType })));
    entry = { Component: lazy(preload), handle: { preload } };
    pages.set(name, entry);
  }
  return entry;
}
