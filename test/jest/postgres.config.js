// `npm run test:postgres`: the store contracts and the end-to-end suites on PostgreSQL (TEST_DATABASE_URL).
import { base, e2eTests } from './base.js';

export default {
  ...base,
  testMatch: ['<rootDir>/libs/**/*.contract.spec.ts', '<rootDir>/libs/**/*.pg-contract.spec.ts', ...e2eTests],
  setupFiles: ['<rootDir>/test/setup/postgres.setup.ts'],
  globalSetup: '<rootDir>/test/setup/postgres.global-setup.js',
};
