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
