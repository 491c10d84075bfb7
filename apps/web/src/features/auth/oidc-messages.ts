/**
 * The sign-in page's text for each OIDC refusal code (`/login?oauth_error=<code>&provider=<id>`; contracts
 * `OIDC_SIGN_IN_ERRORS`, docs/auth.md "OIDC sign-in"). Kept here, with a type-only import, so the sign-in page's
 * chunk carries no schema code.
 */
import type { OidcSignInError } from '@switchboard/contracts';

const MESSAGES: Record<OidcSignInError, string> = {
  unverified_email:
    '{provider} has not verified the e-mail address of this account, so it cannot be linked to a Switchboard account. Sign in with your password.',
  unknown_email:
    'No Switchboard account uses the e-mail address of this {provider} account. Sign in with your password, or ask your administrator for an invitation.',
  no_email: '{provider} did not share an e-mail address for this account. Sign in with your password.',
  deactivated: 'This account has been deactivated.',
  cancelled: 'Sign-in with {provider} was cancelled.',
  expired: 'Sign-in with {provider} took too long or was started in another browser. Please try again.',
  failed: 'Sign-in with {provider} failed. Please try again.',
  unavailable: '{provider} could not be reached. Please try again later, or sign in with your password.',
};

/** The text of a refusal code for a provider name ("Google"); an unknown code reads as `failed`. */
export function oidcErrorMessage(code: string, providerName: string): string {
  const template = (MESSAGES as Record<string, string>)[code] ?? MESSAGES.failed;
  return template.replaceAll('{provider}', providerName);
}
