// `npm run test:browser`: the poker page in headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
import { sqlite } from './base.js';

export default { ...sqlite, testMatch: ['<rootDir>/test/**/*.browser-spec.ts'] };
