// Consumer fixtures: the packages as a user gets them. Packs every @nest-es package under libs/
// (built first by `npm run test:consumers`) and checks what each tarball holds, then for each fixture
// creates an app in a fresh folder outside the repository, installs the tarballs it uses and its
// dependencies from the registry in one `npm install` (with the Node 20 overrides of
// docs/installation.md, and no engine warning allowed), checks which packages came with them,
// compiles it with the compiler settings of docs/installation.md (no skipLibCheck) and runs it:
// - nest11-cjs (SQLite), nest12-esm (PostgreSQL): the shared app in app/src on @nest-es/core,
//   typeorm, http (and the cli's `nest-es --help`); runs its spec under the Jest set-up of
//   docs/testing.md, boots on a free port, sends commands over HTTP, reads its projection and the
//   aggregate, stops with SIGTERM;
// - core-only: only @nest-es/core on the in-memory adapter, no HTTP: an application context that
//   sends commands through the CommandGateway, reads them back, closes and exits by itself;
// - readme: the README's install line as written and the quick-start example the README shows.
// Usage: node test/consumers/run.mjs [fixture-name...]   (KEEP_CONSUMERS=1 keeps the temp folders)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, untilHealthy } from '../../scripts/http-probe.mjs';
import { packLibrary } from '../../scripts/pack-libs.mjs';
import { PACKAGES } from '../../scripts/packages.mjs';
import { documentedInstall, documentedJestConfig, documentedOverrides, documentedTsconfig } from './documented.mjs';

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
  // Each installs one driver only, and no @nestjs/cqrs: the optional peers stay optional.
  { name: 'nest11-cjs', title: 'Nest 11, CommonJS, TypeORM 0.3, SQLite', shared: 'all', packages: ['core', 'typeorm', 'http', 'cli'], run: 'http', jest: 'cjs', env: { METRICS: 'off' }, metrics: false, absent: ['pg', 'prom-client', '@nestjs/cqrs', '@nats-io'] },
  { name: 'nest12-esm', title: 'Nest 12, ES modules, TypeORM 1.x, PostgreSQL', shared: 'all', packages: ['core', 'typeorm', 'http', 'cli'], run: 'http', jest: 'esm', postgres: true, env: {}, metrics: true, absent: ['better-sqlite3', '@nestjs/cqrs', '@nats-io'] },
  { name: 'core-only', title: 'Nest 12, ES modules, @nest-es/core alone on the in-memory adapter', shared: ['account.aggregate.ts'], packages: ['core'], run: 'context', env: {}, absent: NOT_WITH_CORE },
  { name: 'readme', title: "the README's install line and example, ES modules, SQLite", readme: true, run: 'readme', env: {}, absent: ['pg', '@nestjs/cqrs', '@nats-io'] },
];

/** What a tarball may hold besides the entries of its exports: built JS, declarations, source maps, README, LICENSE, package.json. */
const SHIPPABLE = /^(.*\.js|.*\.js\.map|.*\.d\.ts|.*\.d\.ts\.map|README\.md|LICENSE|package\.json)$/;
const BOOT_TIMEOUT_MS = 60_000;
const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
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

/** Packs libs/<name> and checks the tarball; returns its path. */
function pack(name, destination) {
  const { manifest, packed, path } = packLibrary(name, destination);
  console.log(`npm pack of ${manifest.name}`);
  const paths = packed.files.map((file) => file.path);
  const required = ['README.md', 'LICENSE', 'package.json', ...targets(manifest.exports), ...targets(manifest.bin ?? {})];
  const unexpected = paths.filter((path) => !required.includes(path) && (!SHIPPABLE.test(path.split('/').pop()) || /\.spec\./.test(path)));
  check('holds only built JS, .d.ts, maps, README.md, LICENSE and package.json', unexpected.length === 0, unexpected.join(', '));
  const missing = [...new Set(required)].filter((path) => !paths.includes(path));
  check(`has README.md, LICENSE and the entries of its exports${manifest.bin ? ' and bin' : ''}`, missing.length === 0, `missing ${missing.join(', ')}`);
  console.log(`  ${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(1)} kB packed, ${(packed.unpackedSize / 1024).toFixed(1)} kB unpacked`);
  return path;
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

/** The README's example as the README runs it: its curl requests, then SIGTERM. */
async function exerciseReadme(folder) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: folder, env: { ...process.env, PORT: String(port), DATABASE_FILE: join(folder, 'app.sqlite') }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    await untilHealthy(base, child, BOOT_TIMEOUT_MS);
    check('boots as written and answers /health', true);
    const registered = await send(base, '/commands/player/bob/RegisterPlayer', { displayName: 'Bob' });
    check('takes RegisterPlayer over HTTP', registered.status === 200 && registered.body?.sequence === 1, JSON.stringify(registered));
    const deposited = await send(base, '/commands/player/bob/DepositFunds', { amount: 250 }, { 'Command-Id': 'deposit-2', 'Sync-Mode': 'simple' });
    check('takes a SIMPLE DepositFunds', deposited.status === 200 && deposited.body?.sequence === 2, JSON.stringify(deposited));
    const read = await fetch(`${base}/aggregates/player/bob`).then((response) => response.json());
    check('reads the player as the README shows', JSON.stringify(read) === JSON.stringify({ state: { registered: true, bankroll: 250 }, sequence: 2 }), JSON.stringify(read));
  } catch (error) {
    check('boots as written and answers /health', false, `${error.message}\n${output}`);
  } finally {
    const exit = await stop(child);
    check('stops on SIGTERM with exit code 0', exit === 0, `${exit}\n${output}`);
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

/** The fixture's folder: its own files (or, for the README's app, the quick-start example), the documented tsconfig and overrides. */
function prepare(fixture, folder) {
  const own = fixture.readme ? { compilerOptions: { types: ['node'], rootDir: 'src', outDir: 'dist' }, include: ['src'] } : JSON.parse(readFileSync(join(here, fixture.name, 'tsconfig.json'), 'utf8'));
  if (fixture.readme) {
    mkdirSync(join(folder, 'src'), { recursive: true });
    writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'readme-app', version: '0.0.0', private: true, type: 'module', allowScripts: { 'better-sqlite3': true } }, null, 2)}\n`);
    cpSync(join(workspace, 'docs/examples/quick-start'), join(folder, 'src'), { recursive: true });
  } else {
    cpSync(join(here, fixture.name), folder, { recursive: true });
    if (fixture.shared === 'all') cpSync(join(here, 'app'), folder, { recursive: true });
    else for (const file of fixture.shared) cpSync(join(here, 'app/src', file), join(folder, 'src', file));
  }
  writeFileSync(join(folder, 'tsconfig.json'), `${JSON.stringify({ ...own, compilerOptions: { ...documentedTsconfig(), ...own.compilerOptions } }, null, 2)}\n`);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ ...manifest, overrides: documentedOverrides() }, null, 2)}\n`);
  if (fixture.jest) {
    const jest = documentedJestConfig(fixture.jest);
    for (const [file, text] of Object.entries(jest.files)) writeFileSync(join(folder, file), text);
    return jest.testScript;
  }
  return undefined;
}

/**
 * One `npm install` of everything, so the others' peer dependency on @nest-es/core is met by the
 * core's tarball; the README's app installs the README's line, its @nest-es names replaced by the
 * tarballs. Install scripts are skipped: the one that matters, better-sqlite3's native build, takes
 * minutes here (no prebuilt binary can be downloaded), so the workspace's own build of the same
 * version is copied in, or the addon is rebuilt when the versions differ.
 */
function install(fixture, folder, tarballs) {
  const packages = fixture.readme ? documentedInstall().map((name) => (name.startsWith('@nest-es/') ? tarballs.get(name.slice('@nest-es/'.length)) : name)) : fixture.packages.map((name) => tarballs.get(name));
  const extra = fixture.readme ? [['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--save-dev', 'typescript@5.9.3', '@types/node@20.19.43']] : [];
  let output = '';
  for (const args of [['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', ...packages], ...extra]) {
    const result = spawnSync(npm, args, { cwd: folder, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    output += `${result.stdout}${result.stderr}`;
    if (result.status !== 0) throw new Error(output);
  }
  provideSqliteAddon(folder);
  return output;
}

/** A fresh PostgreSQL database for a fixture; resolves with its URL and a function that drops it. */
async function freshDatabase(fixture) {
  const name = `nest_es_consumer_${fixture.name.replace(/\W/g, '_')}_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
  return { url: url.toString(), drop };
}

function runJest(folder, testScript, env) {
  const [, ...args] = testScript.split(/\s+/);
  const result = spawnSync(process.execPath, args, { cwd: folder, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout}${result.stderr}`;
  check('its spec passes under the Jest set-up of docs/testing.md, with no warning from ts-jest', result.status === 0 && /Tests:\s+\d+ passed/.test(output) && !/ts-jest\[\w+\] \(WARN\)/.test(output), output);
}

async function runFixture(fixture, tarballs) {
  console.log(`\n${fixture.name} (${fixture.title})`);
  const folder = mkdtempSync(join(tmpdir(), `nest-es-${fixture.name}-`));
  const database = fixture.postgres ? await freshDatabase(fixture) : undefined;
  const env = { ...fixture.env, ...(database ? { DATABASE_URL: database.url } : {}) };
  try {
    const testScript = prepare(fixture, folder);
    const installStarted = performance.now();
    const what = fixture.readme ? "the README's install line" : `the tarballs of ${fixture.packages.map((name) => `@nest-es/${name}`).join(', ')} and its pinned dependencies`;
    let output;
    try {
      output = install(fixture, folder, tarballs);
      check(`installs ${what}`, true);
    } catch (error) {
      return check(`installs ${what}`, false, error.message);
    }
    console.log(`  install: ${((performance.now() - installStarted) / 1000).toFixed(0)} s`);
    const engineWarnings = output.split('\n').filter((line) => /EBADENGINE\s+package:/.test(line));
    check(`prints no engine warning on Node ${process.versions.node}`, engineWarnings.length === 0, engineWarnings.join('; '));
    const installed = installedPackages(folder);
    const present = fixture.absent.filter((name) => installed.has(name) || [...installed].some((found) => found.startsWith(`${name}/`)));
    check(`has none of ${fixture.absent.join(', ')} in its node_modules`, present.length === 0, `installed: ${present.join(', ')}`);
    const asked = fixture.readme ? documentedInstall().filter((name) => name.startsWith('@nest-es/')).map((name) => name.slice('@nest-es/'.length)) : fixture.packages;
    const otherPackages = PACKAGES.filter((name) => !asked.includes(name) && installed.has(`@nest-es/${name}`));
    check('has no @nest-es package it did not ask for', otherPackages.length === 0, `installed: ${otherPackages.join(', ')}`);
    try {
      run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], folder);
      check('compiles with the compiler settings of docs/installation.md (no skipLibCheck)', true);
    } catch (error) {
      return check('compiles with the compiler settings of docs/installation.md (no skipLibCheck)', false, error.stdout || error.message);
    }
    if (testScript) runJest(folder, testScript, env);
    if (asked.includes('cli') && !fixture.readme) {
      try {
        const help = run(npx, ['--no', '--', 'nest-es', '--help'], folder);
        check('npx nest-es --help runs the installed bin', /snapshots/.test(help) && /projections/.test(help), help);
      } catch (error) {
        check('npx nest-es --help runs the installed bin', false, error.stderr || error.message);
      }
    }
    if (fixture.run === 'http') await exerciseHttp({ ...fixture, env }, folder);
    else if (fixture.run === 'readme') await exerciseReadme(folder);
    else await exerciseContext(fixture, folder);
  } finally {
    await database?.drop();
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
