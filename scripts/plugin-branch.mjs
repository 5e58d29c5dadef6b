// Commits the built Claude Code plugin (dist/claude-plugin) as the tip of branch `claude-plugin`, a marketplace
// at its root, so a git-source marketplace gets built files: a clone of main has no dist/.
//   usage: npm run build && node scripts/plugin-branch.mjs [--git-dir <repository>] ; then git push <remote> claude-plugin
//   users: claude plugin marketplace add https://<host>/<owner>/git-handoff.git#claude-plugin
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const i = process.argv.indexOf('--git-dir');
const gitDir = i > 0 ? path.resolve(process.argv[i + 1]) : execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: root, encoding: 'utf8' }).trim();
const plugin = path.join(root, 'dist', 'claude-plugin');
if (!existsSync(path.join(plugin, '.claude-plugin', 'plugin.json'))) throw new Error('dist/claude-plugin is missing: run npm run build first');

const tree = mkdtempSync(path.join(tmpdir(), 'plugin-branch-'));
try {
  cpSync(plugin, path.join(tree, 'git-handoff'), { recursive: true });
  const market = JSON.parse(readFileSync(path.join(root, '.claude-plugin', 'marketplace.json'), 'utf8'));
  market.plugins = market.plugins.map((p) => (p.name === 'git-handoff' ? { ...p, source: './git-handoff' } : p));
  mkdirSync(path.join(tree, '.claude-plugin'));
  writeFileSync(path.join(tree, '.claude-plugin', 'marketplace.json'), JSON.stringify(market, null, 2) + '\n');
  const env = { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: tree, GIT_INDEX_FILE: path.join(tree, '.index') };
  const git = (args) => execFileSync('git', args, { env, encoding: 'utf8' }).trim();
  git(['add', '-A', '--', '.claude-plugin', 'git-handoff']);
  const treeId = git(['write-tree']);
  let old = '';
  try {
    old = git(['rev-parse', '--verify', '-q', 'refs/heads/claude-plugin']);
  } catch {
    /* first build of the branch */
  }
  if (old && git(['rev-parse', `${old}^{tree}`]) === treeId) {
    console.log(`claude-plugin already at ${old} (same files)`);
  } else {
    const version = market.plugins.find((p) => p.name === 'git-handoff')?.version;
    const commit = git(['commit-tree', treeId, ...(old ? ['-p', old] : []), '-m', `git-handoff ${version}: the built Claude Code plugin and its marketplace`]);
    // compare-and-swap: a concurrent run does not lose a commit
    git(['update-ref', 'refs/heads/claude-plugin', commit, old || '0'.repeat(commit.length)]);
    console.log(`claude-plugin -> ${commit}; push it: git push <remote> claude-plugin`);
  }
} finally {
  rmSync(tree, { recursive: true, force: true });
}
