// npm's `prepack` (run by `npm pack` and `npm publish`, never by an install): builds dist/ into the tarball when the
// build tools are installed, else says the step instead of a stack trace. Not `prepare`: npm would keep that in the
// packed package.json and run it (or warn about it) at every `npm install -g <tgz>`, where scripts/ is not shipped.
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
      'From a clone, install the build tools and build first:  npm ci && npm run build  — then  npm pack\n',
  );
  process.exit(1);
}
