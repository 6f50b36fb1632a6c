// @nest-es/cli is the `nest-es` command; what an application writes for it is its maintenance entry.
export type { MaintenanceEntry } from './application.js';
