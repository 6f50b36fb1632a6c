// ESLint for the whole workspace: the recommended JavaScript and TypeScript rules (`npm run lint`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', 'coverage/**', 'apps/poker/public/**', 'test/consumers/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly', module: 'writable', require: 'readonly', fetch: 'readonly', performance: 'readonly', setTimeout: 'readonly' },
    },
    rules: {
      // Unused arguments named with a leading underscore are deliberate (interface shapes, callbacks).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Discovery reads decorated classes by reflection, and tests read untyped JSON bodies: there
    // `any` and `Function` are the honest types.
    files: [
      'libs/core/src/{adapter,decorators,discovery,module,cqrs,testing}/**/*.ts',
      'libs/core/src/model/aggregate-definition.ts',
      'test/**/*.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unsafe-function-type': 'off' },
  },
);
