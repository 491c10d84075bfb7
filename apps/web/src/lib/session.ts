/**
 * The browser session (foundation §3 "Session", §4 "Session"): the signed-in user, an optional
 * bearer token and the selected company. A tiny external store so both React (useSession) and the
 * HTTP client (`:companyId` substitution, bearer header) read the same state.
 *
 * The selected company id is remembered in localStorage so a reload keeps the same company.
 */
import type { CurrentUser } from '@switchboard/contracts';
import { useSyncExternalStore } from 'react';

/** The signed-in user (GET /api/user; packages/contracts `CurrentUser`). */
export type SessionUser = CurrentUser;
/** A company the user belongs to, with the user's role there. */
export type SessionCompany = SessionUser['companies'][number];

export type SessionStatus = 'unknown' | 'authenticated' | 'anonymous';

export interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  /** Bearer token; cookie sessions leave it null. */
  token: string | null;
  companyId: number | null;
}

const COMPANY_STORAGE_KEY = 'switchboard.companyId';

function storedCompanyId(): number | null {
  try {
    const raw = globalThis.localStorage?.getItem(COMPANY_STORAGE_KEY);
    const id = raw ? Number(raw) : NaN;
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch (error) {
    if (error instanceof DOMException) return null; // storage unavailable (disabled, private mode)
    throw error;
  }
}

let state: SessionState = { status: 'unknown', user: null, token: null, companyId: storedCompanyId() };
const listeners = new Set<() => void>();

function emit(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** The current session (non-reactive; for non-React code). */
export function getSession(): SessionState {
  return state;
}

/**
 * Stores the signed-in user (login success, or the bootstrap GET /api/user). Keeps the selected
 * company when the user still belongs to it, else selects the user's first company.
 */
export function signIn(user: SessionUser, token: string | null = state.token): void {
  const companies = user.companies ?? [];
  const keep = companies.some((c) => c.id === state.companyId);
  const companyId = keep ? state.companyId : (companies[0]?.id ?? null);
  persistCompany(companyId);
  emit({ status: 'authenticated', user: { ...user, companies }, token, companyId });
}

/** Replaces the user object (e.g. after What's New is marked read) without touching the rest. */
export function updateUser(user: SessionUser): void {
  if (state.status === 'authenticated') emit({ ...state, user });
}

/** Marks the visitor as signed out and clears the session (foundation §4 "Logout clears the session"). */
export function clearSession(): void {
  emit({ status: 'anonymous', user: null, token: null, companyId: state.companyId });
}

/** Selects a company; `:companyId` in request paths resolves to it from now on. */
export function selectCompany(companyId: number): void {
  persistCompany(companyId);
  emit({ ...state, companyId });
}

function persistCompany(companyId: number | null): void {
  try {
    if (companyId === null) globalThis.localStorage?.removeItem(COMPANY_STORAGE_KEY);
    else globalThis.localStorage?.setItem(COMPANY_STORAGE_KEY, String(companyId));
  } catch (error) {
    if (!(error instanceof DOMException)) throw error; // else storage unavailable or full: kept in memory only
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** React hook over the session store. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

/** The selected company id, or null before one is known. */
export function useCompanyId(): number | null {
  return useSession().companyId;
}
