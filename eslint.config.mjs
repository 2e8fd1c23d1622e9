// Lint: typescript-eslint's recommended rules plus the project's layer and size rules.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', '.out-*/**', 'dist/**', 'test-output/**', '.pincer-dev/**', 'bench/results/**', 'bench/.corpus/**', 'sample-workspace/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Small files that explain themselves: a file that grows past this is split along a seam.
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The layer rule: the runtime in src/core never depends on VS Code, so it runs in the CLI and in
    // unit tests against real node implementations of its ports.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core must not import vscode: add a port in src/core and implement it in src/host.' }] }],
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
        message: 'src/core must not require vscode.',
      }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', fetch: 'readonly', performance: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
