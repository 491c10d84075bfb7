/**
 * Lint rules that encode the architecture's dependency direction (docs/architecture.md):
 * - web: features never import other features; components/ and lib/ import no feature;
 * - server: only repositories (and platform/db, migrations) use Kysely values (SQL);
 *   the `twilio` SDK only under carriers/twilio/;
 * - server modules (the local plugin in eslint-rules/, docs/architecture.md "Boundary checks"): no
 *   cycle between modules; modules depend downwards by the levels of the module map; a module never
 *   imports another module's repository or routes; platform/ and carriers/ import no module; a
 *   file names only the tables its module owns (apps/server/src/modules/ownership.ts);
 * - packages/domain has no I/O and imports no app code;
 * - apps and packages: no `catch {}` without a binding (handle the named case, rethrow the rest).
 */
import fs from 'node:fs';
import tseslint from 'typescript-eslint';
import switchboard from './eslint-rules/index.js';

const features = fs.existsSync('apps/web/src/features')
  ? fs
      .readdirSync('apps/web/src/features', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

const noTwilio = { name: 'twilio', message: 'The twilio SDK belongs in apps/server/src/carriers/twilio/ only.' };
const kyselyValues = { name: 'kysely', allowTypeImports: true, message: 'SQL belongs in a *.repository.ts file; import only types from kysely here.' };

/**
 * `switchboard/no-module-state` allowlist (eslint-rules/no-module-state.js; docs/architecture.md "Hooks"): module-level
 * state that existed before the rule and is not a hook (hooks live on ctx.hooks). Each entry: file under
 * apps/server/src/modules/, the top-level name, and why it stays for now. Do not add to it: keep new state on the
 * context or in the database. Exported tuning objects (`webhookTuning`, `triggerTuning`, …) are not listed: only
 * tests change them, and the rule reports mutations made in the declaring file.
 */
const moduleStateAllowlist = [
  {
    file: 'alerts/alerts.monitors.ts',
    name: 'pendingChecks',
    why: 'debounce of company checks in this process (a Set of company ids); should move onto the context',
  },
  { file: 'alerts/alerts.monitors.ts', name: 'touchedAt', why: 'when each company was last checked in this process (debounce); should move onto the context' },
  { file: 'alerts/alerts.monitors.ts', name: 'lastSilentRun', why: 'time of the last silent-number sweep in this process (throttle)' },
  { file: 'analytics/analytics.exports.ts', name: 'offsetCache', why: 'memo of time-zone offsets (a pure function of zone and time)' },
  { file: 'analytics/analytics.facts.ts', name: 'batches', why: 'per-context WeakMap of the pending facts flush (timer, running pass)' },
  { file: 'analytics/analytics.facts.ts', name: 'reconciledUpTo', why: 'per-context WeakMap: reconcile watermark' },
  { file: 'analytics/analytics.jobs.ts', name: 'scheduledAt', why: 'per-context WeakMap: when the rollup job was last scheduled' },
  { file: 'analytics/analytics.live.ts', name: 'states', why: 'per-context WeakMap: live-update throttle state' },
  { file: 'caller-id/caller-id.jobs.ts', name: 'seenByDb', why: 'per-database WeakMap: numbers already queued for lookup' },
  { file: 'caller-id/caller-id.service.ts', name: 'ports', why: 'per-config WeakMap cache of the lookup port' },
  { file: 'caller-id/caller-id.service.ts', name: 'inflight', why: 'per-database WeakMap: lookups in flight (one per number)' },
  { file: 'calls/call-batching.ts', name: 'inboundStores', why: 'per-context WeakMap of the inbound-call GroupCommit' },
  { file: 'calls/call-flow.ts', name: 'e164Memo', why: 'memo of phone parsing (a pure function)' },
  { file: 'campaigns/campaigns.counters.ts', name: 'pendingRefresh', why: 'per-context WeakMap: throttled counter refresh timers' },
  { file: 'campaigns/campaigns.counters.ts', name: 'refreshCost', why: 'last refresh cost per campaign (throttle estimate, process-wide)' },
  { file: 'campaigns/campaigns.dispatch.ts', name: 'buckets', why: 'send-rate token buckets per number (process-wide)' },
  { file: 'contacts/contacts.service.ts', name: 'contactReaders', why: 'per-context WeakMap of the contact-lookup GroupCommit' },
  { file: 'conversations/conversations.call-items.ts', name: 'callItemBatchers', why: 'per-context WeakMap of the call-item GroupCommit' },
  { file: 'conversations/conversations.live.ts', name: 'liveBatchers', why: 'per-context WeakMap of the live-update GroupCommit' },
  { file: 'fax/fax.service.ts', name: 'ports', why: 'per-context WeakMap cache of the fax port' },
  { file: 'greetings/speech.ts', name: 'pool', why: 'the speech worker pool, created on first use (a process resource)' },
  { file: 'numbers/numbers.service.ts', name: 'routingReaders', why: 'per-context WeakMap of the routing-read GroupCommit' },
  { file: 'numbers/numbers.service.ts', name: 'routingCaches', why: 'per-database WeakMap of the routing read cache' },
  { file: 'push/push.service.ts', name: 'ports', why: 'per-context WeakMap cache of the push port' },
  { file: 'tenant/dns-resolver.ts', name: 'resolvers', why: 'per-context WeakMap of the DNS port (tests substitute one: setDnsResolver)' },
  { file: 'tracking/assignment.ts', name: 'assigners', why: 'per-context WeakMap of the session-assignment GroupCommit' },
  { file: 'tracking/assignment.ts', name: 'exhaustionBooks', why: 'per-context WeakMap of the pool-exhaustion GroupCommit' },
  { file: 'tracking/assignment.ts', name: 'sweepClaimedAt', why: 'per-context WeakMap: when this process last claimed the session sweep' },
  { file: 'tracking/assignment.ts', name: 'seenAt', why: 'per-context WeakMap: last-seen times of sessions (write coalescing)' },
  { file: 'tracking/public-cache.ts', name: 'caches', why: 'per-context WeakMap: the public tracking read cache' },
  { file: 'tracking/public-cache.ts', name: 'reloaders', why: 'per-context WeakMap of the cache-reload GroupCommit' },
  { file: 'tracking/script.ts', name: 'minified', why: 'memo of the minified tracking script (built once)' },
  {
    file: 'transcription/transcription.jobs.ts',
    name: 'transcribers',
    why: 'per-context WeakMap of the transcription port (tests substitute one: useTranscriber)',
  },
  { file: 'users/users.service.ts', name: 'dummyHash', why: 'memo of a constant password hash (timing-safe sign-in)' },
  { file: 'webhooks/webhooks.cache.ts', name: 'caches', why: 'per-database WeakMap: the endpoint list cache' },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', 'e2e/test-results/**', 'e2e/playwright-report/**'] },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-debugger': 'error',
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/platform/db/**',
      'apps/server/src/platform/migrations/**',
      'apps/server/src/carriers/twilio/**',
      'apps/server/src/**/*.test.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [noTwilio, kyselyValues] }],
    },
  },
  {
    files: ['apps/server/src/**/*.repository.ts', 'apps/server/src/carriers/sandbox/**/*.ts'],
    ignores: ['apps/server/src/carriers/twilio/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [noTwilio] }],
    },
  },
  {
    files: ['apps/server/src/platform/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [noTwilio] }],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    plugins: { switchboard },
    rules: {
      'switchboard/module-boundaries': 'error',
      'switchboard/module-layers': 'error',
      'switchboard/table-ownership': 'error',
    },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    plugins: { switchboard },
    rules: { 'switchboard/no-module-state': ['error', { allow: moduleStateAllowlist }] },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/server/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'CatchClause[param=null]', message: "Bind the error: handle the case you expect and rethrow what you don't handle." },
      ],
    },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'The domain package is pure: no I/O.' },
            { regex: '^@switchboard/(contracts|server|web)', message: 'Dependencies point down: domain imports no app code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/contracts/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^@switchboard/(server|web)', message: 'contracts sit below the apps.' }],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)features/', message: 'Shared UI and lib must not import features.' }] }],
    },
  },
  ...features.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: features
            .filter((f) => f !== feature)
            .map((other) => ({
              regex: `(^(\\.\\./)+${other}(/|$))|(features/${other}(/|$))`,
              message: `Features never import other features (${feature} → ${other}); compose them in app/.`,
            })),
        },
      ],
    },
  })),
);
