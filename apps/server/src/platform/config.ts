/**
 * Process configuration read once from the environment (README "Configuration").
 *
 * Every value has a default that makes `npm start` work on a fresh machine:
 * embedded PostgreSQL under DATA_DIR, the sandbox carrier, the development mail outbox.
 */
import path from 'node:path';
import { z } from 'zod';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  DATA_DIR: z.string().default('.data'),
  CARRIER: z.enum(['sandbox', 'twilio']).default('sandbox'),
  TWILIO_ACCOUNT_SID: z.string().default('ACsandbox00000000000000000000000000'),
  TWILIO_AUTH_TOKEN: z.string().default('sandbox-auth-token'),
  TWILIO_API_KEY: z.string().default(''),
  TWILIO_API_SECRET: z.string().default(''),
  TWILIO_TWIML_APP_SID: z.string().default(''),
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
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  SECRET_KEY: z.string().default(''),
  LOG_FORMAT: z.enum(['', 'json', 'pretty']).default(''),
});

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
  dataDir: string;
  carrier: 'sandbox' | 'twilio';
  twilioAccountSid: string;
  twilioAuthToken: string;
  /** In-app calling (Twilio Voice SDK): API key SID/secret signing access tokens, and the TwiML app for outgoing calls. */
  twilioApiKey: string;
  twilioApiSecret: string;
  twilioTwimlAppSid: string;
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
  /** Longest graceful shutdown, ms (SHUTDOWN_TIMEOUT_MS, default 10000); then the process exits anyway. */
  shutdownTimeoutMs: number;
  /**
   * Server secret for signed file URLs and similar (SECRET_KEY); '' = a random key generated once
   * and kept in the database, so every node on one database shares it.
   */
  secretKey: string;
  /** Console log format (LOG_FORMAT): 'pretty' in a terminal, 'json' otherwise, unless set. */
  logFormat: 'json' | 'pretty';
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
  if (e.S3_BUCKET && !e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    throw new Error('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  const port = overrides.port ?? e.PORT;
  return {
    port,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dbPoolMax: e.DB_POOL_MAX,
    dataDir: path.resolve(e.DATA_DIR),
    carrier: e.CARRIER,
    twilioAccountSid: e.TWILIO_ACCOUNT_SID,
    twilioAuthToken: e.TWILIO_AUTH_TOKEN,
    twilioApiKey: e.TWILIO_API_KEY,
    twilioApiSecret: e.TWILIO_API_SECRET,
    twilioTwimlAppSid: e.TWILIO_TWIML_APP_SID,
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
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    secretKey: e.SECRET_KEY,
    logFormat: e.LOG_FORMAT === '' ? (process.stdout.isTTY && e.NODE_ENV !== 'production' ? 'pretty' : 'json') : e.LOG_FORMAT,
    ...overrides,
  };
}
