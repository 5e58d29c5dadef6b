// The hooks' further code (src/hooks/more.ts), for a hook that needs it. In dist/hooks.cjs (the build defines
// HOOKS_BUNDLED there and leaves ./more out) it is dist/hooks-more.cjs, loaded through its code cache like the
// launcher's bundles; from the sources, the module itself.
declare const HOOKS_BUNDLED: boolean | undefined;

/** src/hooks/more.ts; `use` names the code cache (the hook asking). */
export function more(use: string): typeof import('./more') {
  if (typeof HOOKS_BUNDLED !== 'undefined') return (require(`${__dirname}/load.cjs`) as typeof import('../load')).loadBundle(__dirname, 'hooks-more.cjs', use) as typeof import('./more');
  return require('./more') as typeof import('./more');
}
