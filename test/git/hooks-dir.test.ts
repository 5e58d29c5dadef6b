// The hooks folder read without git (src/git/hook-stub.ts hooksDirIn), against git's own answer
// (`git rev-parse --path-format=absolute --git-path hooks`), from the main worktree, a linked one and a subfolder,
// with core.hooksPath unset, absolute, relative and from the home.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hooksDirIn } from '../../src/git/hook-stub';
import { locate } from '../../src/guard/locate';
import { makeRepo } from '../helpers/repo';

describe('hooksDirIn', () => {
  it("names the folder git takes the hooks from, for every spelling of core.hooksPath, in every worktree", () => {
    const repo = makeRepo({ commit: true });
    const linked = path.join(path.dirname(repo.dir), 'linked');
    repo.git(['worktree', 'add', '-q', linked]);
    mkdirSync(path.join(repo.dir, 'sub'));
    const places = [repo.dir, path.join(repo.dir, 'sub'), linked];
    for (const value of [null, '/opt/hooks', '.husky/_', 'hooks', '~/hooks', '~', './x/../y']) {
      if (value === null) repo.git(['config', '--unset-all', 'core.hooksPath'], { allowFail: true });
      else repo.git(['config', 'core.hooksPath', value]);
      for (const at of places) {
        const git = repo.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks'], { cwd: at }).stdout.trim();
        const loc = locate(at)!;
        const config = new Map(value === null ? [] : [['core.hookspath', [value]]]);
        expect(hooksDirIn(loc, config, repo.home), `${value} from ${at}`).toBe(git);
      }
    }
  });
});
