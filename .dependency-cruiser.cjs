// The import graph's rules (issue 15). `npm run lint:graph` checks them; server/README.md describes the
// layers. Paths are relative to the repository root. Every rule is an error: a new arrow that breaks one
// fails `npm test`. Violations that existed on main when the rules came in are listed in
// .dependency-cruiser-known-violations.json (ignored by --ignore-known) and, for module cycles,
// .dependency-cruiser-known-cycles.json; both may only shrink (server/README.md).

// The server's layers, top to bottom; each may import only what is below it.
// server/open/ (the integrator REST API, /open/v1, issue 13) is composition too: like app.ts it puts
// modules together (a flow launched from a template uses template's and flow's index.ts), so it may use
// every module, but only through index.ts (modules-only-through-index) and never SQL (open-never-runs-sql).
const COMPOSITION = '^server/(main|serve|app)\\.ts$|^server/open/';
const MODULES = '^server/modules/';
const FOUNDATION = '^server/(http/|deps\\.ts$)';
const CORES = '^server/(pki|pdf|seal|storage|messaging|jobs|db|providers)/';
const CONFIG = '^server/config(\\.ts$|/)';
const LIB = '^server/lib/';
const PDF_PKI_LIBRARIES = '(^|/)node_modules/(pdf-lib|@pdf-lib/[^/]+|@cantoo/pdf-lib|pkijs|asn1js)/';

const KNOWN_CYCLES = `${__dirname}/.dependency-cruiser-known-cycles.json`;
const NO_MODULE_CYCLES = {
  name: 'no-module-cycles',
  comment:
    'Dependencies between modules point one way; where the lower module must tell the higher one, it emits a ' +
    'hook (server/lib/hooks.ts). A cycle between module folders is a load-order hazard and a tangle.',
  severity: 'error',
  scope: 'folder',
};

/**
 * The cores below providers and messaging, top to bottom: each may import the ones after it, never one before
 * it (one rule per core, `core-order-<core>`, so a report names the core that was reached upwards).
 */
const LOWER_CORES = ['db', 'seal', 'pdf', 'pki', 'storage'];
function lowerCoreOrderRules() {
  return LOWER_CORES.slice(0, -1).map((core, i) => {
    const below = LOWER_CORES.slice(i + 1);
    return {
      name: `core-order-${core}`,
      comment: `${core} is above ${below.join(', ')} (see core-order).`,
      severity: 'error',
      from: { path: `^server/(${below.join('|')})/` },
      to: { path: `^server/${core}/` },
    };
  });
}

/**
 * The module-cycle rule, checked between module folders. dependency-cruiser does not soften folder-level
 * violations with --ignore-known, so the known module cycles (.dependency-cruiser-known-cycles.json,
 * written by `npm run lint:graph:baseline`) are left out here, per module: module M may keep its known
 * cycles with the modules listed for it, and nothing else. With DEPCRUISE_ALL_CYCLES=1 every cycle counts
 * (the baseline script sets it).
 */
function moduleCycleRules() {
  const fs = require('node:fs');
  const known =
    process.env.DEPCRUISE_ALL_CYCLES === '1' || !fs.existsSync(KNOWN_CYCLES)
      ? []
      : JSON.parse(fs.readFileSync(KNOWN_CYCLES, 'utf8'));
  const partners = new Map();
  for (const v of known) partners.set(v.from, [...(partners.get(v.from) ?? []), v.to]);
  const esc = (p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rules = [...partners].map(([from, tos]) => ({
    ...NO_MODULE_CYCLES,
    from: { path: `^${esc(from)}$` },
    to: { circular: true, path: '^server/modules/[^/]+$', pathNot: `^(${tos.map(esc).join('|')})$` },
  }));
  const withKnown = [...partners.keys()].map((f) => `^${esc(f)}$`);
  rules.push({
    ...NO_MODULE_CYCLES,
    from: { path: '^server/modules/[^/]+$', ...(withKnown.length ? { pathNot: withKnown.join('|') } : {}) },
    to: { circular: true, path: '^server/modules/[^/]+$' },
  });
  return rules;
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // --- the server's layer order: composition -> modules -> http/deps -> cores -> config -> lib ---
    {
      name: 'modules-below-composition',
      comment: 'A module is a use case; main/serve/app compose the modules, so a module never reaches up into them.',
      severity: 'error',
      from: { path: MODULES },
      to: { path: COMPOSITION },
    },
    {
      name: 'foundation-never-imports-a-module',
      comment:
        'http/ (transport, envelope, registerCall) and deps.ts sit below the modules: a module registers itself ' +
        'through an interface http/ defines, so the foundation works whatever modules exist.',
      severity: 'error',
      from: { path: FOUNDATION },
      to: { path: `${MODULES}|${COMPOSITION}` },
    },
    {
      name: 'cores-never-import-modules-or-http',
      comment:
        'The cores (pki, pdf, seal, storage, messaging, jobs, db, providers) do one technical job and know nothing of ' +
        'use cases or HTTP: they throw their own typed errors, the module that called them turns those into AppErrors.',
      severity: 'error',
      from: { path: CORES },
      to: { path: `${MODULES}|${FOUNDATION}|${COMPOSITION}` },
    },
    {
      name: 'config-imports-only-lib',
      comment:
        'config.ts reads and validates every setting; it is below everything that reads a setting, so it imports ' +
        'only lib (the settings parsers live in server/config/, not in the modules or providers that use them).',
      severity: 'error',
      from: { path: CONFIG },
      to: { path: '^server/', pathNot: `${CONFIG}|${LIB}` },
    },
    {
      name: 'lib-imports-nothing-of-the-server',
      comment: 'lib/ holds small helpers every layer may use; it depends on no other part of the server.',
      severity: 'error',
      from: { path: LIB },
      to: { path: '^server/', pathNot: LIB },
    },

    // --- the order among the cores ---
    {
      name: 'core-order',
      comment:
        'Among the cores, from top to bottom: providers, messaging -> db -> seal -> pdf -> pki -> storage. ' +
        'messaging and providers talk to the outside world and may use the rest; db types the seals table with ' +
        "seal's SealDef; pdf may use pki; pki and storage are the floor. An arrow upwards (e.g. pki -> pdf) " +
        'would make them one tangle.',
      severity: 'error',
      from: { path: '^server/(db|seal|pdf|pki|storage)/' },
      to: { path: '^server/(providers|messaging)/' },
    },
    {
      name: 'core-order-providers',
      comment: 'messaging delivers through the providers (SMS gateways, mail); a provider never calls messaging.',
      severity: 'error',
      from: { path: '^server/providers/' },
      to: { path: '^server/messaging/' },
    },
    {
      name: 'core-order-jobs',
      comment:
        'jobs (pg-boss over the database) sits above db, below messaging (which enqueues its retries): the lower cores never enqueue, ' +
        'and the job system calls nobody (modules declare their handlers; the composition runs them).',
      severity: 'error',
      from: { path: '^server/(db|seal|pdf|pki|storage|providers)/' },
      to: { path: '^server/jobs/' },
    },
    ...lowerCoreOrderRules(),

    // --- modules: one public face each, no cycles ---
    {
      name: 'modules-only-through-index',
      comment:
        "A module has two faces (server/README.md, \"Two faces\"): index.ts, its use cases for other modules and " +
        'the composition, and module.ts, its registration (next rule). Nobody imports a file behind them, so a ' +
        'module may reorganise its files without breaking anyone.',
      severity: 'error',
      from: { path: '^server/(modules/([^/]+)/|[^/]+\\.ts$|open/)' },
      to: {
        path: '^server/modules/[^/]+/',
        pathNot: ['^server/modules/$2/', '^server/modules/[^/]+/(index|module)\\.ts$'],
      },
    },
    {
      name: 'registration-only-in-app',
      comment:
        "A module's module.ts (its routes, hooks and jobs) is imported by app.ts alone: a type or a use case " +
        'of a module never pulls in its routes, nor the modules those routes use.',
      severity: 'error',
      from: { pathNot: '^server/app\\.ts$' },
      to: { path: '^server/modules/[^/]+/module\\.ts$' },
    },
    {
      name: 'face-offers-use-cases',
      comment:
        "A module's index.ts offers use cases and domain types, never persistence nor transport: it imports " +
        'no queries file and no module.ts or routes, so what crosses the face is what a caller may ask for.',
      severity: 'error',
      from: { path: '^server/modules/[^/]+/index\\.ts$' },
      to: { path: '^server/modules/[^/]+/([a-z-]*queries\\.ts$|queries/|module\\.ts$|routes\\.ts$)' },
    },
    {
      name: 'outside-through-faces',
      comment:
        'Tests, e2e journeys, scripts and benches reach a module through its index.ts, or through its testing.ts ' +
        '(what only tests may use: pure rules, fakes), as the modules reach each other. `npm run lint:graph` ' +
        'checks them in a second pass that does not follow into the product (so cycles are the product\'s only).',
      severity: 'error',
      from: { path: '^(tests|e2e|scripts|bench)/' },
      to: {
        path: '^server/modules/[^/]+/',
        pathNot: '^server/modules/[^/]+/(index|testing)\\.ts$',
      },
    },
    {
      name: 'testing-face-only-for-tests',
      comment: "A module's testing.ts exists for tests; the product (and its scripts) never import it.",
      severity: 'error',
      from: { pathNot: '^tests/' },
      to: { path: '^server/modules/[^/]+/testing\\.ts$' },
    },
    ...moduleCycleRules(),

    // --- PDF and PKI libraries only in the cores that own that work ---
    {
      name: 'pdf-pki-libraries-only-in-cores',
      comment:
        'pdf-lib, pkijs and asn1js are used only by server/pdf, server/pki and server/seal; a module asks those ' +
        'cores in a sentence ("stamp these pages", "sign this digest") instead of handling PDF objects itself.',
      severity: 'error',
      from: { path: '^(server|src|contract)/', pathNot: '^server/(pdf|pki|seal)/' },
      to: { path: PDF_PKI_LIBRARIES },
    },

    // --- each module's SQL in its queries file(s) ---
    {
      name: 'sql-only-in-queries',
      comment:
        'A module writes SQL (drizzle queries or the sql tag) only in its queries.ts (or <part>-queries.ts, or a ' +
        'queries/ folder), so that what reads and writes a table is in one place per module; services and routes ' +
        'call those functions.',
      severity: 'error',
      from: { path: '^server/modules/[^/]+/', pathNot: '^server/modules/[^/]+/([a-z-]*queries\\.ts$|queries/)' },
      to: { path: '(^|/)node_modules/drizzle-orm/' },
    },

    // --- the integrator API reaches data only through the modules ---
    {
      name: 'open-never-runs-sql',
      comment:
        'server/open/ (/open/v1) acts for an API key through the same module services as the workspace, so that ' +
        'a key sees exactly what its account sees and every rule lives once; it never queries tables itself.',
      severity: 'error',
      from: { path: '^server/open/' },
      to: { path: '(^|/)node_modules/drizzle-orm/|^server/db/' },
    },

    // --- the client, the contract and the server stay apart ---
    {
      name: 'no-feature-to-feature',
      comment:
        'A client feature (src/features/<a>) never imports another feature: what two features share moves to ' +
        'src/components, src/lib or src/api.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/[^/]+/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'client-never-imports-server',
      comment: 'The client talks to the server through the contract and HTTP only; server code never ships to the browser.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-never-imports-client',
      comment: 'The server shares types and rules with the client through contract/ only.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/' },
    },
    {
      name: 'contract-imports-neither',
      comment: 'contract/ is shared by the client and the server, so it imports neither.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(src|server)/' },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API dependency-cruiser can load, so files are parsed with swc (a
    // devDependency). swc keeps type-only imports, so types count: a type import ties two layers as surely
    // as a value import. (tsPreCompilationDeps would ask for the TypeScript compiler and only warn.)
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^tests/fixtures/'] },
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    // tsconfig's "@/*" path (the client); package.json's "#contract/*", "#server/*" imports resolve by themselves.
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
