// `npm run test:e2e`: the end-to-end suites in test/, on SQLite.
import { e2eTests, sqlite } from './base.js';

export default { ...sqlite, testMatch: e2eTests };
