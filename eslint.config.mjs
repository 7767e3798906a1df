import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const IO_MODULES = [
  'pg',
  'ioredis',
  'bullmq',
  'kysely',
  'fastify',
  'node:fs',
  'node:fs/promises',
  'fs',
  'node:net',
  'node:http',
];

export default tseslint.config(
  { ignores: ['**/dist/**', 'build/**', 'node_modules/**', 'coverage/**', '.memex/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits loses its errors; in a server that is lost data.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    // Pure logic: no I/O and no framework, so it is tested fast and exhaustively.
    files: [
      'libs/domain/**/*.ts',
      'libs/config/**/*.ts',
      'libs/enrichment/**/*.ts',
      'libs/transcript/**/*.ts',
      'libs/brain/**/*.ts',
      'libs/hygiene/**/*.ts',
      'libs/search/**/*.ts',
      'libs/claude-hooks/**/*.ts',
      'libs/redaction/**/*.ts',
    ],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: IO_MODULES.map((name) => ({ name, message: 'This library holds pure logic: no I/O.' })),
          patterns: [{ group: ['@nestjs/*'], message: 'This library does not depend on the framework.' }],
        },
      ],
    },
  },
  {
    // Decorated Nest classes need their constructor parameter types at run time.
    files: ['apps/**/*.ts', 'libs/server/**/*.ts', 'libs/db/**/*.ts', 'libs/retrieval/**/*.ts', 'libs/models/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      parserOptions: { projectService: false },
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' },
    },
  },
);
