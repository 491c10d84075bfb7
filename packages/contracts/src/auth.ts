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
