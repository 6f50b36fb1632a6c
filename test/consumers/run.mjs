// Consumer fixtures: the packages as a user gets them. Packs every @nest-es package under libs/
// (built first by `npm run test:consumers`) and checks what each tarball holds, then for each fixture
// creates an app in a fresh folder outside the repository, installs the tarballs it uses and its
// pinned dependencies from the registry in one `npm install`, checks which packages came with them,
// compiles it with its own tsconfig and runs it:
// - nest11-cjs, nest12-esm: the shared app in app/src on @nest-es/core, typeorm, http (and the cli's
//   `nest-es --help`); boots on a free port, sends commands over HTTP, reads its projection and the
//   aggregate, stops with SIGTERM;
// - core-only: only @nest-es/core on the in-memory adapter, no HTTP: an application context that
//   sends commands through the CommandGateway, reads them back, closes and exits by itself.
// Usage: node test/consumers/run.mjs [fixture-name...]   (KEEP_CONSUMERS=1 keeps the temp folders)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGES } from '../../scripts/packages.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const workspace = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** What the packages' dependencies bring: none of it may come with @nest-es/core alone. */
const NOT_WITH_CORE = ['typeorm', 'pg', 'better-sqlite3', 'helmet', 'cors', '@nestjs/terminus', 'commander', 'cli-progress', 'class-validator-jsonschema', '@nats-io'];

/**
 * Each fixture: a package.json and tsconfig.json of its own, the sources it takes from the shared
 * app in app/src (all, or the files named), the packages (libs/<name>) whose tarballs it installs,
 * and what must not be in its node_modules (a name, or a scope such as @nats-io, at any depth).
 */
const FIXTURES = [
  // No prom-client, pg or @nestjs/cqrs installed: the optional peers stay optional.
  { name: 'nest11-cjs', title: 'Nest 11, CommonJS, TypeORM 0.3', shared: 'all', packages: ['core', 'typeorm', 'http', 'cli'], run: 'http', env: { METRICS: 'off' }, metrics: false, absent: ['pg', 'prom-client', '@nestjs/cqrs', '@nats-io'] },
  { name: 'nest12-esm', title: 'Nest 12, ES modules, TypeORM 1.x', shared: 'all', packages: ['core', 'typeorm', 'http', 'cli'], run: 'http', env: {}, metrics: true, absent: ['pg', '@nestjs/cqrs', '@nats-io'] },
  { name: 'core-only', title: 'Nest 12, ES modules, @nest-es/core alone on the in-memory adapter', shared: ['account.aggregate.ts'], packages: ['core'], run: 'context', env: {}, absent: NOT_WITH_CORE },
];

/** What a tarball may hold besides the entries of its exports: built JS, declarations, source maps, README, LICENSE, package.json. */
const SHIPPABLE = /^(.*\.js|.*\.js\.map|.*\.d\.ts|.*\.d\.ts\.map|README\.md|LICENSE|package\.json)$/;
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

/** The files an `exports` map (or a `bin` map) points at, without their leading `./`. */
function targets(map) {
  if (typeof map === 'string') return map.includes('*') ? [] : [map.replace(/^\.\//, '')];
  if (map === null || typeof map !== 'object') return [];
  return Object.values(map).flatMap(targets);
}

/** Packs libs/<name> and checks the tarball; resolves with its path. */
function pack(name, destination) {
  const folder = join(workspace, 'libs', name);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  console.log(`npm pack of ${manifest.name}`);
  const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', destination], folder));
  const paths = packed.files.map((file) => file.path);
  const required = ['README.md', 'LICENSE', 'package.json', ...targets(manifest.exports), ...targets(manifest.bin ?? {})];
  const unexpected = paths.filter((path) => !required.includes(path) && (!SHIPPABLE.test(path.split('/').pop()) || /\.spec\./.test(path)));
  check('holds only built JS, .d.ts, maps, README.md, LICENSE and package.json', unexpected.length === 0, unexpected.join(', '));
  const missing = [...new Set(required)].filter((path) => !paths.includes(path));
  check(`has README.md, LICENSE and the entries of its exports${manifest.bin ? ' and bin' : ''}`, missing.length === 0, `missing ${missing.join(', ')}`);
  console.log(`  ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(1)} kB packed, ${(packed.unpackedSize / 1024).toFixed(1)} kB unpacked`);
  return join(destination, packed.filename);
}

/** Every package folder under node_modules, nested ones too: `name` or `@scope/name` -> found. */
function installedPackages(folder) {
  const found = new Set();
  const walk = (modules) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (entry.name.startsWith('@')) {
        for (const scoped of readdirSync(join(modules, entry.name), { withFileTypes: true })) {
          found.add(`${entry.name}/${scoped.name}`);
          walk(join(modules, entry.name, scoped.name, 'node_modules'));
        }
      } else {
        found.add(entry.name);
        walk(join(modules, entry.name, 'node_modules'));
      }
    }
  };
  walk(join(folder, 'node_modules'));
  return found;
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

/** The shared app: commands and reads over HTTP, then SIGTERM. */
async function exerciseHttp(fixture, folder) {
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
    check('the @nest-es/http routes read the aggregate', aggregate.sequence === 2 && aggregate.state?.balance === 250, JSON.stringify(aggregate));
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

/** The core alone: the app sends and reads through the CommandGateway, prints `result {...}` and ends by itself. */
async function exerciseContext(fixture, folder) {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: folder, env: { ...process.env, ...fixture.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exit = await new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(`still running after ${BOOT_TIMEOUT_MS} ms`);
    }, BOOT_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal);
    });
  });
  const line = /^result (.*)$/m.exec(output);
  if (!check('boots as an application context and runs', line !== null, output)) return check('closes and exits by itself with code 0', false, `${exit}`);
  const result = JSON.parse(line[1]);
  check('takes a command through the CommandGateway', result.opened === 1, line[1]);
  check('takes a SIMPLE command, projected when it returns', result.deposited === 2 && result.projected === 250, line[1]);
  check('reads the aggregate back', result.read?.sequence === 2 && result.read?.state?.open === true && result.read?.state?.balance === 250, line[1]);
  check('a business refusal rejects with its code', result.refusal === 'FAILED_PRECONDITION', line[1]);
  check('closes and exits by itself with code 0', exit === 0, `${exit}\n${output}`);
}

function provideSqliteAddon(folder) {
  const versionOf = (root) => JSON.parse(readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
  const target = join(folder, 'node_modules/better-sqlite3');
  if (!existsSync(target)) return;
  if (existsSync(join(workspace, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')) && versionOf(workspace) === versionOf(folder)) {
    cpSync(join(workspace, 'node_modules/better-sqlite3/build'), join(target, 'build'), { recursive: true });
  } else {
    run(npm, ['rebuild', 'better-sqlite3'], folder);
  }
}

async function runFixture(fixture, tarballs) {
  console.log(`\n${fixture.name} (${fixture.title})`);
  const folder = mkdtempSync(join(tmpdir(), `nest-es-${fixture.name}-`));
  try {
    cpSync(join(here, fixture.name), folder, { recursive: true });
    if (fixture.shared === 'all') cpSync(join(here, 'app'), folder, { recursive: true });
    else for (const file of fixture.shared) cpSync(join(here, 'app/src', file), join(folder, 'src', file));
    const installStarted = performance.now();
    const names = fixture.packages.map((name) => `@nest-es/${name}`).join(', ');
    try {
      // One install for every tarball, so the others' peer dependency on @nest-es/core is met by the
      // core's tarball. Install scripts are skipped: the one that matters, better-sqlite3's native
      // build, takes minutes here (no prebuilt binary can be downloaded), so the workspace's own build
      // of the same version is copied in, or the addon is rebuilt when the versions differ.
      run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', ...fixture.packages.map((name) => tarballs.get(name))], folder);
      provideSqliteAddon(folder);
      check(`installs the tarballs of ${names} and its pinned dependencies`, true);
    } catch (error) {
      return check(`installs the tarballs of ${names} and its pinned dependencies`, false, error.stderr || error.message);
    }
    console.log(`  install: ${((performance.now() - installStarted) / 1000).toFixed(0)} s`);
    const installed = installedPackages(folder);
    const present = fixture.absent.filter((name) => installed.has(name) || [...installed].some((found) => found.startsWith(`${name}/`)));
    check(`has none of ${fixture.absent.join(', ')} in its node_modules`, present.length === 0, `installed: ${present.join(', ')}`);
    const otherPackages = PACKAGES.filter((name) => !fixture.packages.includes(name) && installed.has(`@nest-es/${name}`));
    check('has no @nest-es package it did not ask for', otherPackages.length === 0, `installed: ${otherPackages.join(', ')}`);
    try {
      run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], folder);
      check('compiles with its own tsconfig', true);
    } catch (error) {
      return check('compiles with its own tsconfig', false, error.stdout || error.message);
    }
    if (fixture.packages.includes('cli')) {
      try {
        const help = run(npx, ['--no', '--', 'nest-es', '--help'], folder);
        check('npx nest-es --help runs the installed bin', /snapshots/.test(help) && /projections/.test(help), help);
      } catch (error) {
        check('npx nest-es --help runs the installed bin', false, error.stderr || error.message);
      }
    }
    if (fixture.run === 'http') await exerciseHttp(fixture, folder);
    else await exerciseContext(fixture, folder);
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
  const tarballs = new Map();
  for (const name of PACKAGES) tarballs.set(name, pack(name, packFolder));
  for (const fixture of fixtures) await runFixture(fixture, tarballs);
} finally {
  rmSync(packFolder, { recursive: true, force: true });
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
