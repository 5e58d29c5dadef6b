// Builds two bundles: dist/cli.cjs (yargs and every command) and dist/fast.cjs (guard and githook only),
// so the paths that run on every tool call and every git hook load none of the CLI framework; then the
// man page, generated from the CLI's own help.
import { build } from 'esbuild';
const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' };
await Promise.all([
  build({ ...common, format: 'cjs', entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.cjs' }),
  build({ ...common, format: 'cjs', entryPoints: ['src/fast.ts'], outfile: 'dist/fast.cjs', minify: true }),
  build({ ...common, format: 'esm', entryPoints: ['src/config-keys.ts'], outfile: 'dist/config-keys.mjs' }),
]);
await import('./man.mjs');
