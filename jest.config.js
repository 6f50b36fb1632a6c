// `npm test`: every suite that needs no server and no browser, on SQLite. `npm test -- <path>` runs one file.
// The other tiers have their own configs in test/jest/ (unit, e2e, postgres, browser).
import { e2eTests, sqlite, unitTests } from './test/jest/base.js';

export default { ...sqlite, testMatch: [...unitTests, ...e2eTests] };
