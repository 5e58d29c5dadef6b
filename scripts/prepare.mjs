// npm's `prepare` (run by `npm install` in a checkout, and by `npm install -g .`): builds dist/ when the build
// tools are installed; a global install from a fresh clone has none, so it says the step instead of a stack trace.
import { existsSync } from 'node:fs';

let esbuild = true;
try {
  await import('esbuild');
} catch {
  esbuild = false;
}
if (esbuild) await import('./build.mjs');
else if (existsSync(new URL('../dist/cli.cjs', import.meta.url))) {
  process.stderr.write('git-handoff: esbuild is not installed; keeping the dist/ already built\n');
} else {
  process.stderr.write(
    'git-handoff: cannot build dist/: esbuild is not installed here.\n' +
      'From a clone, install the build tools and build first:  npm install && npm run build  — then  npm install -g .\n',
  );
  process.exit(1);
}
