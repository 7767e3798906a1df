import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const moduleBoundaries = createRequire(import.meta.url)('./tools/eslint/module-boundaries.cjs');

/** The libraries tagged layer:pure in their project.json (the one place the layering is declared). */
const PURE_LIBS = readdirSync(join(import.meta.dirname, 'libs')).filter((name) => {
  try {
    return JSON.parse(readFileSync(join(import.meta.dirname, 'libs', name, 'project.json'), 'utf8')).tags?.includes(
      'layer:pure',
    );
  } catch {
    return false;
  }
});

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
    files: PURE_LIBS.map((name) => `libs/${name}/**/*.ts`),
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
    // Features and apps see ports (repositories, JobQueue, NotificationSource, SharedCache), never
    // the drivers: the same features run on PostgreSQL and Redis or embedded (PGlite, queues in process).
    files: ['libs/feature-*/**/*.ts', 'apps/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['pg', 'ioredis', 'bullmq', '@nestjs/bullmq', '@electric-sql/pglite'].map((name) => ({
            name,
            message:
              'Only the infrastructure libraries (libs/db, libs/queue, libs/server) use the drivers; go through a port.',
          })),
        },
      ],
    },
  },
  {
    // Repositories move data; the rules that decide live in libs/enrichment and libs/hygiene,
    // and what both sides speak of is declared in libs/domain.
    files: ['libs/db/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['@memex/enrichment', '@memex/hygiene'].map((name) => ({
            name,
            message: 'The database library takes shapes from @memex/domain, never rules from the pure libraries.',
          })),
        },
      ],
    },
  },
  {
    // Layers (see docs/ARCHITECTURE.md): apps compose features, features wire infrastructure
    // and pure rules, nothing reaches into an app or across a project by relative path.
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts'],
    plugins: { memex: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: { 'memex/module-boundaries': 'error' },
  },
  {
    // The dashboard is bundled for the browser: it takes the domain's zod-free lists by file.
    files: ['apps/dashboard/**/*.ts', 'apps/dashboard/**/*.tsx'],
    rules: { 'memex/module-boundaries': ['error', { relativeInto: ['layer:pure'] }] },
  },
  {
    // Decorated Nest classes need their constructor parameter types at run time.
    files: [
      'apps/**/*.ts',
      'libs/feature-*/**/*.ts',
      'libs/server/**/*.ts',
      'libs/db/**/*.ts',
      'libs/retrieval/**/*.ts',
      'libs/models/**/*.ts',
    ],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // A file a reader takes in whole (issue 28): past 400 lines it holds two things. Counted as
    // `wc -l` counts. A fixture is one table of samples, read a row at a time, not code to follow.
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.cjs'],
    ignores: ['**/*.fixture.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      parserOptions: { projectService: false },
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' },
    },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
