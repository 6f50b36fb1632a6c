// The packages' boundaries and the core's layers. `npm run lint:deps` checks it (CI runs it).
// - The core knows no database, no HTTP hardening, no CLI and no other @nest-es package.
// - The other packages reach the core through its entries only (`@nest-es/core`, `/internal`, `/testing`),
//   and not each other.
// - Inside the core, a folder may import its own layer and the ones below it, never one above.
// - No import cycles anywhere.
const LAYERS = [
  ['errors'],
  ['model'],
  ['config'],
  ['decorators'],
  ['store'],
  ['adapter'],
  ['scheduling'],
  ['snapshot'],
  ['merge'],
  ['discovery'],
  ['runtime'],
  ['command'],
  ['reading'],
  ['dead-letter'],
  ['processing'],
  ['maintenance'],
  ['operations'],
  ['live'],
  ['module'],
  ['cqrs'],
  ['testing'],
];

const CORE = '^libs/core/src/';
const folders = (layers) => `${CORE}(${layers.flat().join('|')})/`;
const CORE_ENTRIES = `${CORE}(index|internal|adapter/index|cqrs/index|testing/index)\\.ts$`;
const PACKAGES = ['typeorm', 'http', 'nats', 'cli'];
/** What the core must never load: the integrations' libraries live in their own packages. */
const NOT_IN_CORE = ['typeorm', 'pg', 'better-sqlite3', 'helmet', 'cors', '@nestjs/terminus', '@nestjs/platform-express', '@nestjs/platform-fastify', 'commander', 'cli-progress', 'class-validator-jsonschema', '@nats-io/[^/]+'];

const upwardRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `no-upward-from-${layer.join('-')}`,
  comment: `${layer.join(', ')} sits below ${LAYERS.slice(index + 1).flat().join(', ')}: it must not import them`,
  severity: 'error',
  from: { path: folders([layer]) },
  to: { path: folders(LAYERS.slice(index + 1)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle ties modules that should be layered (a lazy import() counts too)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-knows-no-integration',
      comment: 'the core imports no database driver, ORM, HTTP hardening or CLI library, and no other @nest-es package',
      severity: 'error',
      from: { path: CORE },
      to: { path: [`(^|/)node_modules/(${NOT_IN_CORE.join('|')})/`, `^libs/(${PACKAGES.join('|')})/`] },
    },
    {
      name: 'packages-use-core-entries',
      comment: 'the other packages reach the core through @nest-es/core, /internal or /testing, never its files',
      severity: 'error',
      from: { path: `^libs/(${PACKAGES.join('|')})/src/` },
      to: { path: CORE, pathNot: CORE_ENTRIES },
    },
    {
      name: 'packages-stay-apart',
      comment: 'typeorm, http, nats and cli each depend on the core only',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/' },
      to: { path: `^libs/(${PACKAGES.join('|')})/src/`, pathNot: '^libs/$1/src/' },
    },
    {
      name: 'no-folder-outside-layers',
      comment: 'every core folder has a place in LAYERS (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: CORE, pathNot: [`${CORE}(index|internal)\\.ts$`, folders(LAYERS)] },
      to: {},
    },
    {
      name: 'no-library-internals-from-outside',
      comment: 'apps, tests and the bench use the packages by their names (@nest-es/core, /cqrs, /testing, /internal; @nest-es/typeorm ...)',
      severity: 'error',
      from: { path: '^(apps|test|bench|docs)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: [CORE_ENTRIES, `^libs/(${PACKAGES.join('|')})/src/index\\.ts$`] },
    },
    {
      name: 'apps-use-public-entries',
      comment: 'application code uses the public entries; /internal is for the @nest-es packages and the tests',
      severity: 'error',
      from: { path: '^apps/', pathNot: '\\.spec\\.ts$' },
      to: { path: `${CORE}internal\\.ts$` },
    },
    ...upwardRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/|^test/consumers/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
};
