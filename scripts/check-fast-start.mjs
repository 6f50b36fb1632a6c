// `npm start` on a built checkout starts from the last build: builds what is stale once, then runs
// `npm start` and fails if it compiled anything or /health did not answer; prints the time to /health.
// Used by CI; the README's quick start is the same command.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, untilHealthy } from './http-probe.mjs';

const GIVE_UP_MS = 120_000;

execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const folder = mkdtempSync(join(tmpdir(), 'nest-es-start-'));
const port = await freePort();
const started = performance.now();
const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start', '--silent'], {
  env: { ...process.env, PORT: String(port), DATABASE_URL: `sqlite:${join(folder, 'poker.sqlite')}` },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));

const healthyAfter = await untilHealthy(`http://127.0.0.1:${port}`, child, GIVE_UP_MS).then(
  () => performance.now() - started,
  () => undefined,
);
process.kill(-child.pid, 'SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
rmSync(folder, { recursive: true, force: true });

const rebuilt = output.split('\n').filter((line) => line.startsWith('building '));
if (healthyAfter === undefined) console.error(`FAIL npm start: /health did not answer 200\n${output}`);
else if (rebuilt.length > 0) console.error(`FAIL npm start compiled again on a built checkout: ${rebuilt.join('; ')}`);
else console.log(`ok   npm start on a built checkout: nothing compiled, /health 200 after ${(healthyAfter / 1000).toFixed(1)} s`);
process.exitCode = healthyAfter !== undefined && rebuilt.length === 0 ? 0 : 1;
