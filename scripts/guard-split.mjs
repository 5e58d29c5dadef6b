// dist/fast.cjs in two: the full guard's frequent calls (an agent's commit, a Write or Edit it checks, a refused
// git command) initialise about 60% of its modules, and node reads, copies and compiles the whole bundle through
// its code cache at each of them. The modules those calls never initialise go to dist/rest.cjs, loaded at the
// first import of one of them (a session's start and end, a claims change, a loss seen, the git hooks' further
// code). Every module is in one of the two bundles, never both: each bundle takes the modules it imports from the
// other through a table there (src/bundle-rest.ts, src/bundle-core.ts), so each has one state per process. Only
// node:fs and node:path (src/node-fs.ts, src/node-path.ts: a require of a builtin each) are in both.
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The modules whose static imports make dist/fast.cjs: the guard's entry and what its frequent calls import at
 * run time (test/guard/bundle-split.test.ts checks those calls load no other bundle).
 */
export const FAST_ROOTS = [
  'src/fast.ts',
  'src/guard/entry.ts',
  'src/guard/interactive.ts',
  'src/guard/claims.ts',
  'src/guard/rules/pre-tool.ts',
  'src/guard/rules/shared.ts',
  'src/guard/rules/peer-stage.ts',
  'src/guard/rules/rewrite.ts',
  // a git command the rules ask git about (a push's remote, a checkout's target, a reset's commits)
  'src/git/repo.ts',
];
/** In both bundles: a require of a builtin each, no state. */
const BOTH = new Set(['src/node-fs.ts', 'src/node-path.ts']);

/** The plugins and entries of the two bundles, from the import graph of the whole of src/fast.ts. */
export async function guardSplit(common) {
  const root = process.cwd();
  const { metafile } = await build({ ...common, entryPoints: ['src/fast.ts'], write: false, metafile: true, minify: false });
  const inputs = metafile.inputs;
  const reach = (from, follow) => {
    const seen = new Set();
    const stack = [...from];
    while (stack.length) {
      const f = stack.pop();
      if (seen.has(f)) continue;
      seen.add(f);
      for (const i of inputs[f]?.imports ?? []) if (!i.external && follow(i)) stack.push(i.path);
    }
    return seen;
  };
  const fast = reach(FAST_ROOTS, (i) => i.kind === 'import-statement');
  const mine = (f) => f.startsWith('src/') && !BOTH.has(f);
  const rest = new Set([...reach(['src/fast.ts'], () => true)].filter((f) => mine(f) && !fast.has(f)));
  // the modules of one bundle the other imports
  const across = (from, to) => new Set([...from].flatMap((f) => inputs[f].imports.filter((i) => !i.external && to.has(i.path) && mine(i.path)).map((i) => i.path)));
  const shared = across(rest, fast);
  const wanted = across(fast, rest);

  const abs = (f) => JSON.stringify(path.join(root, f));
  // an import from a src module, resolved as esbuild would (a .ts file or a folder's index.ts), relative to the root
  const resolved = (a) => {
    if (!a.importer.startsWith(path.join(root, 'src')) || !/^\.\.?\//.test(a.path)) return null;
    const base = path.relative(root, path.resolve(path.dirname(a.importer), a.path));
    for (const f of [`${base}.ts`, `${base}/index.ts`, base]) if (inputs[f]) return f;
    return null;
  };
  // imports of the modules `set` holds are answered by `answer` (a plugin's onResolve, for the src modules)
  const redirect = (name, set, answer) => ({
    name,
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (a) => {
        const f = resolved(a);
        return f && set.has(f) ? answer(f) : undefined;
      });
    },
  });
  const virtual = (name, set, contents) => ({
    name,
    setup(b) {
      redirect(name, set, (f) => ({ path: f, namespace: name })).setup(b);
      b.onLoad({ filter: /.*/, namespace: name }, (a) => ({ contents: contents(a.path), loader: 'js', resolveDir: root }));
    },
  });

  const restEntry = `export { linkCore as link } from ${abs('src/bundle-core.ts')};\nexport const modules = require('git-handoff:rest-table');\n`;
  const tables = (coreTable) => ({
    name: 'tables',
    setup(b) {
      b.onResolve({ filter: /^git-handoff:(core|rest)-table$/ }, (a) => ({ path: a.path, namespace: 'tables' }));
      b.onLoad({ filter: /.*/, namespace: 'tables' }, (a) => ({
        contents: a.path.endsWith('core-table') ? coreTable : `module.exports = {\n${[...wanted].sort().map((f) => `  ${JSON.stringify(f)}: () => require(${abs(f)}),`).join('\n')}\n};\n`,
        loader: 'js',
        resolveDir: root,
      }));
    },
  });
  // The names rest.cjs takes from each module of fast.cjs, read from an ESM build of it with those modules left out
  // (esbuild imports an external module by the names used); `whole`: the modules it takes whole (a namespace import,
  // a dynamic import, a require).
  const probe = await build({
    ...common,
    format: 'esm',
    minify: false,
    write: false,
    stdin: { contents: restEntry, resolveDir: root, loader: 'ts' },
    plugins: [redirect('core-probe', shared, (f) => ({ path: `core:${f}`, external: true })), tables('')],
  });
  const text = probe.outputFiles[0].text;
  const names = new Map([...shared].map((f) => [f, new Set()]));
  const whole = new Set();
  for (const m of text.matchAll(/^import\s+(.*?)\s*from\s*"core:([^"]+)";$/gms)) {
    const [, clause, f] = m;
    const spec = /^(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+[\w$]+)?$/.exec(clause.trim());
    if (!spec || clause.includes('*')) whole.add(f);
    else {
      if (spec[1]) names.get(f).add('default');
      for (const n of (spec[2] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) names.get(f).add(n.split(/\s+as\s+/)[0]);
    }
  }
  for (const m of text.matchAll(/(?:import\s*\(|require\s*\(|export\s*\*\s*from\s*)\s*"core:([^"]+)"/g)) whole.add(m[1]);
  // each module of fast.cjs rest.cjs imports: by the names it takes (no namespace object made in fast.cjs, which
  // costs a getter per export at its every start, and keeps exports nothing else uses), else whole
  const sharedList = [...shared].sort();
  const byName = (f) => !whole.has(f) && names.get(f).size > 0;
  const coreTable = [
    ...sharedList.flatMap((f, i) => (!byName(f) ? [] : [`import { ${[...names.get(f)].map((n) => `${n} as m${i}_${n}`).join(', ')} } from ${abs(f)};`])),
    'export default {',
    ...sharedList.map((f, i) =>
      byName(f)
        ? `  ${JSON.stringify(f)}: () => ({ __esModule: true, ${[...names.get(f)].map((n) => `get ${n}() { return m${i}_${n}; }`).join(', ')} }),`
        : `  ${JSON.stringify(f)}: () => require(${abs(f)}),`,
    ),
    '};',
  ].join('\n');
  return {
    // fast.cjs: an import of a module of rest.cjs takes it from there
    fastPlugins: [
      virtual('in-rest', wanted, (f) => `const { restModule } = require(${abs('src/bundle-rest.ts')});\nmodule.exports = restModule(require('git-handoff:core-table').default, ${JSON.stringify(f)});\n`),
      tables(coreTable),
    ],
    // rest.cjs: the modules fast.cjs imports, by path; an import of a module of fast.cjs takes it from there
    restEntry: { contents: restEntry, resolveDir: root, loader: 'ts' },
    restPlugins: [virtual('in-fast', shared, (f) => `module.exports = require(${abs('src/bundle-core.ts')}).coreModule(${JSON.stringify(f)});\n`), tables('')],
  };
}
