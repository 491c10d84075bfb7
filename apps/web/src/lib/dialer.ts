/**
 * A tiny bridge between "Call" buttons anywhere in the app and the header softphone's dialer
 * (web features do not import each other): `openDialer(number)` opens the dialer with the number.
 */
type Listener = (number: string) => void;
const listeners = new Set<Listener>();

/** Opens the softphone's dialer with `number` filled in (E.164 or as typed). */
export function openDialer(number: string): void {
  for (const l of listeners) l(number);
}

/** The softphone subscribes here; returns the unsubscribe function. */
export function onOpenDialer(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
