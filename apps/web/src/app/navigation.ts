/**
 * Navigation from outside React (the forced logout in lib/http): the router on screen (the public one or the
 * signed-in one, app/App.tsx) registers how it navigates. And the signed-in app's chunk, loaded once.
 */

/** The signed-in app's module (app/router.tsx, its own chunk), loaded on first call. */
export function loadSignedInApp(): Promise<typeof import('./router')> {
  signedInApp ??= import('./router');
  return signedInApp;
}
let signedInApp: Promise<typeof import('./router')> | undefined;

type Navigator = (to: string, options?: { replace?: boolean }) => void;

let current: Navigator | null = null;

/** Registers the navigator of the router on screen; returns the function that unregisters it. */
export function setNavigator(navigator: Navigator): () => void {
  current = navigator;
  return () => {
    if (current === navigator) current = null;
  };
}

/** Goes to `to` (an app path) with the router on screen, else by loading the page. */
export function navigateApp(to: string, options?: { replace?: boolean }): void {
  if (current) current(to, options);
  else if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
}
