// What every test tier shares: TypeScript as ESM through ts-jest, the library by its package name
// mapped to its sources (so tests need no build), and one timeout.
import { fileURLToPath } from 'node:url';

export const rootDir = fileURLToPath(new URL('../..', import.meta.url));

const libs = '<rootDir>/libs';

export const base = {
  rootDir,
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@nest-es/core/internal$': `${libs}/core/src/internal.ts`,
    '^@nest-es/core/(adapter|cqrs|testing)$': `${libs}/core/src/$1/index.ts`,
    '^@nest-es/(core|typeorm|http|nats|cli)$': `${libs}/$1/src/index.ts`,
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/test/consumers/'],
  testTimeout: 60000,
};

export const unitTests = ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/docs/**/*.spec.ts'];
export const e2eTests = ['<rootDir>/test/**/*.e2e-spec.ts'];
/** Suites that need PostgreSQL only: run by the postgres tier, skipped by the SQLite tiers. */
export const postgresOnly = ['\\.pg\\.e2e-spec\\.ts$', '\\.pg-contract\\.spec\\.ts$'];

export const sqlite = {
  ...base,
  setupFiles: ['<rootDir>/test/setup/sqlite.setup.ts'],
  globalSetup: '<rootDir>/test/setup/build.global-setup.js',
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, ...postgresOnly],
};
