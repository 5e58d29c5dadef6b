// In dist/fast.cjs: a module of the guard its frequent calls never import is in dist/rest.cjs (scripts/guard-split.mjs),
// loaded through its code cache at the first import of one of them and linked to this bundle's modules it imports.
import path from 'node:path';
import type { ModuleTable } from './bundle-core';
import type { Bundle } from './load';

/** What dist/rest.cjs exports (its entry in scripts/guard-split.mjs). */
interface RestBundle {
  link(core: ModuleTable): void;
  modules: ModuleTable;
}

let rest: RestBundle | undefined;

/** The module `file` of dist/rest.cjs; `core`: the modules of this bundle it may import. */
export function restModule(core: ModuleTable, file: string): unknown {
  if (!rest) {
    const bundle: Bundle = 'rest.cjs';
    // one cache per first module asked for: the way through rest.cjs a run takes starts there
    const use = `rest-${path.basename(file, '.ts').toLowerCase().replace(/[^a-z-]/g, '-')}`.slice(0, 32);
    const loaded = (require(`${__dirname}/load.cjs`) as typeof import('./load')).loadBundle(__dirname, bundle, use) as RestBundle;
    loaded.link(core);
    rest = loaded;
  }
  const m = rest.modules[file];
  if (!m) throw new Error(`${file} is not in dist/rest.cjs`);
  return m();
}
