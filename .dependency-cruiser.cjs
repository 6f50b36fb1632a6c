// The library's layers, bottom to top. A folder may import its own layer and the ones below it,
// never one above; no import cycles anywhere. `npm run lint:deps` checks it (CI runs it).
const LAYERS = [
  ['errors'],
  ['model'],
  ['config'],
  ['decorators'],
  ['store'],
  ['scheduling'],
  ['snapshot'],
  ['merge'],
  ['discovery'],
  ['runtime'],
  ['command'],
  ['dead-letter'],
  ['processing'],
  ['maintenance'],
  ['http'],
  ['module'],
  ['cqrs', 'cli', 'nats'],
  ['testing'],
];

const SRC = '^libs/event-sourcing/src/';
const folders = (layers) => `${SRC}(${layers.flat().join('|')})/`;

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
      comment: 'an import cycle ties modules that should be layered (a lazy import() of an optional peer is not one)',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'no-folder-outside-layers',
      comment: 'every library folder has a place in LAYERS (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: SRC, pathNot: [`${SRC}index\\.ts$`, folders(LAYERS)] },
      to: {},
    },
    {
      name: 'no-library-internals-from-outside',
      comment: 'apps, tests and the bench use the package by its name (@nest-es/core, /cqrs, /testing)',
      severity: 'error',
      from: { path: '^(apps|test|bench)/' },
      to: { path: SRC, pathNot: `${SRC}(index|cqrs/index|testing/index)\\.ts$` },
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
