import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '**/.turbo/**', 'containers/.cache/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // A payment, its history, its refunds and its webhook events are written by @mm/db only (one module
    // owns the moves, packages/db/README.md): a service writing a row directly skips the state machine.
    files: ['services/**/*.ts', 'packages/**/*.ts'],
    ignores: ['packages/db/**', 'packages/testing/**', '**/*.test.ts', '**/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.object.property.name=/^(transaction|transactionEvent|refund|webhookEvent|outbox)$/][callee.property.name=/^(create|createMany|update|updateMany|upsert|delete|deleteMany)$/]',
          message:
            'Write payments, refunds and their events through @mm/db (packages/db/src/payments), not with Prisma directly.',
        },
      ],
    },
  },
);
