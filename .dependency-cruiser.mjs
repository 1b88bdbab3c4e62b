// The import graph's rules (npm run lint): no cycle between files or between folders, and lib/'s
// folders as layers, each importing only the layers below it. docs/architecture.md explains them.

/** lib/'s layers, bottom first; the files directly in lib/ (config, errors, log, pager, ...) are below them all. */
const LAYERS = [
  ['db', 'site'],
  ['streams'],
  ['slugs'],
  ['profiles'],
  ['auth'],
  ['users'],
  ['tags'],
  ['posts'],
  ['search'],
  ['lists'],
  ['votes'],
  ['favorites'],
  ['comments'],
  ['reports'],
  ['reactions'],
  ['http'],
  ['feed'],
  ['docs'],
  ['openapi'],
  ['reads'],
  ['pages'],
];

const folders = (names) => `^lib/(${names.join('|')})/`;

const layerRules = LAYERS.slice(0, -1).map((layer, at) => ({
  name: `layer-${layer.join('-')}`,
  comment: `lib/${layer.join(', lib/')} may import only the layers below it, not ${LAYERS.slice(at + 1)
    .flat()
    .join(', ')}`,
  severity: 'error',
  from: { path: folders(layer) },
  to: { path: folders(LAYERS.slice(at + 1).flat()) },
}));

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No file imports itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'No folder imports itself through others.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-core-is-the-bottom',
      comment: "The files directly in lib/ are the bottom layer: they import none of lib/'s folders.",
      severity: 'error',
      from: { path: '^lib/[^/]+$' },
      to: { path: '^lib/[^/]+/' },
    },
    ...layerRules,
    {
      name: 'lib-stays-in-lib',
      comment: 'lib/ is what the functions run: it never imports the handlers, the CDK app, the scripts or the tests.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(functions|infra|scripts|test)/' },
    },
    {
      name: 'functions-import-lib',
      comment: 'A handler imports lib/ (and node_modules) only: no other handler, nothing of the CDK app, the scripts or the tests.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^(functions|infra|scripts|test)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every import resolves (the #lib/* imports included): an edge the cruiser cannot follow is a rule it cannot check.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports are edges too: a type is part of what a module depends on.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
