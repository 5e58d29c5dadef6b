// The hooks' further code (src/hooks/more.ts), for a hook that needs it. In dist/hooks.cjs (the build defines
// HOOKS_BUNDLED there and leaves ./more out) it comes through dist/fast.cjs, which holds most of it for the guard already (one
// copy in the package), loaded through its code cache like the launcher's bundles; from the sources, the module itself.
declare const HOOKS_BUNDLED: boolean | undefined;
/** What dist/fast.cjs gives the hooks (src/fast.ts hookModules). */
interface FastBundle {
  hookModules(): typeof import('./more');
}

/** src/hooks/more.ts; `use` names the code cache (the hook asking). */
export function more(use: string): typeof import('./more') {
  if (typeof HOOKS_BUNDLED !== 'undefined') return ((require(`${__dirname}/load.cjs`) as typeof import('../load')).loadBundle(__dirname, 'fast.cjs', use) as FastBundle).hookModules();
  return require('./more') as typeof import('./more');
}
