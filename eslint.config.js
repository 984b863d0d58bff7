import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const featuresOf = (dir) =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((f) => fs.statSync(path.join(dir, f)).isDirectory())
    : [];
const featuresDir = 'apps/web/src/features';
const features = featuresOf(featuresDir);
const deskFeaturesDir = 'apps/desk/src/features';
const deskFeatures = featuresOf(deskFeaturesDir);

// The API's modules, lowest first (docs/decisions/024-api-modules.md, "Layers"): a module imports
// only those before it, type-only imports included. The order is buildApp's: each module is
// registered after those it takes from. A new module folder must be placed here.
const apiModulesDir = 'apps/api/src/modules';
const apiModuleOrder = [
  'health',
  'messaging',
  'staff',
  'integration',
  'webhooks',
  'patient-auth',
  'availability',
  'reminders',
  'waitlist',
  'clinics',
  'calendar-sync',
  'appointments',
  'calendar-feed',
  'forms',
  'payments',
  'whatsapp',
  'shaam',
];
const unplaced = featuresOf(apiModulesDir).filter((name) => !apiModuleOrder.includes(name));
if (unplaced.length > 0) {
  throw new Error(`eslint.config.js: place ${unplaced.join(', ')} in apiModuleOrder`);
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      '**/data/**',
      'apps/api/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Configuration is parsed once at start-up; nothing else reads the environment.
    files: [
      'apps/api/src/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'apps/desk/src/**/*.{ts,tsx}',
      'packages/shared/src/**/*.ts',
    ],
    ignores: ['apps/api/src/platform/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration from platform/config.' },
      ],
    },
  },
  {
    // The API's layers (docs/decisions/024-api-modules.md): platform/ knows no module, a module knows
    // only the modules before it in apiModuleOrder and neither the demo nor the entry points, and
    // only the entry points (app.ts, main.ts, cli/) import app.ts. Type-only imports count too:
    // import-x/no-cycle skips them, this does not.
    files: ['apps/api/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './apps/api/src/platform',
              from: ['./apps/api/src/modules', './apps/api/src/demo', './apps/api/src/cli'],
              message: 'platform/ is below every module: move the shared piece down instead.',
            },
            {
              target: './apps/api/src/modules',
              from: ['./apps/api/src/demo', './apps/api/src/cli', './apps/api/src/app.ts'],
              message: 'Modules never reach up: demo/, cli/ and app.ts call them, not the reverse.',
            },
            {
              target: './apps/api/src/demo',
              from: ['./apps/api/src/cli', './apps/api/src/app.ts'],
              message: 'demo/ is called by app.ts, main.ts and the CLI.',
            },
            ...apiModuleOrder.slice(0, -1).map((name, index) => ({
              target: `./${apiModulesDir}/${name}`,
              from: apiModuleOrder.slice(index + 1).map((above) => `./${apiModulesDir}/${above}`),
              message:
                'A module imports only those before it in apiModuleOrder (eslint.config.js): move the shared piece down (platform/ or a lower module) instead.',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Features never import each other: shared pieces live in src/lib or packages/shared.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => ({
              target: `./${featuresDir}/${f}`,
              from: `./${featuresDir}`,
              except: [`./${f}`],
              message: 'Features must not import from other features.',
            })),
            { target: `./apps/web/src/lib`, from: `./apps/web/src/features` },
            { target: `./apps/web/src/lib`, from: `./apps/web/src/app` },
          ],
        },
      ],
      // The contract's values come from its zod-free entry: one from the main entry brings the
      // schemas, and zod, into the page's chunks. Types erase and may come from either.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@marpe/shared',
              allowTypeImports: true,
              message: 'Import values from @marpe/shared/rules (zod-free); types may stay here.',
            },
            {
              name: '@mui/material/TextField',
              message:
                'Use src/lib/text-field: the MUI one imports Select, which brings Menu, Popover and Modal into every page with a field.',
            },
            {
              name: '@mui/material/Select',
              message:
                'Use a native select (src/lib/text-field with `select`): Select brings Menu, Popover and Modal into the page.',
            },
          ],
        },
      ],
    },
  },
  {
    // The desk (ADR 037): the same habits as the patient pages; it may use the shared schemas
    // (zod) to check forms as the API does.
    files: ['apps/desk/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // A dialog's or a sign-in step's first field takes focus as the dialog pattern says (WAI-ARIA
      // APG); MUI's fields pass it on. Raw elements still may not.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...deskFeatures.map((f) => ({
              target: `./${deskFeaturesDir}/${f}`,
              from: `./${deskFeaturesDir}`,
              except: [`./${f}`],
              message: 'Features must not import from other features.',
            })),
            { target: './apps/desk/src/lib', from: `./${deskFeaturesDir}` },
            { target: './apps/desk/src/lib', from: './apps/desk/src/app' },
            // Two apps, one contract: what both need lives in packages/shared.
            { target: './apps/desk', from: './apps/web' },
            { target: './apps/web', from: './apps/desk' },
          ],
        },
      ],
    },
  },
  {
    // app/ composes the features (routes, providers, layouts), never the other way; a feature's
    // tests may render it inside the app's providers.
    files: ['apps/{web,desk}/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/*', '**/app/**'],
              message: 'Features must not import from app/: move what both need to src/lib.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '@marpe/api*',
            '@marpe/web*',
            '@marpe/desk*',
            'fastify*',
            'react*',
            'drizzle-orm*',
          ],
        },
      ],
    },
  },
);
