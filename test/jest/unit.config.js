// `npm run test:unit`: the specs next to the code; no build, no child processes.
import { sqlite, unitTests } from './base.js';

export default { ...sqlite, globalSetup: undefined, testMatch: unitTests };
