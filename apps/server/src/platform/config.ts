/**
 * Process configuration read once from the environment (README "Configuration").
 *
 * Every value has a default that makes `npm start` work on a fresh machine:
 * embedded PostgreSQL under DATA_DIR, the sandbox carrier, the development mail outbox.
 */
import path from 'node:path';
import { z } from 'zod';
import { whisperSetupProblem } from './transcription/whisper.transcriber.js';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  DB_REACTIONS_POOL_MAX: z.coerce.number().int().min(1).max(500).default(8),
  DATA_DIR: z.string().default('.data'),
  CARRIER: z.enum(['sandbox', 'twilio']).default('sandbox'),
  TRANSCRIPTION: z.enum(['sandbox', 'deepgram', 'whisper']).default('sandbox'),
  DEEPGRAM_API_KEY: z.string().trim().default(''),
  DEEPGRAM_API_URL: z.string().trim().url().default('https://api.deepgram.com'),
  DEEPGRAM_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(120),
  WHISPER_MODEL_PATH: z.string().trim().default(''),
  // Language model for questions about a call (platform/llm; docs/call-intelligence.md "Configuration"): the offline engine unless LLM_API_KEY is set.
  LLM_API_KEY: z.string().trim().default(''),
  LLM_BASE_URL: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || /^https?:\/\/[^/]/i.test(v), 'must be an http(s) URL'),
  LLM_MODEL: z.string().trim().default(''),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  TWILIO_ACCOUNT_SID: z.string().default('ACsandbox00000000000000000000000000'),
  TWILIO_AUTH_TOKEN: z.string().default('sandbox-auth-token'),
  TWILIO_API_KEY: z.string().default(''),
  TWILIO_API_SECRET: z.string().default(''),
  TWILIO_TWIML_APP_SID: z.string().default(''),
  // Fax provider (carriers/fax.port.ts; docs/fax.md): sandbox (default, offline) or Telnyx Programmable Fax.
  FAX_PROVIDER: z.enum(['sandbox', 'telnyx']).default('sandbox'),
  TELNYX_API_KEY: z.string().default(''),
  TELNYX_FAX_CONNECTION_ID: z.string().default(''),
  TELNYX_PUBLIC_KEY: z.string().default(''),
  TELNYX_API_URL: z.string().default('https://api.telnyx.com/v2'),
  PUBLIC_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Switchboard <no-reply@switchboard.local>'),
  SUPPORT_EMAIL: z.string().default('support@switchboard.local'),
  LOG_LEVEL: z.string().default('info'),
  SEED_DEMO: z.enum(['0', '1']).default('1'),
  WORKERS: z.enum(['0', '1']).default('1'),
  NODE_ENV: z.string().default('development'),
  // S3-compatible blob store (platform/blob.ts); unset S3_BUCKET = local folder DATA_DIR/blobs.
  S3_BUCKET: z.string().default(''),
  S3_ENDPOINT: z
    .string()
    .default('')
    .refine((v) => v === '' || /^https?:\/\/[^/]/i.test(v), 'must be an http(s) URL'),
  S3_REGION: z.string().default(''),
  S3_ACCESS_KEY_ID: z.string().default(''),
  S3_SECRET_ACCESS_KEY: z.string().default(''),
  S3_FORCE_PATH_STYLE: z.enum(['', '0', '1', 'true', 'false']).default(''),
  // Safe-by-default settings (docs/operations.md "Security settings").
  TRUST_PROXY: z.string().default(''),
  METRICS_TOKEN: z.string().default(''),
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(3000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  DB_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(3_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  SECRET_KEY: z.string().default(''),
  LOG_FORMAT: z.enum(['', 'json', 'pretty']).default(''),
  // Browser and VoIP push (docs/push.md "Configuration"): 'sandbox' records pushes offline (default); 'live' sends them.
  PUSH_ADAPTER: z.enum(['sandbox', 'live']).default('sandbox'),
  VAPID_PUBLIC_KEY: z.string().trim().default(''),
  VAPID_PRIVATE_KEY: z.string().trim().default(''),
  VAPID_SUBJECT: z.string().trim().default(''),
  APNS_KEY_FILE: z.string().trim().default(''),
  APNS_KEY_ID: z.string().trim().default(''),
  APNS_TEAM_ID: z.string().trim().default(''),
  APNS_BUNDLE_ID: z.string().trim().default(''),
  APNS_PRODUCTION: z.enum(['', '0', '1', 'true', 'false']).default(''),
  // The number MFA sign-in codes are texted from (docs/auth.md "MFA by SMS"); default: the sandbox's toll-free sender.
  MFA_SMS_FROM: z
    .string()
    .trim()
    .default('+18005550100')
    .refine((v) => v === '' || /^\+[1-9]\d{6,14}$/.test(v), 'must be an E.164 number such as +18005550100'),
  // OIDC sign-in (docs/auth.md "OIDC sign-in"): a provider is offered only when its client id is set (default: none).
  OIDC_GOOGLE_ISSUER: z.string().trim().url().default('https://accounts.google.com'),
  OIDC_GOOGLE_CLIENT_ID: z.string().trim().default(''),
  OIDC_GOOGLE_CLIENT_SECRET: z.string().default(''),
  OIDC_MICROSOFT_ISSUER: z.string().trim().url().default('https://login.microsoftonline.com/common/v2.0'),
  OIDC_MICROSOFT_CLIENT_ID: z.string().trim().default(''),
  OIDC_MICROSOFT_CLIENT_SECRET: z.string().default(''),
  // Payment gateway (platform/payments; docs/billing.md "Configuration"): the offline sandbox unless PAYMENTS=stripe.
  PAYMENTS: z.enum(['sandbox', 'stripe']).default('sandbox'),
  STRIPE_SECRET_KEY: z.string().default(''),
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  // 10DLC registration (platform/registration; docs/sms-verification.md "Configuration"): the offline sandbox registry unless SMS_REGISTRY=telnyx.
  SMS_REGISTRY: z.enum(['sandbox', 'telnyx']).default('sandbox'),
  SMS_REGISTRATION_ENFORCED: z.enum(['', '0', '1', 'true', 'false']).default(''),
  SMS_REGISTRY_POLL_S: z.coerce.number().int().min(1).max(86_400).default(60),
  // Caller-name lookups (platform/lookup; docs/caller-id.md "Configuration"): the offline sandbox unless LOOKUP=twilio.
  // Integrations (modules/integrations; docs/integrations.md "Configuration"): the offline provider sandboxes unless INTEGRATIONS=live.
  INTEGRATIONS: z.enum(['sandbox', 'live']).default('sandbox'),
  INTEGRATIONS_ENCRYPTION_KEY: z.string().default(''),
  LOOKUP: z.enum(['sandbox', 'twilio']).default('sandbox'),
  LOOKUP_CACHE_TTL_S: z.coerce
    .number()
    .int()
    .min(0)
    .default(30 * 24 * 3600),
  LOOKUP_NEGATIVE_TTL_S: z.coerce
    .number()
    .int()
    .min(0)
    .default(24 * 3600),
  LOOKUP_SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(150),
  LOOKUP_TWILIO_BASE_URL: z.string().trim().url().default('https://lookups.twilio.com'),
  // Consumer app-store subscriptions (modules/caddy/stores; docs/consumer-area.md "Configuration"): the offline sandbox store unless CADDY_STORES=live.
  CADDY_STORES: z.enum(['sandbox', 'live']).default('sandbox'),
  CADDY_APPLE_BUNDLE_ID: z.string().trim().default('com.switchboard.caddy'),
  CADDY_APPLE_ENVIRONMENT: z.enum(['Production', 'Sandbox']).default('Production'),
  CADDY_APPLE_APP_APPLE_ID: z.string().trim().regex(/^\d*$/, "must be the app's numeric Apple ID").default(''),
  CADDY_APPLE_ROOT_CERTS: z.string().trim().default(''),
  CADDY_APPLE_ONLINE_CHECKS: z.enum(['', '0', '1', 'true', 'false']).default(''),
  CADDY_GOOGLE_PACKAGE_NAME: z.string().trim().default('com.switchboard.caddy'),
  CADDY_GOOGLE_SERVICE_ACCOUNT_KEY_FILE: z.string().trim().default(''),
  CADDY_GOOGLE_PUSH_AUDIENCE: z.string().trim().default(''),
  CADDY_GOOGLE_PUSH_SERVICE_ACCOUNT: z.string().trim().default(''),
  CADDY_GOOGLE_API_URL: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || /^https?:\/\/[^/]/i.test(v), 'must be an http(s) URL'),
});

/** Browser and VoIP push settings (docs/push.md "Configuration"). */
export type PushConfig = {
  /** 'sandbox' (default): pushes are recorded, nothing leaves the machine; 'live': Web Push and (when configured) APNs. */
  adapter: 'sandbox' | 'live';
  /** VAPID key pair (base64url) from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY; undefined = generated once and kept in `app_secrets`. */
  vapid: { publicKey: string; privateKey: string } | undefined;
  /** VAPID contact (VAPID_SUBJECT): a mailto: or https: URL; default `mailto:` + SUPPORT_EMAIL. */
  vapidSubject: string;
  /** APNs token authentication (APNS_*); undefined = VoIP pushes are not sent in 'live' mode. */
  apns: { keyFile: string; keyId: string; teamId: string; bundleId: string; production: boolean } | undefined;
};

/** Caller-name lookup settings (LOOKUP_*; docs/caller-id.md "Configuration"). */
export type LookupConfig = {
  /** 'sandbox' (default): the offline directory of platform/lookup; 'twilio': Twilio Lookup v2 with the carrier's TWILIO_ACCOUNT_SID/TWILIO_AUTH_TOKEN. */
  adapter: 'sandbox' | 'twilio';
  /** Seconds a found answer is reused (LOOKUP_CACHE_TTL_S, default 30 days). */
  cacheTtlS: number;
  /** Seconds a not-found answer is reused (LOOKUP_NEGATIVE_TTL_S, default 1 day). */
  negativeTtlS: number;
  /** The sandbox's simulated provider latency in ms (LOOKUP_SANDBOX_LATENCY_MS, default 150). */
  sandboxLatencyMs: number;
  /** Twilio Lookup's base URL without a trailing slash (LOOKUP_TWILIO_BASE_URL; tests point it at a local server). */
  twilioBaseUrl: string;
};

/** Speech-to-text settings (TRANSCRIPTION, DEEPGRAM_*, WHISPER_MODEL_PATH; docs/transcription.md "Configuration"). */
export type TranscriptionConfig = {
  /** 'sandbox' (default, offline) | 'deepgram' (hosted) | 'whisper' (local whisper.cpp through `@fugood/whisper.node`). */
  adapter: 'sandbox' | 'deepgram' | 'whisper';
  /** Deepgram API key (DEEPGRAM_API_KEY; required with 'deepgram'). */
  deepgramApiKey: string;
  /** Deepgram API origin without a trailing slash (DEEPGRAM_API_URL, default https://api.deepgram.com; tests point it at a local server). */
  deepgramApiUrl: string;
  /** Longest wait for one Deepgram transcription, seconds (DEEPGRAM_TIMEOUT_S, default 120); then a retryable failure. */
  deepgramTimeoutS: number;
  /** The ggml model file (WHISPER_MODEL_PATH; required with 'whisper', which also needs the binding installed). */
  whisperModelPath: string;
};

/** Hosted language-model settings (LLM_*; docs/call-intelligence.md "Configuration"). */
export type LlmConfig = {
  /** Key of an OpenAI-compatible chat-completions API (LLM_API_KEY); '' (default) = the offline engine answers. */
  apiKey: string;
  /** Its base URL without a trailing slash (LLM_BASE_URL, default https://api.openai.com/v1). */
  baseUrl: string;
  /** Model name (LLM_MODEL, default gpt-4o-mini). */
  model: string;
  /** Longest wait for one answer, ms (LLM_TIMEOUT_MS, default 20000); then the offline engine answers. */
  timeoutMs: number;
};

/** S3-compatible blob store settings (README "Configuration", S3_*). */
export type S3Config = {
  bucket: string;
  /** Service URL for non-AWS stores (MinIO, R2, …); undefined = AWS S3 for `region`. */
  endpoint: string | undefined;
  /** Default `us-east-1`. */
  region: string;
  /** Static credentials; both undefined = the SDK's default provider chain (env, profile, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `https://endpoint/bucket/key` URLs instead of `https://bucket.endpoint/key`; default true when an endpoint is given. */
  forcePathStyle: boolean;
};

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections per server process (DB_POOL_MAX, default 10). */
  dbPoolMax: number;
  /** PostgreSQL connections per server process for the domain events' consumers, besides DB_POOL_MAX (DB_REACTIONS_POOL_MAX, default 8). */
  dbReactionsPoolMax: number;
  dataDir: string;
  carrier: 'sandbox' | 'twilio';
  /**
   * Speech to text (docs/transcription.md "Configuration"): TRANSCRIPTION sandbox (default) | deepgram (DEEPGRAM_API_KEY)
   * | whisper (whisper.cpp with the model file WHISPER_MODEL_PATH; `npm install @fugood/whisper.node` first).
   */
  transcription: TranscriptionConfig;
  /** Hosted language model for questions about a call (LLM_*; docs/call-intelligence.md "Configuration"). */
  llm: LlmConfig;
  twilioAccountSid: string;
  twilioAuthToken: string;
  /** In-app calling (Twilio Voice SDK): API key SID/secret signing access tokens, and the TwiML app for outgoing calls. */
  twilioApiKey: string;
  twilioApiSecret: string;
  twilioTwimlAppSid: string;
  /** Fax provider adapter (FAX_PROVIDER, docs/fax.md): `sandbox` (offline) or `telnyx`. */
  faxProvider: 'sandbox' | 'telnyx';
  /** Telnyx Programmable Fax: API key, the fax application (connection) id, the Ed25519 webhook public key (base64), the API base URL. */
  telnyxApiKey: string;
  telnyxFaxConnectionId: string;
  telnyxPublicKey: string;
  telnyxApiUrl: string;
  /** Base URL the carrier reaches us at, without a trailing slash; signatures are computed over it. */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  logLevel: string;
  seedDemo: boolean;
  runWorkers: boolean;
  production: boolean;
  /** Blob store in an S3-compatible bucket when S3_BUCKET is set; undefined = local folder `${dataDir}/blobs`. */
  s3: S3Config | undefined;
  /**
   * Which peers may set X-Forwarded-For/-Proto (TRUST_PROXY): '' = none (default; the socket's
   * address counts), or a comma-separated list of addresses/CIDRs, or a hop count, as Fastify's
   * `trustProxy` takes them.
   */
  trustProxy: string;
  /** Bearer token that `/metrics` requires (METRICS_TOKEN); '' = /metrics answers only loopback peers. */
  metricsToken: string;
  /** Longest wait for a PostgreSQL connection from the pool, ms (DB_ACQUIRE_TIMEOUT_MS, default 3000); then 503. */
  dbAcquireTimeoutMs: number;
  /**
   * Longest statement, ms (DB_STATEMENT_TIMEOUT_MS, default 30000; 0 = none): a runaway query is cancelled (answered 503).
   * Migrations run without it.
   */
  dbStatementTimeoutMs: number;
  /**
   * Longest wait for a row or table lock, ms (DB_LOCK_TIMEOUT_MS, default 3000; 0 = none): a statement meeting a table
   * locked by a migration or a long report gives up (503 with Retry-After, the carrier retries) instead of holding its
   * connection while the voice path waits for one. Migrations run without it.
   */
  dbLockTimeoutMs: number;
  /** Longest graceful shutdown, ms (SHUTDOWN_TIMEOUT_MS, default 10000); then the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Browser (Web Push) and APNs VoIP push settings (PUSH_ADAPTER, VAPID_*, APNS_*; docs/push.md "Configuration"). */
  push: PushConfig;
  /**
   * Server secret for signed file URLs and similar (SECRET_KEY); '' = a random key generated once
   * and kept in the database, so every node on one database shares it.
   */
  secretKey: string;
  /** Console log format (LOG_FORMAT): 'pretty' in a terminal, 'json' otherwise, unless set. */
  logFormat: 'json' | 'pretty';
  /** The E.164 number MFA sign-in codes are texted from (MFA_SMS_FROM, default `+18005550100`, the sandbox's toll-free sender). */
  mfaSmsFrom: string;
  /**
   * OIDC sign-in providers (OIDC_GOOGLE_*, OIDC_MICROSOFT_*; docs/auth.md "OIDC sign-in"): a provider is present
   * (and offered on the sign-in page) only when its client id is set.
   */
  oidc: { google?: OidcProviderSettings; microsoft?: OidcProviderSettings };
  /** Payment gateway (PAYMENTS, default 'sandbox': Stripe's test-mode behaviour offline; docs/billing.md). */
  payments: 'sandbox' | 'stripe';
  /** Stripe API keys (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY); required when PAYMENTS=stripe. */
  stripeSecretKey: string;
  stripePublishableKey: string;
  /** Signing secret of `POST /webhooks/stripe` (STRIPE_WEBHOOK_SECRET); '' = the sandbox's own fixed secret. */
  stripeWebhookSecret: string;
  /**
   * 10DLC registration (docs/sms-verification.md "Configuration"): the registry (SMS_REGISTRY, default 'sandbox';
   * 'telnyx' uses TELNYX_API_KEY and verifies webhooks with TELNYX_PUBLIC_KEY), whether campaigns need an approved
   * registration (SMS_REGISTRATION_ENFORCED; on unless `0` or `false`, with the sandbox carrier too), and how often
   * pending submissions are polled (SMS_REGISTRY_POLL_S, seconds, default 60).
   */
  smsRegistry: { adapter: 'sandbox' | 'telnyx'; enforced: boolean; pollS: number; telnyxApiKey: string; telnyxPublicKey: string };
  /** Caller-name lookups (docs/caller-id.md "Configuration"). */
  lookup: LookupConfig;
  /**
   * Integrations (docs/integrations.md "Configuration"): `mode` (INTEGRATIONS, default 'sandbox': every provider's
   * in-process sandbox and a local authorization server; 'live': the providers' APIs), the key sealing tokens at rest
   * (INTEGRATIONS_ENCRYPTION_KEY; '' = derived from SECRET_KEY, else a generated key kept in `app_secrets`), and the
   * providers' app settings: every variable named `INTEGRATIONS_*`, `GA4_*`, `GOOGLE_ADS_*`, `MICROSOFT_ADS_*`, `META_*`,
   * `SLACK_*`, `SALESFORCE_*`, `GOHIGHLEVEL_*`, `HUBSPOT_*`, `ADF_*` (client ids and secrets, developer tokens, base URLs).
   */
  integrations: { mode: 'sandbox' | 'live'; encryptionKey: string; env: Readonly<Record<string, string>> };
  /** Consumer app-store subscriptions (CADDY_STORES, CADDY_APPLE_*, CADDY_GOOGLE_*; docs/consumer-area.md "Configuration"). */
  caddyStores: CaddyStoresConfig;
};

/**
 * Consumer app-store subscriptions (docs/consumer-area.md "Store subscriptions"). `mode` 'sandbox' (default): the
 * offline sandbox store signs App Store-shaped notifications with a test certificate chain made at start and serves
 * Google Play-shaped ones; 'live': the App Store's notifications verified against `apple.rootCertFiles` (Apple's root
 * certificates, DER or PEM files) and Google Play's Pub/Sub pushes verified by their OIDC token, the subscription read
 * back from the Play Developer API. A store whose keys are missing is off in 'live' (its webhook answers 404).
 */
export type CaddyStoresConfig = {
  mode: 'sandbox' | 'live';
  apple: {
    bundleId: string;
    environment: 'Production' | 'Sandbox';
    /** The app's Apple ID (required for Production notifications). */
    appAppleId: number | undefined;
    /** Paths of Apple's root certificates (CADDY_APPLE_ROOT_CERTS, comma-separated); [] = Apple off in 'live'. */
    rootCertFiles: string[];
    /** OCSP revocation checks of the signing chain (CADDY_APPLE_ONLINE_CHECKS; default on in 'live'). */
    onlineChecks: boolean;
  };
  google: {
    packageName: string;
    /** Service-account key (JSON) for the Play Developer API; '' = Application Default Credentials. */
    serviceAccountKeyFile: string;
    /** The audience of the push subscription's OIDC token; '' = PUBLIC_URL + the webhook's path. */
    pushAudience: string;
    /** The service account the push subscription signs as (CADDY_GOOGLE_PUSH_SERVICE_ACCOUNT); '' = Google off in 'live'. */
    pushServiceAccount: string;
    /** The Play Developer API's root URL ('' = Google's); tests point it at a local stand-in. */
    apiUrl: string;
  };
};

/** One OpenID Connect provider's client registration (docs/auth.md "OIDC sign-in"). */
export type OidcProviderSettings = {
  /** Issuer identifier URL (discovery at `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** '' = a public client (PKCE only, no client secret). */
  clientSecret: string;
};

/**
 * Reads and validates the environment.
 * @throws Error listing the invalid variables.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  if (e.PAYMENTS === 'stripe' && (!e.STRIPE_SECRET_KEY || !e.STRIPE_PUBLISHABLE_KEY || !e.STRIPE_WEBHOOK_SECRET)) {
    throw new Error('Invalid configuration: PAYMENTS=stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET');
  }
  if (e.TRANSCRIPTION === 'deepgram' && !e.DEEPGRAM_API_KEY) {
    throw new Error('Invalid configuration: TRANSCRIPTION=deepgram needs DEEPGRAM_API_KEY');
  }
  const whisperProblem = e.TRANSCRIPTION === 'whisper' ? whisperSetupProblem(e.WHISPER_MODEL_PATH) : null;
  if (whisperProblem) throw new Error(`Invalid configuration: ${whisperProblem}`);
  if (e.SMS_REGISTRY === 'telnyx' && !env.TELNYX_API_KEY) {
    throw new Error('Invalid configuration: SMS_REGISTRY=telnyx needs TELNYX_API_KEY');
  }
  if (e.CADDY_STORES === 'live' && !e.CADDY_APPLE_ROOT_CERTS && !e.CADDY_GOOGLE_PUSH_SERVICE_ACCOUNT) {
    throw new Error('Invalid configuration: CADDY_STORES=live needs CADDY_APPLE_ROOT_CERTS (App Store) or CADDY_GOOGLE_PUSH_SERVICE_ACCOUNT (Google Play)');
  }
  if (e.CADDY_STORES === 'live' && e.CADDY_APPLE_ROOT_CERTS && e.CADDY_APPLE_ENVIRONMENT === 'Production' && !e.CADDY_APPLE_APP_APPLE_ID) {
    throw new Error('Invalid configuration: CADDY_APPLE_ENVIRONMENT=Production needs CADDY_APPLE_APP_APPLE_ID');
  }
  if (e.S3_BUCKET && !e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new Error('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  const port = overrides.port ?? e.PORT;
  return {
    port,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dbPoolMax: e.DB_POOL_MAX,
    dbReactionsPoolMax: e.DB_REACTIONS_POOL_MAX,
    dataDir: path.resolve(e.DATA_DIR),
    carrier: e.CARRIER,
    transcription: {
      adapter: e.TRANSCRIPTION,
      deepgramApiKey: e.DEEPGRAM_API_KEY,
      deepgramApiUrl: e.DEEPGRAM_API_URL.replace(/\/+$/, ''),
      deepgramTimeoutS: e.DEEPGRAM_TIMEOUT_S,
      whisperModelPath: e.WHISPER_MODEL_PATH,
    },
    llm: {
      apiKey: e.LLM_API_KEY,
      baseUrl: (e.LLM_BASE_URL || 'https://api.openai.com/v1').replace(/\/+$/, ''),
      model: e.LLM_MODEL || 'gpt-4o-mini',
      timeoutMs: e.LLM_TIMEOUT_MS,
    },
    twilioAccountSid: e.TWILIO_ACCOUNT_SID,
    twilioAuthToken: e.TWILIO_AUTH_TOKEN,
    twilioApiKey: e.TWILIO_API_KEY,
    twilioApiSecret: e.TWILIO_API_SECRET,
    twilioTwimlAppSid: e.TWILIO_TWIML_APP_SID,
    faxProvider: e.FAX_PROVIDER,
    telnyxApiKey: e.TELNYX_API_KEY,
    telnyxFaxConnectionId: e.TELNYX_FAX_CONNECTION_ID,
    telnyxPublicKey: e.TELNYX_PUBLIC_KEY,
    telnyxApiUrl: e.TELNYX_API_URL.replace(/\/+$/, ''),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO === '1',
    runWorkers: e.WORKERS === '1',
    production: e.NODE_ENV === 'production',
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT ? e.S3_ENDPOINT.replace(/\/+$/, '') : undefined,
          region: e.S3_REGION || 'us-east-1',
          accessKeyId: e.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY || undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === '' ? Boolean(e.S3_ENDPOINT) : e.S3_FORCE_PATH_STYLE === '1' || e.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined,
    trustProxy: e.TRUST_PROXY.trim(),
    metricsToken: e.METRICS_TOKEN,
    dbAcquireTimeoutMs: e.DB_ACQUIRE_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    dbLockTimeoutMs: e.DB_LOCK_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    push: {
      adapter: e.PUSH_ADAPTER,
      vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : undefined,
      vapidSubject: e.VAPID_SUBJECT || `mailto:${e.SUPPORT_EMAIL}`,
      apns:
        e.APNS_KEY_FILE && e.APNS_KEY_ID && e.APNS_TEAM_ID && e.APNS_BUNDLE_ID
          ? {
              keyFile: e.APNS_KEY_FILE,
              keyId: e.APNS_KEY_ID,
              teamId: e.APNS_TEAM_ID,
              bundleId: e.APNS_BUNDLE_ID,
              production: e.APNS_PRODUCTION === '' ? e.NODE_ENV === 'production' : e.APNS_PRODUCTION === '1' || e.APNS_PRODUCTION === 'true',
            }
          : undefined,
    },
    secretKey: e.SECRET_KEY,
    logFormat: e.LOG_FORMAT === '' ? (process.stdout.isTTY && e.NODE_ENV !== 'production' ? 'pretty' : 'json') : e.LOG_FORMAT,
    mfaSmsFrom: e.MFA_SMS_FROM || '+18005550100',
    oidc: {
      ...(e.OIDC_GOOGLE_CLIENT_ID
        ? { google: { issuer: e.OIDC_GOOGLE_ISSUER, clientId: e.OIDC_GOOGLE_CLIENT_ID, clientSecret: e.OIDC_GOOGLE_CLIENT_SECRET } }
        : {}),
      ...(e.OIDC_MICROSOFT_CLIENT_ID
        ? { microsoft: { issuer: e.OIDC_MICROSOFT_ISSUER, clientId: e.OIDC_MICROSOFT_CLIENT_ID, clientSecret: e.OIDC_MICROSOFT_CLIENT_SECRET } }
        : {}),
    },
    payments: e.PAYMENTS,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripePublishableKey: e.STRIPE_PUBLISHABLE_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    smsRegistry: {
      adapter: e.SMS_REGISTRY,
      enforced: e.SMS_REGISTRATION_ENFORCED !== '0' && e.SMS_REGISTRATION_ENFORCED !== 'false',
      pollS: e.SMS_REGISTRY_POLL_S,
      telnyxApiKey: env.TELNYX_API_KEY ?? '',
      telnyxPublicKey: env.TELNYX_PUBLIC_KEY ?? '',
    },
    integrations: {
      mode: e.INTEGRATIONS,
      encryptionKey: e.INTEGRATIONS_ENCRYPTION_KEY,
      env: Object.fromEntries(
        Object.entries(env).filter(
          (kv): kv is [string, string] =>
            typeof kv[1] === 'string' && /^(INTEGRATIONS|GA4|GOOGLE_ADS|MICROSOFT_ADS|META|SLACK|SALESFORCE|GOHIGHLEVEL|HUBSPOT|ADF)_/.test(kv[0]),
        ),
      ),
    },
    caddyStores: {
      mode: e.CADDY_STORES,
      apple: {
        bundleId: e.CADDY_APPLE_BUNDLE_ID,
        environment: e.CADDY_APPLE_ENVIRONMENT,
        appAppleId: e.CADDY_APPLE_APP_APPLE_ID ? Number(e.CADDY_APPLE_APP_APPLE_ID) : undefined,
        rootCertFiles: e.CADDY_APPLE_ROOT_CERTS.split(',')
          .map((f) => f.trim())
          .filter(Boolean),
        onlineChecks: e.CADDY_APPLE_ONLINE_CHECKS === '' ? true : e.CADDY_APPLE_ONLINE_CHECKS === '1' || e.CADDY_APPLE_ONLINE_CHECKS === 'true',
      },
      google: {
        packageName: e.CADDY_GOOGLE_PACKAGE_NAME,
        serviceAccountKeyFile: e.CADDY_GOOGLE_SERVICE_ACCOUNT_KEY_FILE,
        pushAudience: e.CADDY_GOOGLE_PUSH_AUDIENCE,
        pushServiceAccount: e.CADDY_GOOGLE_PUSH_SERVICE_ACCOUNT,
        apiUrl: e.CADDY_GOOGLE_API_URL.replace(/\/+$/, ''),
      },
    },
    lookup: {
      adapter: e.LOOKUP,
      cacheTtlS: e.LOOKUP_CACHE_TTL_S,
      negativeTtlS: e.LOOKUP_NEGATIVE_TTL_S,
      sandboxLatencyMs: e.LOOKUP_SANDBOX_LATENCY_MS,
      twilioBaseUrl: e.LOOKUP_TWILIO_BASE_URL.replace(/\/+$/, ''),
    },
    ...overrides,
  };
}
