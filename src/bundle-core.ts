// In dist/rest.cjs: a module it imports that is in dist/fast.cjs is taken from there (scripts/guard-split.mjs), so
// each module has one copy, and one state, per process.

/** Modules by their path from the root (`src/...ts`), each required at its first call. */
export type ModuleTable = Record<string, () => unknown>;

let core: ModuleTable | undefined;

/** Set by dist/fast.cjs as it loads this bundle (src/bundle-rest.ts), before any module of it runs. */
export function linkCore(table: ModuleTable): void {
  core = table;
}

/** The module `file` of dist/fast.cjs. */
export function coreModule(file: string): unknown {
  const m = core?.[file];
  if (!m) throw new Error(`${file} is not linked from dist/fast.cjs`);
  return m();
}
