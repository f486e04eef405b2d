// The import-graph rules (.dependency-cruiser.cjs, `npm run lint:graph`) catch each kind of wrong import:
// a fixture tree with one deliberately wrong import of each kind must be reported rule by rule, a fixture
// tree of right imports must pass, and so must the real tree (with the committed baseline of violations
// that main still had when the rules came in).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ICruiseOptions, type ICruiseResult, type IViolation, cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = join(root, 'tests/fixtures/import-graph');
const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs'));

/**
 * What `npm run lint:graph` runs: the product (server, src, contract) with every rule, then the folders that use
 * it from outside (tests, e2e, scripts, bench) without following into the product.
 */
async function graph(baseDir: string, knownViolations?: IViolation[]): Promise<ICruiseResult> {
  const options: ICruiseOptions = {
    ...config.options,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    baseDir,
    tsConfig: { fileName: join(root, 'tsconfig.json') },
    ...(knownViolations ? { knownViolations } : {}),
  };
  const product = (await cruise(['server', 'src', 'contract'], options)).output as ICruiseResult;
  const outsideFolders = ['tests', 'e2e', 'scripts', 'bench'].filter((d) => existsSync(join(baseDir, d)));
  const outside = (
    await cruise(outsideFolders, {
      ...options,
      doNotFollow: { path: '^(server|src|contract|node_modules)/' },
    })
  ).output as ICruiseResult;
  return {
    ...product,
    summary: {
      ...product.summary,
      violations: [...product.summary.violations, ...outside.summary.violations],
      totalCruised: product.summary.totalCruised + outside.summary.totalCruised,
    },
  };
}

const broken = (r: ICruiseResult) =>
  r.summary.violations
    .filter((v) => v.rule.severity === 'error')
    .map((v) => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`);

describe('import graph', () => {
  it('reports each kind of wrong import', async () => {
    const found = broken(await graph(join(fixtures, 'wrong')));
    expect(found).toEqual(
      expect.arrayContaining([
        // a cycle between two modules (folder level)
        'no-module-cycles: server/modules/alpha -> server/modules/beta',
        // a deep import into another module, not through its index.ts
        'modules-only-through-index: server/modules/gamma/index.ts -> server/modules/alpha/service.ts',
        // pdf-lib inside a module
        expect.stringMatching(
          /^pdf-pki-libraries-only-in-cores: server\/modules\/gamma\/stamp\.ts -> node_modules\/@cantoo\/pdf-lib\//,
        ),
        // SQL outside the module's queries file
        expect.stringMatching(
          /^sql-only-in-queries: server\/modules\/gamma\/service\.ts -> node_modules\/drizzle-orm\//,
        ),
        // the integrator API running SQL, and reaching behind a module's index.ts
        expect.stringMatching(/^open-never-runs-sql: server\/open\/flows\.ts -> node_modules\/drizzle-orm\//),
        'modules-only-through-index: server/open/flows.ts -> server/modules/alpha/service.ts',
        // config importing a module
        'config-imports-only-lib: server/config.ts -> server/modules/gamma/index.ts',
        // the foundation importing a module
        'foundation-never-imports-a-module: server/http/register-call.ts -> server/modules/alpha/index.ts',
        // a core importing http, and a core importing a core above it
        'cores-never-import-modules-or-http: server/pdf/stamp.ts -> server/http/register-call.ts',
        'core-order-pdf: server/pki/sign.ts -> server/pdf/stamp.ts',
        // lib importing the server
        'lib-imports-nothing-of-the-server: server/lib/text.ts -> server/config.ts',
        // a client feature importing another feature; the client importing the server; the contract the client
        'no-feature-to-feature: src/features/one/page.ts -> src/features/two/page.ts',
        'client-never-imports-server: src/features/one/page.ts -> server/lib/text.ts',
        'contract-imports-neither: contract/call.ts -> src/features/two/page.ts',
        // a module's face handing out its queries and its registration; the registration imported outside app.ts
        'face-offers-use-cases: server/modules/delta/index.ts -> server/modules/delta/queries.ts',
        'face-offers-use-cases: server/modules/delta/index.ts -> server/modules/delta/module.ts',
        'registration-only-in-app: server/modules/delta/index.ts -> server/modules/delta/module.ts',
        'registration-only-in-app: scripts/tool.ts -> server/modules/delta/module.ts',
        // a test behind a module's faces; a script using a testing face
        'outside-through-faces: tests/server/delta.test.ts -> server/modules/delta/rule.ts',
        'outside-through-faces: scripts/tool.ts -> server/modules/delta/module.ts',
        'testing-face-only-for-tests: scripts/tool.ts -> server/modules/delta/testing.ts',
      ]),
    );
  });

  it('lets right imports pass', async () => {
    const r = await graph(join(fixtures, 'right'));
    expect(broken(r)).toEqual([]);
    // the tree was really read: the module's imports of the other module and of the pdf core are there
    expect(r.summary.totalCruised).toBeGreaterThanOrEqual(9);
  });

  it('passes on the real tree, given the baseline of violations main had', async () => {
    const baseline = JSON.parse(
      readFileSync(join(root, '.dependency-cruiser-known-violations.json'), 'utf8'),
    );
    const r = await graph(root, baseline);
    expect(broken(r)).toEqual([]);
    expect(r.summary.totalCruised).toBeGreaterThan(300);
  });
});
