// The version of this installation, from the package.json beside dist/ (or the source tree's, in tests).
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The version in package.json, next to dist/ (or the source tree in tests). */
export function packageVersion(): string {
  for (const p of [path.join(__dirname, '..', 'package.json'), path.join(__dirname, '..', '..', 'package.json')]) {
    try {
      const pkg = JSON.parse(readFileSync(p, 'utf8'));
      if (pkg.name === 'git-handoff') return String(pkg.version);
    } catch {
      // not here: the next place
    }
  }
  return 'unknown';
}
