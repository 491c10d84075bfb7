/**
 * Session, sign-in, account and MFA payloads (foundation §3 "Session", "Current user"; §7
 * "Session and account calls"). Paths are under `/api`. Design decisions for what the spec
 * marks "not shown" (MFA paths, token lifetimes, throttle limits) are in docs/auth.md.
 */
import { z } from 'zod';

/** Roles a user can hold in a company (foundation §6). */
export const ROLES = ['owner', 'administrator', 'billing', 'reporting', 'user', 'deactivated'] as const;
export const RoleSchema = z.enum(ROLES);

/** A company the current user belongs to, with the user's role there. */
export const UserCompany = z.object({ id: z.number().int(), name: z.string(), role: RoleSchema });

/**
 * `GET /api/user`: the signed-in person (foundation §3 "Current user").
 * `sip_address`, `sip_user`, `sip_password` are present only when set (in-app calling needs all three).
 * `timezone` is always a known IANA zone (the stored one, else America/New_York).
 */
export const CurrentUser = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  timezone: z.string(),
  support_pins: z.string().nullable(),
  read_whats_new_at: z.string().nullable(),
  hasBusinessUnits: z.boolean(),
  in_app_calling_status: z.enum(['active', 'away']),
  companies: z.array(UserCompany),
  /**
   * The Session's `isAdmin` (spec 000 §3): true in an admin session (an operator acting in this account; docs/auth.md
   * "Admin mode"). The web then sends ADMIN_MODE_HEADER on every request.
   */
  isAdmin: z.boolean(),
  sip_address: z.string().optional(),
  sip_user: z.string().optional(),
  sip_password: z.string().optional(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** `{ user }` — the answer of every call that signs in or changes the user. */
export const UserEnvelope = z.object({ user: CurrentUser });
export type UserEnvelope = z.infer<typeof UserEnvelope>;

const email = z.string({ error: 'The email field is required.' }).trim().min(1, 'The email field is required.').max(255);
const password = z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.').max(1000);
/** A 6-digit TOTP code. */
export const MfaCode = z
  .string({ error: 'The code field is required.' })
  .trim()
  .regex(/^\d{6}$/, 'The code must be 6 digits.');

/** `POST /api/sanctum/login`. `remember: true` = a 14-day persistent cookie; otherwise a browser-session cookie (docs/auth.md). */
export const LoginBody = z.object({ email, password, remember: z.boolean().optional() });
export type LoginBody = z.infer<typeof LoginBody>;
/** MFA required: the session exists but only `POST /api/sanctum/mfa` accepts it. */
export const MfaRequired = z.object({ mfa_required: z.literal(true) });
/** `POST /api/sanctum/login` 200: `{ user }` or `{ mfa_required: true }`. */
export const LoginResponse = z.union([UserEnvelope, MfaRequired]);
export type LoginResponse = z.infer<typeof LoginResponse>;

/** `POST /api/sanctum/mfa`, `POST /api/user/mfa/verify`. */
export const MfaCodeBody = z.object({ code: MfaCode });
export type MfaCodeBody = z.infer<typeof MfaCodeBody>;

/** `GET /api/user/mfa`. */
export const MfaStatus = z.object({ enabled: z.boolean() });
export type MfaStatus = z.infer<typeof MfaStatus>;
/** `GET /api/user/mfa/qr`: a new pending secret to scan; `qr` is a `data:image/png;base64,...` URL. */
export const MfaQr = z.object({ secret: z.string(), otpauth_url: z.string(), qr: z.string() });
export type MfaQr = z.infer<typeof MfaQr>;
/** `DELETE /api/user/mfa`: a current code or the password. */
export const MfaDisableBody = z.object({ code: MfaCode.optional(), password: z.string().optional() });
export type MfaDisableBody = z.infer<typeof MfaDisableBody>;

/** `POST /api/sanctum/createTokenSession` (mobile). */
export const TokenSessionBody = z.object({ email, password, device_name: z.string().max(255).optional() });
export type TokenSessionBody = z.infer<typeof TokenSessionBody>;
/** A bearer token for `Authorization: Bearer`; `expires_in` in seconds. */
export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.null(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;
/** MFA required for a token session: send `mfa_token` and the code to `POST /api/sanctum/mfaToken`. */
export const TokenMfaRequired = z.object({ mfa_required: z.literal(true), mfa_token: z.string() });
export const TokenSessionResponse = z.union([TokenResponse, TokenMfaRequired]);
export type TokenSessionResponse = z.infer<typeof TokenSessionResponse>;
/** `POST /api/sanctum/mfaToken`. */
export const MfaTokenBody = z.object({ mfa_token: z.string().min(1), code: MfaCode });
export type MfaTokenBody = z.infer<typeof MfaTokenBody>;

/** `POST /api/password/forgot`. */
export const ForgotPasswordBody = z.object({ email });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;
/** `POST /api/password/reset`. */
export const ResetPasswordBody = z.object({
  token: z.string({ error: 'The token field is required.' }).min(1, 'The token field is required.'),
  email,
  password: z.string({ error: 'The password field is required.' }),
  password_confirmation: z.string().optional(),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** `POST /api/client/signup/check` and `/create`. Field rules are checked by the server (422 per field). */
export const SignupBody = z.object({
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  email: z.string().optional(),
  password: z.string().optional(),
  company_name: z.string().optional(),
  timezone: z.string().optional(),
});
export type SignupBody = z.infer<typeof SignupBody>;
export const SignupCheckResponse = z.object({ ok: z.literal(true) });
/** `POST /api/client/signup/create` 201. */
export const SignupCreateResponse = z.object({ user: CurrentUser, company: z.object({ id: z.number().int(), name: z.string() }) });
export type SignupCreateResponse = z.infer<typeof SignupCreateResponse>;

/** One company of the caller for the company switcher. */
export const CompanySummary = z.object({
  id: z.number().int(),
  name: z.string(),
  role: RoleSchema,
  timezone: z.string(),
  organization_id: z.number().int().nullable(),
});
export type CompanySummary = z.infer<typeof CompanySummary>;
/** `GET /api/companies`. */
export const CompanyList = z.object({ data: z.array(CompanySummary) });
export type CompanyList = z.infer<typeof CompanyList>;

/** `GET /api/dev/outbox` (development only): recorded e-mails, newest first. */
export const OutboxEntry = z.object({ id: z.number().int(), to: z.string(), subject: z.string(), text: z.string(), created_at: z.string() });
export const OutboxList = z.object({ data: z.array(OutboxEntry) });
export type OutboxList = z.infer<typeof OutboxList>;

// Admin mode (spec 000 §3 Session `isAdmin`, §4 "Admin login", §7 `GET /sanctum/remoteLogin/{x}`; docs/auth.md "Admin mode").

/** Path of `GET /api/sanctum/remoteLogin/{x}`: `x` is the id of the account (company) the operator opens. */
export const RemoteLoginParams = z.object({
  x: z.coerce.number({ error: 'The account id must be a number.' }).int('The account id must be a number.').positive('The account id must be a number.'),
});
export type RemoteLoginParams = z.infer<typeof RemoteLoginParams>;

/** The admin facts of the current session: `isAdmin` false and the rest null outside admin mode. `expires_at` is UTC ISO 8601. */
export const AdminSession = z.object({
  isAdmin: z.boolean(),
  operator: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).nullable(),
  company: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  started_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  /** True for an operator outside admin mode: the app offers "Open an account". */
  can_open_accounts: z.boolean(),
});
export type AdminSession = z.infer<typeof AdminSession>;

/** `GET /api/sanctum/remoteLogin/{x}`: the person the operator now acts as, and the admin session. */
export const RemoteLoginResponse = z.object({ user: CurrentUser, admin: AdminSession });
export type RemoteLoginResponse = z.infer<typeof RemoteLoginResponse>;

// The admin-mode header and its 409 message live in a zod-free module (the web's sign-in page imports them).
export { ADMIN_MODE_HEADER, ADMIN_MODE_MISMATCH } from './admin-mode.js';

// MFA by SMS (spec 000 §7 MFA `sendCode`, `reactivate`; docs/auth.md "MFA by SMS").

/** `POST /api/user/mfa/sms`: the phone to text codes to (parsed with the foundation's rules, stored E.164). */
export const SmsMfaEnrolBody = z.object({
  phone: z.string({ error: 'The phone field is required.' }).trim().min(1, 'The phone field is required.').max(40, 'The phone must be a valid phone number.'),
});
export type SmsMfaEnrolBody = z.infer<typeof SmsMfaEnrolBody>;
/** Whether SMS codes are on, and the last 4 digits of the phone on file (null without one). */
export const SmsMfaStatus = z.object({ enabled: z.boolean(), phone_last4: z.string().nullable() });
export type SmsMfaStatus = z.infer<typeof SmsMfaStatus>;
/** `DELETE /api/user/mfa/sms`: the password. */
export const SmsMfaDisableBody = z.object({
  password: z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.').max(1000),
});
export type SmsMfaDisableBody = z.infer<typeof SmsMfaDisableBody>;

// OIDC sign-in with Google and Microsoft, and the consent context (spec 000 §7 "GET, POST /oauth provider redirect,
// callback and token", "GET /oauth/consent/context | nonce"; docs/auth.md "OIDC sign-in").

/** Providers a person may sign in with; the server offers only the configured ones (`GET /api/oauth/providers`). */
export const OIDC_PROVIDERS = ['google', 'microsoft'] as const;
export const OidcProviderIdSchema = z.enum(OIDC_PROVIDERS);
export type OidcProviderId = z.infer<typeof OidcProviderIdSchema>;

/** `GET /api/oauth/providers`: the configured providers, in display order ("Continue with {name}"). */
export const OidcProviderList = z.object({ data: z.array(z.object({ id: OidcProviderIdSchema, name: z.string() })) });
export type OidcProviderList = z.infer<typeof OidcProviderList>;

/** Path of `/api/oauth/{provider}/redirect` and `/callback`: an unknown or unconfigured provider answers 404. */
export const OidcProviderParams = z.object({ provider: z.string().max(40) });

/**
 * `GET /api/oauth/{provider}/redirect` query: `remember` = "Remember me" (`1`/`true`: the 14-day cookie);
 * `return_to` = the app path to open after signing in (a path on this site: starts with one `/`).
 */
export const OidcRedirectQuery = z.object({
  remember: z.enum(['0', '1', 'true', 'false'], { error: 'The remember field must be 0 or 1.' }).optional(),
  return_to: z
    .string()
    .max(2000, 'The return_to field must be a path of this site.')
    // One leading slash, then no second slash or backslash, and no whitespace or control character anywhere: browsers
    // drop tabs and newlines from URLs, so `/\t/evil.example` would become `//evil.example` (another site).
    .regex(/^\/(?![/\\])[^\s\\\u0000-\u001f\u007f]*$/, 'The return_to field must be a path of this site.')
    .optional(),
});
export type OidcRedirectQuery = z.infer<typeof OidcRedirectQuery>;

/** A query parameter as a provider may send it (once, or repeated). */
const callbackParam = z.union([z.string(), z.array(z.string())]).optional();
/**
 * `GET /api/oauth/{provider}/callback` query, as the provider sends it (other parameters are allowed). Never a 422: the
 * server checks the raw response itself and sends the browser to the sign-in page with a reason.
 */
export const OidcCallbackQuery = z.object({ code: callbackParam, state: callbackParam, error: callbackParam, error_description: callbackParam });

/**
 * Why an OIDC sign-in was refused: the callback sends the browser to `/login?oauth_error=<code>&provider=<id>` and the
 * sign-in page shows the code's text (apps/web features/auth/oidc-messages.ts; docs/auth.md "OIDC sign-in").
 */
export const OIDC_SIGN_IN_ERRORS = ['unverified_email', 'unknown_email', 'no_email', 'deactivated', 'cancelled', 'expired', 'failed', 'unavailable'] as const;
export type OidcSignInError = (typeof OIDC_SIGN_IN_ERRORS)[number];

/** A consent nonce: the random value the callback put in `/login?oauth_consent=<nonce>`. */
const consentNonce = z
  .string({ error: 'The nonce field is required.' })
  .trim()
  .min(1, 'The nonce field is required.')
  .max(200, 'The nonce is invalid.')
  .regex(/^[A-Za-z0-9_-]+$/, 'The nonce is invalid.');

/** `GET /api/oauth/consent/context?nonce=`. */
export const OidcConsentQuery = z.object({ nonce: consentNonce });

/**
 * `GET /api/oauth/consent/context`: what the consent screen shows before a provider account is linked to the
 * Switchboard account with the same verified e-mail: the client asking (`client_name`, this app), the provider, the
 * scopes it was granted with what each gives, the Switchboard user, the provider account, and when the request
 * ends (UTC ISO 8601).
 */
export const OidcConsentContext = z.object({
  nonce: z.string(),
  client_name: z.string(),
  provider: z.object({ id: OidcProviderIdSchema, name: z.string() }),
  scopes: z.array(z.object({ scope: z.string(), description: z.string() })),
  user: z.object({ email: z.string(), name: z.string() }),
  identity: z.object({ email: z.string(), name: z.string().nullable() }),
  expires_at: z.string(),
});
export type OidcConsentContext = z.infer<typeof OidcConsentContext>;

/** `POST /api/oauth/consent`: `approve` true links and signs in; false drops the request. */
export const OidcConsentBody = z.object({
  nonce: consentNonce,
  approve: z.boolean({ error: 'The approve field must be true or false.' }),
});
export type OidcConsentBody = z.infer<typeof OidcConsentBody>;

/** Approved: as `POST /sanctum/login` (`{user}` or `{mfa_required:true}`); refused: `{cancelled:true}`. */
export const OidcConsentResponse = z.union([UserEnvelope, MfaRequired, z.object({ cancelled: z.literal(true) })]);
export type OidcConsentResponse = z.infer<typeof OidcConsentResponse>;

/** A provider account linked to the current user (`GET /api/user/oauth-identities`); times UTC ISO 8601. */
export const OidcIdentity = z.object({
  id: z.number().int(),
  provider: OidcProviderIdSchema,
  provider_name: z.string(),
  email: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type OidcIdentity = z.infer<typeof OidcIdentity>;
export const OidcIdentityList = z.object({ data: z.array(OidcIdentity) });
export type OidcIdentityList = z.infer<typeof OidcIdentityList>;
/** Path of `DELETE /api/user/oauth-identities/{id}`. */
export const OidcIdentityParams = z.object({
  id: z.coerce.number({ error: 'The id must be a number.' }).int('The id must be a number.').positive('The id must be a number.'),
});

/**
 * `POST /oauth/{provider}/token` (spec 000 §7 "GET, POST /oauth provider redirect, callback and token"; docs/auth.md
 * "OIDC sign-in"): a mobile app that ran the provider's code flow with PKCE itself trades the code for a bearer token.
 * `redirect_uri` is the one the app sent to the provider (the provider checks they match); `nonce` the one it sent, if any.
 */
export const OidcTokenBody = z.object({
  code: z.string().min(1).max(2048),
  code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, 'The code verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~".'),
  redirect_uri: z.string().url().max(2000),
  nonce: z.string().min(1).max(255).optional(),
  device_name: z.string().max(255).optional(),
});
export type OidcTokenBody = z.infer<typeof OidcTokenBody>;
