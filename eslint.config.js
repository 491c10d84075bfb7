/**
 * Lint rules that encode the architecture's dependency direction (docs/architecture.md):
 * - web: features never import other features; components/ and lib/ import no feature;
 * - server: only repositories (and platform/db, migrations) use Kysely values (SQL);
 *   a module never imports another module's repository or routes;
 *   the `twilio` SDK only under carriers/twilio/; platform/ imports no module;
 * - packages/domain has no I/O and imports no app code.
 */
import fs from 'node:fs';
import tseslint from 'typescript-eslint';

const features = fs.existsSync('apps/web/src/features')
  ? fs.readdirSync('apps/web/src/features', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
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
    ignores: ['apps/server/src/**/*.repository.ts', 'apps/server/src/platform/db/**', 'apps/server/src/platform/migrations/**', 'apps/server/src/carriers/twilio/**', 'apps/server/src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [noTwilio, kyselyValues],
        patterns: [
          { regex: '^\\.\\./[^/]+/[^/]+\\.repository(\\.js)?$', message: 'Use the other module through its service, never its repository.' },
          { regex: '^\\.\\./[^/]+/[^/]+\\.routes(\\.js)?$', message: 'Modules never import each other\'s routes.' },
        ],
      }],
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
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [noTwilio],
        patterns: [{ regex: '^(\\.\\./)+modules/', message: 'platform/ is below modules/: it must not import them.' }],
      }],
    },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { regex: '^node:', message: 'The domain package is pure: no I/O.' },
          { regex: '^@switchboard/(contracts|server|web)', message: 'Dependencies point down: domain imports no app code.' },
        ],
      }],
    },
  },
  {
    files: ['packages/contracts/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ regex: '^@switchboard/(server|web)', message: 'contracts sit below the apps.' }],
      }],
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
      'no-restricted-imports': ['error', {
        patterns: features.filter((f) => f !== feature).map((other) => ({
          regex: `(^(\\.\\./)+${other}(/|$))|(features/${other}(/|$))`,
          message: `Features never import other features (${feature} → ${other}); compose them in app/.`,
        })),
      }],
    },
  })),
);
