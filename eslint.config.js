import tseslint from 'typescript-eslint';

// The dependency direction of ARCHITECTURE.md, enforced: electron → studio → (runtime, platform) → shared.
const layer = (files, patterns, message, ignores = []) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
  },
});

// Outside runtime/, the runtime is reached through its front door only (runtime/index.ts).
const runtimeInternals = ['**/runtime/**', '!**/runtime/index.ts'];
const runtimeDoor = 'reaches the runtime through runtime/index.ts only';

// Helpers only tests import live in a tests/ folder beside them.
const sharedTests = ['shared/**/*.test.ts', 'shared/**/tests/**/*.ts'];

const nodeBuiltins = ['node:*', 'fs', 'path', 'http', 'https', 'crypto', 'os', 'child_process', 'net', 'url', 'stream', 'events', 'worker_threads'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'src-main/runtime/core/cel-js-fork/**', 'dist*/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  layer(['src-main/runtime/**'], ['**/platform/**', '**/studio/**', '**/electron/**', 'electron'], 'the runtime imports nothing from platform/, studio/ or electron/', ['**/*.test.ts']),
  // The runtime calls platform routes through their addresses: a value import of a declaration
  // would load TypeBox and build every schema at each runtime's start (route-addresses.ts).
  {
    files: ['src-main/runtime/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/shared/platform-api/*', '!**/shared/platform-api/route-addresses.ts'],
              allowTypeImports: true,
              message: 'the runtime imports route declarations as types only; call a route through its address in shared/platform-api/route-addresses.ts',
            },
          ],
        },
      ],
    },
  },
  // Integration tests of the runtime drive the real platform server, as the delegation API issue asks.
  layer(['src-main/runtime/**/*.test.ts'], ['**/studio/**', '**/electron/**', 'electron'], 'runtime tests import nothing from studio/ or electron/'),
  layer(['src-main/platform/**'], ['**/runtime/**', '**/studio/**', '**/electron/**', 'electron'], 'the platform imports nothing from runtime/, studio/ or electron/'),
  layer(['src-main/studio/**'], ['**/electron/**', 'electron', ...runtimeInternals], `the studio imports nothing from electron/ and ${runtimeDoor}`),
  // Benchmarks measure runtime internals (service clients, the engine) on purpose and are exempt.
  layer(['src-main/electron/**', 'src-main/cli/**', 'src-main/cli.ts', 'e2e/**'], runtimeInternals, `code outside runtime/ ${runtimeDoor}`),
  layer(['shared/**'], [...nodeBuiltins, '**/src-main/**', '**/src-renderer/**', 'react', 'react-dom'], 'shared/ imports neither Node, the DOM nor the app layers', sharedTests),
  // Tests of shared code may check it against the real loader (the runtime's front door) and read the examples.
  layer(sharedTests, ['**/src-renderer/**', 'react', 'react-dom', ...runtimeInternals], `shared tests ${runtimeDoor}`),
  layer(['src-renderer/**'], ['**/src-main/**', ...nodeBuiltins, 'electron'], 'the renderer imports shared/ and nothing from src-main/'),
);
