import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMaintenanceEntry } from './application.js';

describe('loadMaintenanceEntry', () => {
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'nest-es-cli-'));
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('takes the default export of an ES module and of a CommonJS build (tsc emits `exports.default`)', async () => {
    writeFileSync(join(folder, 'esm.mjs'), 'export default () => "esm-root";\n');
    writeFileSync(join(folder, 'cjs.cjs'), 'Object.defineProperty(exports, "__esModule", { value: true });\nexports.default = () => "cjs-root";\n');
    const processing = { processing: {} };
    expect(await (await loadMaintenanceEntry(join(folder, 'esm.mjs')))(processing)).toBe('esm-root');
    expect(await (await loadMaintenanceEntry(join(folder, 'cjs.cjs')))(processing)).toBe('cjs-root');
  });

  it('says what to export when the file has no default function', async () => {
    writeFileSync(join(folder, 'none.mjs'), 'export const app = 1;\n');
    await expect(loadMaintenanceEntry(join(folder, 'none.mjs'))).rejects.toThrow(/has no default export that returns the root module/);
  });
});
