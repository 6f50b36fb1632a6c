// Two projects: "sqlite" needs no server (npm test), "postgres" needs TEST_DATABASE_URL (npm run test:postgres).
// Suites that run on both databases read the DB under test from the project's setup file.
const base = {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^#event-sourcing$': '<rootDir>/libs/event-sourcing/src/index.ts',
    '^#event-sourcing/cqrs$': '<rootDir>/libs/event-sourcing/src/cqrs/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
};

export default {
  // A global option: jest ignores it inside projects.
  testTimeout: 60000,
  projects: [
    {
      ...base,
      displayName: 'sqlite',
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['\\.pg\\.e2e-spec\\.ts$', '\\.pg-contract\\.spec\\.ts$', '/node_modules/'],
      setupFiles: ['<rootDir>/test/setup/sqlite.setup.ts'],
      globalSetup: '<rootDir>/test/setup/build.global-setup.js',
    },
    {
      ...base,
      displayName: 'postgres',
      testMatch: ['<rootDir>/libs/**/*.contract.spec.ts', '<rootDir>/libs/**/*.pg-contract.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/setup/postgres.setup.ts'],
      globalSetup: '<rootDir>/test/setup/postgres.global-setup.js',
    },
  ],
};
