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
});

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
    ...overrides,
  };
}
