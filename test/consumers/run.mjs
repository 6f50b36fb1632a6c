// Consumer fixtures: the library as a user gets it. Packs libs/event-sourcing (built first by
// `npm run test:consumers`), checks what the tarball holds, then for each fixture creates an app in
// a fresh folder outside the repository, installs the tarball and the fixture's pinned dependencies
// from the registry, compiles it with its own tsconfig, boots it on a free port, sends commands
// over HTTP, reads its projection and stops it with SIGTERM.
// Usage: node test/consumers/run.mjs [fixture-name...]   (KEEP_CONSUMERS=1 keeps the temp folders)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const library = fileURLToPath(new URL('../../libs/event-sourcing', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Each fixture: a package.json and tsconfig.json of its own around the shared app in app/src. */
const FIXTURES = [
  // No prom-client, pg or @nestjs/cqrs installed: the optional peers stay optional.
  { name: 'nest11-cjs', title: 'Nest 11, CommonJS, TypeORM 0.3', env: { METRICS: 'off' }, metrics: false, absent: ['pg', 'prom-client', '@nestjs/cqrs'] },
  { name: 'nest12-esm', title: 'Nest 12, ES modules, TypeORM 1.x', env: {}, metrics: true, absent: ['pg', '@nestjs/cqrs'] },
];

/** What the tarball may hold: built JS, declarations, source maps, README, LICENSE, package.json. */
const SHIPPABLE = /^(.*\.js|.*\.js\.map|.*\.d\.ts|README\.md|LICENSE|package\.json)$/;
const BOOT_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

let passed = 0;
let failed = 0;

function check(what, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? `: ${detail}` : ''}`);
  return ok;
}

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

function packLibrary(destination) {
  console.log('npm pack of @nest-es/core');
  const [pack] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', destination], library));
  const paths = pack.files.map((file) => file.path);
  const unexpected = paths.filter((path) => !SHIPPABLE.test(path.split('/').pop()) || /\.spec\./.test(path));
  check('the tarball holds only built JS, .d.ts, maps, README.md, LICENSE and package.json', unexpected.length === 0, unexpected.join(', '));
  check('the tarball has README.md, LICENSE and the entries of its exports', ['README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/cqrs/index.js', 'dist/testing/index.js'].every((path) => paths.includes(path)));
  console.log(`  tarball ${pack.filename}: ${pack.entryCount} files, ${(pack.size / 1024).toFixed(1)} kB packed, ${(pack.unpackedSize / 1024).toFixed(1)} kB unpacked`);
  return join(destination, pack.filename);
}

/** Starts the app and resolves with its port once it prints `listening on <port>`. */
function boot(folder, env) {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: folder,
    env: { ...process.env, ...env, PORT: '0', DATABASE_FILE: join(folder, 'app.sqlite') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" within ${BOOT_TIMEOUT_MS} ms`)), BOOT_TIMEOUT_MS);
    const read = (chunk) => {
      output += chunk;
      const match = /listening on (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with code ${code} before listening`));
    });
  });
  return { child, port, output: () => output };
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('killed after the stop timeout');
    }, STOP_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal);
    });
    child.kill('SIGTERM');
  });
}

async function send(base, path, body, headers = {}) {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

async function exercise(fixture, folder) {
  const started = performance.now();
  const app = boot(folder, fixture.env);
  let booted = false;
  try {
    const port = await app.port;
    const base = `http://127.0.0.1:${port}`;
    booted = check('boots', true);
    const opened = await send(base, '/commands/account/acc-1/OpenAccount', { owner: 'Ada' });
    const firstCommandMs = performance.now() - started;
    check('takes a command over HTTP', opened.status === 200 && opened.body?.sequence === 1, JSON.stringify(opened));
    const deposited = await send(base, '/commands/account/acc-1/Deposit', { amount: 250 }, { 'Sync-Mode': 'simple' });
    check('takes a SIMPLE command', deposited.status === 200 && deposited.body?.sequence === 2, JSON.stringify(deposited));
    const balance = await fetch(`${base}/balances/acc-1`).then(async (response) => ({ status: response.status, body: await response.json() }));
    check('the projection is up to date when the SIMPLE command returns', balance.status === 200 && balance.body.balance === 250, JSON.stringify(balance));
    const aggregate = await fetch(`${base}/aggregates/account/acc-1`).then((response) => response.json());
    check('the library routes read the aggregate', aggregate.sequence === 2 && aggregate.state?.balance === 250, JSON.stringify(aggregate));
    const refused = await send(base, '/commands/account/acc-2/Deposit', { amount: 1 });
    check('a business refusal is a 409 with its code', refused.status === 409 && refused.body?.code === 'FAILED_PRECONDITION', JSON.stringify(refused));
    const metrics = await fetch(`${base}/metrics`);
    const metricsText = await metrics.text();
    if (fixture.metrics) check('serves Prometheus metrics', metrics.status === 200 && metricsText.includes('es_commands_total'), `${metrics.status}`);
    else check('runs without prom-client, metrics off', metrics.status === 404, `${metrics.status}`);
    console.log(`  boot to first command: ${firstCommandMs.toFixed(0)} ms`);
  } catch (error) {
    check('boots and answers', false, `${error.message}\n${app.output()}`);
  } finally {
    const exit = await stop(app.child);
    // A failed boot has printed the output already.
    check('stops on SIGTERM with exit code 0', exit === 0, booted ? `${exit}\n${app.output()}` : `${exit}`);
  }
}

function provideSqliteAddon(folder) {
  const versionOf = (root) => JSON.parse(readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
  const target = join(folder, 'node_modules/better-sqlite3');
  if (!existsSync(target)) return;
  const workspace = join(here, '../..');
  if (existsSync(join(workspace, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')) && versionOf(workspace) === versionOf(folder)) {
    cpSync(join(workspace, 'node_modules/better-sqlite3/build'), join(target, 'build'), { recursive: true });
  } else {
    run(npm, ['rebuild', 'better-sqlite3'], folder);
  }
}

async function runFixture(fixture, tarball) {
  console.log(`\n${fixture.name} (${fixture.title})`);
  const folder = mkdtempSync(join(tmpdir(), `nest-es-${fixture.name}-`));
  try {
    cpSync(join(here, fixture.name), folder, { recursive: true });
    cpSync(join(here, 'app'), folder, { recursive: true });
    const installStarted = performance.now();
    try {
      // Install scripts are skipped: the one that matters, better-sqlite3's native build, takes
      // minutes here (no prebuilt binary can be downloaded), so the workspace's own build of the
      // same version is copied in, or the addon is rebuilt when the versions differ.
      run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball], folder);
      provideSqliteAddon(folder);
      check('installs the tarball and its pinned dependencies', true);
    } catch (error) {
      return check('installs the tarball and its pinned dependencies', false, error.stderr || error.message);
    }
    console.log(`  install: ${((performance.now() - installStarted) / 1000).toFixed(0)} s`);
    const installed = fixture.absent.filter((name) => existsSync(join(folder, 'node_modules', name)));
    check(`runs without ${fixture.absent.join(', ')} installed`, installed.length === 0, `installed: ${installed.join(', ')}`);
    try {
      run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], folder);
      check('compiles with its own tsconfig', true);
    } catch (error) {
      return check('compiles with its own tsconfig', false, error.stdout || error.message);
    }
    await exercise(fixture, folder);
  } finally {
    if (process.env.KEEP_CONSUMERS) console.log(`  kept in ${folder}`);
    else rmSync(folder, { recursive: true, force: true });
  }
}

const chosen = process.argv.slice(2);
const fixtures = chosen.length === 0 ? FIXTURES : FIXTURES.filter((fixture) => chosen.includes(fixture.name));
const unknown = chosen.filter((name) => !FIXTURES.some((fixture) => fixture.name === name));
if (unknown.length > 0) {
  console.error(`unknown fixture ${unknown.join(', ')}; known: ${FIXTURES.map((fixture) => fixture.name).join(', ')}`);
  process.exit(2);
}
const packFolder = mkdtempSync(join(tmpdir(), 'nest-es-pack-'));
try {
  const tarball = packLibrary(packFolder);
  for (const fixture of fixtures) await runFixture(fixture, tarball);
} finally {
  rmSync(packFolder, { recursive: true, force: true });
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
