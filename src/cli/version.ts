// This installation: its version, from the package.json beside dist/ (or the source tree's, in tests), and its bundles.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HandoffError } from '../errors';
import { readJsonOr } from '../read-file';

/** The version in the package.json of git-handoff nearest this bundle: beside `dist/` when installed, the source tree's when running from `src/cli/` (tests). */
export function packageVersion(): string {
  for (const dir of [path.join(__dirname, '..'), path.join(__dirname, '..', '..')]) {
    const pkg = readJsonOr(path.join(dir, 'package.json'));
    if (pkg?.name === 'git-handoff') return String(pkg.version);
  }
  return 'unknown';
}

/** A bundle of its own (`web.cjs`, `mcp.cjs`), loaded by its command alone: beside this bundle, or the built one when running from the sources (tests). */
export function loadBundle<T>(bundle: string): T {
  const dir = [__dirname, path.join(__dirname, '..', '..', 'dist')].find((d) => existsSync(path.join(d, bundle)));
  if (!dir) throw new HandoffError('environment', 'not-built', `dist/${bundle} is missing: reinstall git-handoff (or run \`npm run build\`)`);
  return require(path.join(dir, bundle)) as T;
}
