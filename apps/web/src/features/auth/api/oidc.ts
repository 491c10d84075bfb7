/**
 * OIDC sign-in with Google and Microsoft (spec 000 §7 "/oauth", "GET /oauth/consent/context"; docs/auth.md
 * "OIDC sign-in"): the configured providers, the start URL (a full-page navigation, not a fetch), the consent
 * context and decision, and the person's linked accounts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OidcConsentContext, OidcConsentResponse, OidcIdentityList, OidcProviderList } from '@switchboard/contracts';
import { http } from '../../../lib/http';

/** GET /api/oauth/providers: the configured providers (none in the sandbox). Public, so no 401 handling. */
export function useOidcProviders() {
  return useQuery({
    queryKey: ['oauth', 'providers'],
    queryFn: () => http.get<OidcProviderList>('/api/oauth/providers', { skipAuthHandling: true, silent: true }),
    staleTime: Infinity,
    retry: false,
  });
}

/** The URL that starts a sign-in with `provider` (the browser goes there; the server redirects to the provider). */
export function oidcStartUrl(provider: string, options: { remember: boolean; returnTo?: string }): string {
  const q = new URLSearchParams({ remember: options.remember ? '1' : '0' });
  if (options.returnTo && /^\/(?![/\\])[^\s\\\u0000-\u001f\u007f]*$/.test(options.returnTo)) q.set('return_to', options.returnTo);
  return `/api/oauth/${encodeURIComponent(provider)}/redirect?${q}`;
}

/** GET /api/oauth/consent/context?nonce=: what the consent screen shows (404 once used or expired). */
export function useOidcConsentContext(nonce: string) {
  return useQuery({
    queryKey: ['oauth', 'consent', nonce],
    queryFn: () => http.get<OidcConsentContext>('/api/oauth/consent/context', { params: { nonce }, skipAuthHandling: true, silent: true }),
    retry: false,
    staleTime: Infinity,
  });
}

/** POST /api/oauth/consent: approve (links and signs in: `{user}` or `{mfa_required}`) or refuse (`{cancelled}`). */
export function useDecideOidcConsent() {
  return useMutation({
    mutationFn: (input: { nonce: string; approve: boolean }) =>
      http.post<OidcConsentResponse>('/api/oauth/consent', input, { skipAuthHandling: true, silent: true }),
  });
}

/** GET /api/user/oauth-identities: the Google and Microsoft accounts linked to the signed-in person. */
export function useOidcIdentities() {
  return useQuery({ queryKey: ['oauth', 'identities'], queryFn: () => http.get<OidcIdentityList>('/api/user/oauth-identities') });
}

/** DELETE /api/user/oauth-identities/{id}: unlinks one; the list is refreshed. */
export function useUnlinkOidcIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<null>(`/api/user/oauth-identities/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['oauth', 'identities'] }),
  });
}
