// Hosts with limits, as a pre-receive hook of the bare remote, refusing in the hosts' own words (issue 57): a host that
// takes at most N ref updates a push (GitHub's push policy wording, counted over every ref), and one that takes at
// most K pushes in W seconds (GitHub's secondary rate limit, or GitLab's "Retry later").
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestRepo } from '../helpers/repo';

/** GitHub's words for a push over its push policy's limit (GH013), as it prints them. */
export const githubTooMany = (n: number) => `error: GH013: Repository rule violations found for refs/handoffs.\nReview all repository rules at https://github.com/acme/project/rules\n\n- Pushes can not update more than ${n} branches or tags.`;
/** GitHub's words for its secondary rate limit. */
export const GITHUB_RATE = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
/** GitLab's (rack-attack's) answer past its rate limit. */
export const GITLAB_RATE = 'GitLab: Retry later';

const hookFile = (bare: TestRepo) => path.join(bare.dir, 'hooks', 'pre-receive');
const sayAll = (text: string) => text.split('\n').map((l) => `echo ${JSON.stringify(l)} >&2`).join('\n');

/** Refuses a push updating more than `n` refs (every ref counts), in GitHub's words. */
export function limitRefsPerPush(bare: TestRepo, n: number, words = githubTooMany(n)): void {
  writeFileSync(hookFile(bare), `#!/bin/sh\ncount=$(wc -l)\nif [ "$count" -gt ${n} ]; then\n${sayAll(words)}\nexit 1\nfi\nexit 0\n`, { mode: 0o755 });
}

/**
 * Takes at most `k` pushes in any `windowS` seconds, refusing the others with `words`; a refused push leaves no trace
 * (it is not counted). Every push it took is a line of `<bare>/pushes.log`.
 */
export function limitPushRate(bare: TestRepo, k: number, windowS: number, words = GITHUB_RATE): void {
  const log = path.join(bare.dir, 'pushes.log');
  writeFileSync(
    hookFile(bare),
    `#!/bin/sh\ncat >/dev/null\nexec 9>'${log}.lock'\nflock 9\nnow=$(date +%s%N)\nsince=$((now - ${windowS} * 1000000000))\n` +
      `recent=$(awk -v s="$since" '$1 > s' '${log}' 2>/dev/null | wc -l)\n` +
      `if [ "$recent" -ge ${k} ]; then\n${sayAll(words)}\nexit 1\nfi\necho "$now" >> '${log}'\nexit 0\n`,
    { mode: 0o755 },
  );
}
