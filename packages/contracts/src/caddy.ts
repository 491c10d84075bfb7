/**
 * Consumer area contracts (spec 002 "Consumer area", "Consumer account", "Consumer number"; docs/consumer-area.md).
 * The paths are the spec's under `/api`: `/api/caddy/...`. A consumer session is a bearer token
 * (`Authorization: Bearer <token>`) answered by the second step of sign-up or sign-in; it is not a session of the
 * business product and reaches no business route (nor does a business session reach a `/caddy` route).
 * Times are ISO 8601 UTC; phone numbers E.164.
 */
import { z } from 'zod';
import { Id } from './common.js';

/** Examples shown in the OpenAPI document (the `x-examples` of platform/http/openapi-examples.ts). */
function example<T extends z.ZodType>(schema: T, value: unknown, summary = 'Example'): T {
  return schema.meta({ 'x-examples': { example: { summary, value } } }) as T;
}

/** Plans (spec 002 "Consumer account"); `unlimited` is the legacy plan. */
export const CADDY_PLANS = [
  'unlimited',
  'starter',
  'unlimited_monthly',
  'unlimited_yearly',
  'premium_monthly',
  'premium_yearly',
  'deluxe_monthly',
  'deluxe_yearly',
] as const;
export type CaddyPlan = (typeof CADDY_PLANS)[number];

/** Subscription statuses (spec 002 "Consumer account"). */
export const CADDY_SUBSCRIPTION_STATUSES = ['active', 'canceling', 'expired', 'refunding', 'retry_period', 'not_subscribed'] as const;
export type CaddySubscriptionStatus = (typeof CADDY_SUBSCRIPTION_STATUSES)[number];

/**
 * What each plan includes (not shown in the spec; docs/consumer-area.md "Plans"): numbers held at once, minutes and
 * texts per calendar month (UTC). `null` = no monthly cap (a fair-use ceiling still applies: `fairUse`).
 */
export const CADDY_PLAN_LIMITS: Record<CaddyPlan, { label: string; numbers: number; minutes: number | null; texts: number | null }> = {
  starter: { label: 'Starter', numbers: 1, minutes: 60, texts: 100 },
  unlimited: { label: 'Unlimited (legacy)', numbers: 1, minutes: null, texts: null },
  unlimited_monthly: { label: 'Unlimited, monthly', numbers: 1, minutes: null, texts: null },
  unlimited_yearly: { label: 'Unlimited, yearly', numbers: 1, minutes: null, texts: null },
  premium_monthly: { label: 'Premium, monthly', numbers: 3, minutes: null, texts: null },
  premium_yearly: { label: 'Premium, yearly', numbers: 3, minutes: null, texts: null },
  deluxe_monthly: { label: 'Deluxe, monthly', numbers: 5, minutes: null, texts: null },
  deluxe_yearly: { label: 'Deluxe, yearly', numbers: 5, minutes: null, texts: null },
};
/** The fair-use ceiling of the plans without a monthly cap (per month). */
export const CADDY_FAIR_USE = { minutes: 5000, texts: 10000 } as const;

/** Days an inactive number is kept before it is released (spec 002 constants: 30 days). */
export const CADDY_REMOVAL_DAYS = 30;
/** Page size of the invitations list (spec 002: perPage 1000). */
export const CADDY_INVITATIONS_PER_PAGE = 1000;
/** Support upload limits: bytes and types. */
export const CADDY_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const CADDY_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'] as const;

/** Messages a person sees (docs/consumer-area.md). */
export const CADDY_MESSAGES = {
  codeSentEmail: 'We sent a 6-digit code to your e-mail. Enter it to continue.',
  codeSentPhone: 'We texted a 6-digit code to your phone. Enter it to continue.',
  accountExists: 'An account with this e-mail or phone number already exists. Sign in instead.',
  noAccount: 'No account exists for this sign-in. Sign up first.',
  wrongPassword: 'The e-mail or password is incorrect.',
  codeInvalid: 'The code is not valid. Check it and try again.',
  codeExpired: 'The code has expired or was used too many times. Ask for a new code.',
  passwordChanged: 'Your password was changed.',
  signedOut: 'You are signed out.',
  passwordReset: 'Your password was reset. Sign in with your new password.',
  resetCodeSent: 'If an account exists for this e-mail, we sent it a code to reset the password.',
  profileSaved: 'Your profile was saved.',
  activated: 'Your numbers were updated.',
  numberAdded: 'The number was added to your account.',
  numberReplaced: 'The number was replaced.',
  numberRemoved: 'The number will be removed.',
  invitationSent: 'Your invitation was sent.',
  reviewSaved: 'Thank you for your review.',
  accountDeleted:
    'Your account and its data were deleted and your numbers released. Your app-store subscription is not cancelled by this: cancel it in the App Store or Google Play.',
  reportSent: 'Thank you. Our support team will get back to you.',
  fileUploaded: 'The file was uploaded.',
} as const;

const Email = z.string().trim().toLowerCase().max(254).email('The e-mail must be a valid e-mail address.');
const Phone = z.string().trim().min(1, 'The phone number is required.').max(32);
const Code = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'The code must be 6 digits.');
const Password = z.string().min(8, 'The password must be at least 8 characters.').max(200, 'The password may not be greater than 200 characters.');

/**
 * Sign-up and sign-in body (spec 002: provider, optional code). `provider` is `email` or `phone`; the other providers
 * (`apple`, `google`) have no consumer accounts here (sign-in answers 401). Without `code` a code is sent; with it, the
 * session is answered.
 */
export const CaddyAuthInput = example(
  z.object({
    provider: z.enum(['email', 'phone', 'apple', 'google']),
    email: Email.optional(),
    phoneNumber: Phone.optional(),
    password: z.string().max(200).optional(),
    name: z.string().trim().max(100).optional(),
    code: Code.optional(),
    /** Sign-up through an invitation: the inviting account's invitation link id (optional). */
    invitationId: Id.optional(),
  }),
  { provider: 'email', email: 'sam@example.com', password: 'correct horse 42', name: 'Sam' },
);

/** The consumer session (spec 002 "Consumer account"). */
export const CaddySession = z.object({
  accountId: z.number().int(),
  token: z.string(),
  iapId: z.string(),
  plan: z.enum(CADDY_PLANS),
  subscriptionStatus: z.enum(CADDY_SUBSCRIPTION_STATUSES),
});

/** First step's answer (202): a code was sent. */
export const CaddyCodeSent = example(z.object({ message: z.string(), codeSent: z.literal(true), channel: z.enum(['email', 'phone']) }), {
  message: CADDY_MESSAGES.codeSentEmail,
  codeSent: true,
  channel: 'email',
});
/** Second step's answer (200). */
export const CaddySessionAnswer = example(z.object({ data: CaddySession }), {
  data: { accountId: 7, token: 'q3V…', iapId: '3f1c5a9e-6d8b-4b1e-9f0a-2c7d4e5f6a7b', plan: 'starter', subscriptionStatus: 'not_subscribed' },
});

export const CaddyPasswordInput = example(z.object({ currentPassword: z.string().max(200).optional(), password: Password }), {
  currentPassword: 'correct horse 42',
  password: 'battery staple 43',
});
export const CaddyResetCodeInput = example(z.object({ email: Email }), { email: 'sam@example.com' });
export const CaddyResetInput = example(z.object({ email: Email, code: Code, password: Password }), {
  email: 'sam@example.com',
  code: '123456',
  password: 'battery staple 43',
});

/** The profile. */
export const CaddyProfile = z.object({
  accountId: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  iapId: z.string(),
  plan: z.enum(CADDY_PLANS),
  planLabel: z.string(),
  subscriptionStatus: z.enum(CADDY_SUBSCRIPTION_STATUSES),
  subscriptionStore: z.enum(['apple', 'google', 'sandbox']).nullable(),
  subscriptionExpiresAt: z.string().nullable(),
  hasPassword: z.boolean(),
  createdAt: z.string(),
});
export const CaddyProfileAnswer = example(z.object({ data: CaddyProfile }), {
  data: {
    accountId: 7,
    name: 'Sam',
    email: 'sam@example.com',
    phoneNumber: null,
    iapId: '3f1c5a9e-6d8b-4b1e-9f0a-2c7d4e5f6a7b',
    plan: 'starter',
    planLabel: 'Starter',
    subscriptionStatus: 'not_subscribed',
    subscriptionStore: null,
    subscriptionExpiresAt: null,
    hasPassword: true,
    createdAt: '2026-11-29T10:00:00.000Z',
  },
});
export const CaddyProfileInput = example(z.object({ name: z.string().trim().min(1, 'The name is required.').max(100) }), { name: 'Sam Rivera' });

/** A number offered by the catalogue. */
export const CaddyCatalogNumber = z.object({ number: z.string(), nationalNumber: z.string(), region: z.string().nullable(), locality: z.string().nullable() });
export const CaddyCatalogQuery = example(
  z.object({
    areaCode: z
      .string()
      .trim()
      .regex(/^[2-9]\d{2}$/, 'The area code must be 3 digits.'),
    limit: z.coerce.number().int().min(1).max(50).default(10),
  }),
  { areaCode: '212', limit: 10 },
);
export const CaddyRandomQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) });
export const CaddyCatalogList = example(z.object({ data: z.array(CaddyCatalogNumber) }), {
  data: [{ number: '+12125550142', nationalNumber: '(212) 555-0142', region: 'NY', locality: 'New York' }],
});

/** A number of the account (spec 002 "Consumer number": id, isActive, willBeRemovedAt). */
export const CaddyNumber = z.object({
  id: z.number().int(),
  number: z.string(),
  nationalNumber: z.string(),
  isActive: z.boolean(),
  willBeRemovedAt: z.string().nullable(),
  createdAt: z.string(),
});
export const CaddyNumberList = example(z.object({ data: z.array(CaddyNumber) }), {
  data: [{ id: 3, number: '+12125550142', nationalNumber: '(212) 555-0142', isActive: true, willBeRemovedAt: null, createdAt: '2026-11-29T10:00:00.000Z' }],
});
export const CaddyNumberAnswer = example(z.object({ message: z.string(), data: CaddyNumber }), {
  message: CADDY_MESSAGES.numberAdded,
  data: { id: 3, number: '+12125550142', nationalNumber: '(212) 555-0142', isActive: true, willBeRemovedAt: null, createdAt: '2026-11-29T10:00:00.000Z' },
});
export const CaddyAddInput = example(z.object({ number: Phone }), { number: '+12125550142' });
export const CaddyReplaceInput = example(z.object({ id: Id, number: Phone }), { id: 3, number: '+12125550199' });
export const CaddyActivateInput = example(z.object({ ids: z.array(Id).min(1, 'Choose at least one number.').max(20) }), { ids: [3] });
export const CaddyNumberParams = z.object({ id: Id });

/** `GET /caddy/inactivity`: the numbers that will be removed, and when. */
export const CaddyInactivity = example(
  z.object({ data: z.array(z.object({ id: z.number().int(), number: z.string(), willBeRemovedAt: z.string(), daysLeft: z.number().int() })) }),
  { data: [{ id: 4, number: '+13125550110', willBeRemovedAt: '2026-12-29T10:00:00.000Z', daysLeft: 30 }] },
);

/** Usage of the current month against the plan. */
export const CaddyUsage = z.object({
  period: z.string(),
  plan: z.enum(CADDY_PLANS),
  minutesUsed: z.number(),
  minutesLimit: z.number().nullable(),
  textsUsed: z.number().int(),
  textsLimit: z.number().nullable(),
  textsIn: z.number().int(),
  textsOut: z.number().int(),
  numbersUsed: z.number().int(),
  numbersLimit: z.number().int(),
  overLimit: z.array(z.enum(['minutes', 'texts', 'numbers'])),
});
export const CaddyUsageAnswer = example(z.object({ data: CaddyUsage }), {
  data: {
    period: '2026-11',
    plan: 'starter',
    minutesUsed: 12.5,
    minutesLimit: 60,
    textsUsed: 30,
    textsLimit: 100,
    textsIn: 18,
    textsOut: 12,
    numbersUsed: 1,
    numbersLimit: 1,
    overLimit: [],
  },
});

/** Invitations. */
export const CaddyInvitationInput = example(z.object({ phoneNumber: Phone }), { phoneNumber: '+14155550123' });
export const CaddyInvitation = z.object({
  id: z.number().int(),
  phoneNumber: z.string(),
  status: z.enum(['sent', 'joined']),
  joinedAt: z.string().nullable(),
  createdAt: z.string(),
});
export const CaddyInvitationsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(CADDY_INVITATIONS_PER_PAGE).default(CADDY_INVITATIONS_PER_PAGE),
});
export const CaddyInvitationAnswer = example(z.object({ message: z.string(), data: CaddyInvitation }), {
  message: CADDY_MESSAGES.invitationSent,
  data: { id: 9, phoneNumber: '+14155550123', status: 'sent', joinedAt: null, createdAt: '2026-11-29T10:00:00.000Z' },
});
export const CaddyInvitationList = example(
  z.object({
    data: z.array(CaddyInvitation),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  }),
  {
    data: [{ id: 9, phoneNumber: '+14155550123', status: 'joined', joinedAt: '2026-11-29T11:00:00.000Z', createdAt: '2026-11-29T10:00:00.000Z' }],
    meta: { current_page: 1, per_page: 1000, total: 1, last_page: 1 },
  },
);

/** Reviews: one per account, editable. */
export const CaddyReviewInput = example(
  z.object({
    rating: z.coerce.number().int().min(1, 'The rating must be 1 to 5.').max(5, 'The rating must be 1 to 5.'),
    comment: z.string().trim().max(2000).default(''),
  }),
  { rating: 5, comment: 'Clear calls, easy to set up.' },
);
export const CaddyReview = z.object({ rating: z.number().int(), comment: z.string(), createdAt: z.string(), updatedAt: z.string() });
export const CaddyReviewAnswer = example(z.object({ data: CaddyReview.nullable() }), {
  data: { rating: 5, comment: 'Clear calls, easy to set up.', createdAt: '2026-11-29T10:00:00.000Z', updatedAt: '2026-11-29T10:00:00.000Z' },
});
export const CaddyReviewSaved = example(z.object({ message: z.string(), data: CaddyReview }), {
  message: CADDY_MESSAGES.reviewSaved,
  data: { rating: 5, comment: 'Clear calls, easy to set up.', createdAt: '2026-11-29T10:00:00.000Z', updatedAt: '2026-11-29T10:00:00.000Z' },
});

/** Support. */
export const CaddyUploadAnswer = example(
  z.object({ message: z.string(), data: z.object({ id: z.string(), filename: z.string(), contentType: z.string(), size: z.number().int() }) }),
  { message: CADDY_MESSAGES.fileUploaded, data: { id: '0b7e…', filename: 'screenshot.png', contentType: 'image/png', size: 48213 } },
);
export const CaddyReportAnswer = example(z.object({ message: z.string(), data: z.object({ id: z.number().int(), files: z.number().int() }) }), {
  message: CADDY_MESSAGES.reportSent,
  data: { id: 14, files: 1 },
});
/** The text fields of the multipart customer report (files travel as `files[]`, or ids of earlier uploads as `fileIds[]`). */
export const CaddyReportFields = z.object({
  subject: z.string().trim().min(1, 'The subject is required.').max(200),
  message: z.string().trim().min(1, 'The message is required.').max(5000),
  email: Email.optional(),
  fileIds: z.array(z.string().uuid('The file id is not valid.')).max(5).default([]),
});

/** Message-only answers. */
export const CaddyMessageAnswer = example(z.object({ message: z.string() }), { message: CADDY_MESSAGES.profileSaved });

/** Calls and messages of a number (the screens' view of the shared inbox). */
export const CaddyActivityItem = z.object({
  id: z.number().int(),
  kind: z.enum(['message', 'call', 'voicemail']),
  direction: z.enum(['inbound', 'outbound']),
  otherParty: z.string(),
  body: z.string().nullable(),
  durationS: z.number().nullable(),
  at: z.string(),
});
export const CaddyActivityList = example(z.object({ data: z.array(CaddyActivityItem) }), {
  data: [{ id: 51, kind: 'message', direction: 'inbound', otherParty: '+14155550123', body: 'Hi there', durationS: null, at: '2026-11-29T10:00:00.000Z' }],
});
export const CaddySendInput = example(z.object({ to: Phone, body: z.string().trim().min(1, 'The message is required.').max(1600) }), {
  to: '+14155550123',
  body: 'On my way',
});

/** `GET /caddy/support/files/{id}` (operators): the id of an uploaded support file. */
export const CaddySupportFileParams = z.object({ id: z.string().max(64).meta({ example: '5b1f0c9e-3a47-4d2b-9f6e-2c8a1d7e4b30' }) });

/** Calls in the browser: readiness (`GET /caddy/calling`): the softphone's identity, carrier and token. */
export const CaddyCallingAnswer = example(
  z.object({
    data: z.object({ identity: z.string(), carrier: z.enum(['sandbox', 'twilio']), token: z.string(), ttl: z.number().int(), ringTimeoutS: z.number().int() }),
  }),
  { data: { identity: 'user_812', carrier: 'sandbox', token: 'eyJzdWIiOiJ1c2VyXzgxMiJ9.c2lnbmF0dXJl', ttl: 3600, ringTimeoutS: 25 } },
);
/** `POST /caddy/numbers/{id}/calls {to}`: place a call from one of your active numbers. */
export const CaddyCallInput = example(z.object({ to: Phone }), { to: '+14155550123' });
export const CaddyCallAnswer = example(
  z.object({
    message: z.string(),
    data: z.object({
      callId: z.number().int(),
      token: z.string(),
      identity: z.string(),
      carrier: z.enum(['sandbox', 'twilio']),
      from: z.string(),
      to: z.string(),
      params: z.record(z.string(), z.string()),
    }),
  }),
  {
    message: 'Calling…',
    data: {
      callId: 9051,
      token: 'eyJzdWIiOiJ1c2VyXzgxMiJ9.c2lnbmF0dXJl',
      identity: 'user_812',
      carrier: 'sandbox',
      from: '+13125550142',
      to: '+14155550123',
      params: { call_id: '9051', number_id: '77', To: '+14155550123' },
    },
  },
);
/** `POST /caddy/calls/connect {token}` (sandbox carrier): the browser connects the call its token was issued for. */
export const CaddyConnectInput = example(z.object({ token: z.string().min(1).max(4000) }), { token: 'eyJzdWIiOiJ1c2VyXzgxMiJ9.c2lnbmF0dXJl' });
export const CaddyConnectAnswer = example(z.object({ data: z.object({ sid: z.string(), status: z.string() }) }), {
  data: { sid: 'CA5f0c1e2d3b4a59687766554433221100', status: 'ringing' },
});
export const CaddyCallParams = z.object({ callId: Id });
/** `POST /caddy/calls/{callId}/reject {joinToken}`: decline a call ringing your screens (the `call ringing` event's token). */
export const CaddyRejectInput = example(z.object({ joinToken: z.string().min(1).max(200) }), { joinToken: 'Zm9vYmFyYmF6cXV4MTIzNA' });

/**
 * The live events of the `caddy.{accountId}` channel (Socket.IO namespace `/caddy`, docs/consumer-area.md "Live
 * updates"): each is sent as `(event, payload, channel)`.
 */
export const CADDY_LIVE_EVENTS = {
  /** The month's usage after a count, a plan change, and first on connection. */
  'usage updated': CaddyUsage,
  /** An inbound call rings the account's screens (answer, or decline with `joinToken`). */
  'call ringing': z.object({
    callId: z.number().int(),
    numberId: z.number().int().nullable(),
    from: z.string(),
    to: z.string(),
    contactName: z.string().nullable(),
    joinToken: z.string(),
    timeoutS: z.number().int(),
  }),
  /** A call of one of the account's numbers changed (placed, answered, ended, voicemail). */
  'call updated': z.object({
    callId: z.number().int(),
    numberId: z.number().int().nullable(),
    direction: z.enum(['inbound', 'outbound']).nullable(),
    otherParty: z.string(),
    status: z.number().int(),
    answered: z.boolean(),
    voicemail: z.boolean(),
    endedAt: z.string().nullable(),
    durationS: z.number().nullable(),
  }),
} as const;
/** The `caddy` channel's event names. */
export type CaddyLiveEventName = keyof typeof CADDY_LIVE_EVENTS;

/** Store notifications: the sandbox store's test endpoints. */
export const CaddySandboxPurchaseInput = example(
  z.object({
    plan: z.enum(CADDY_PLANS).refine((p) => p !== 'starter' && p !== 'unlimited', 'Choose a paid plan.'),
    action: z.enum(['subscribe', 'cancel', 'resume', 'fail_renewal', 'expire', 'refund']),
  }),
  { plan: 'premium_monthly', action: 'subscribe' },
);
