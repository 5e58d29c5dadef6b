// Builds two bundles: dist/cli.cjs (yargs and every command) and dist/fast.cjs (guard and githook only),
// so the paths that run on every tool call and every git hook load none of the CLI framework.
import { build } from 'esbuild';
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', legalComments: 'none', logLevel: 'warning' };
await Promise.all([
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.cjs' }),
  build({ ...common, entryPoints: ['src/fast.ts'], outfile: 'dist/fast.cjs', minify: true }),
]);
