// pre-push: no commit carrying two sessions' ids leaves the machine, handoff updates are held to the
// invariant against the remote's value, and with handoff.autoSync the changed handoffs go along.
import { setting } from '../config-keys';
import { claimedSessions } from '../handoff/store/document';
import { LEASE_PREFIX } from '../handoff/store/names';
import type { HookContext } from './handler';
import { capped, droppedWork, shortOid, type Refusal } from './refusal';
import { short as shortSession } from '../handoff/state/session';
import { shellWord as shq } from '../terminal-text';
import { checkReceive } from '../handoff/store/ref-updates';
import { foreignCommits, onlyInArgs } from '../handoff/store/ownership';
import { handoffRefusal } from './transaction';

interface PushLine {
  localRef: string;
  local: string | null;
  remoteRef: string;
  remote: string | null;
}

const isZero = (oid: string) => /^0+$/.test(oid);

function parsePushLines(input: string): PushLine[] {
  const out: PushLine[] = [];
  for (const line of input.split('\n')) {
    const f = line.trim().split(' ');
    if (f.length !== 4) continue;
    out.push({ localRef: f[0], local: isZero(f[1]) ? null : f[1], remoteRef: f[2], remote: isZero(f[3]) ? null : f[3] });
  }
  return out;
}

/** Commits about to be pushed that carry two different Claude-Session-Id values, from one git log. */
function mixedCommits(c: HookContext, remoteName: string, lines: PushLine[]): Array<{ oid: string; sessions: string[] }> {
  const tips = lines.filter((l) => l.local && !/^refs\/(handoffs|handoff-archive|handoff-leases)\//.test(l.remoteRef)).map((l) => l.local!);
  if (tips.length === 0) return [];
  const remoteOids = lines.map((l) => l.remote).filter((o): o is string => !!o);
  const known = c.repo.readObjects(remoteOids).flatMap((o, i) => (o ? [remoteOids[i]] : []));
  // git's trailer block of each commit, read by the one reader
  return c.repo
    .commitsVia(tips, { not: [...known, `--remotes=${remoteName}`], strict: true })
    .map((r) => ({ oid: r.oid, sessions: claimedSessions(r.trailers) }))
    .filter((r) => r.sessions.length > 1);
}

/** For a session's push: the first remote branch it forces back or deletes that would lose another session's commits. */
function droppedOnRemote(c: HookContext, remoteName: string, lines: PushLine[]): { line: PushLine; dropped: Array<{ oid: string; session: string }> } | null {
  const moved = lines.filter((l) => l.remote && l.remote !== l.local && l.remoteRef.startsWith('refs/heads/'));
  const known = c.repo.readObjects(moved.map((l) => l.remote!));
  for (const [i, line] of moved.entries()) {
    if (!known[i]) continue;
    if (line.local && c.repo.isAncestor(line.remote!, line.local)) continue;
    const tracking = `refs/remotes/${remoteName}/${line.remoteRef.slice('refs/heads/'.length)}`;
    const range = line.local ? [line.remote!, `^${line.local}`] : [line.remote!, ...onlyInArgs([tracking]).slice(1)];
    const dropped = foreignCommits(c.repo, c.repo.commits({ from: range, lenient: true }), c.session!);
    if (dropped.length) return { line, dropped };
  }
  return null;
}

export async function prePush(c: HookContext): Promise<Refusal | null> {
  const remoteName = c.args[0] ?? 'origin';
  const lines = parsePushLines(c.input);
  // The remote's value is the old one: the same check its server runs (checkReceive), before anything leaves.
  const bad = checkReceive(
    c.repo,
    lines.map((l) => ({ ref: l.remoteRef, oldOid: l.remote, newOid: l.local })),
  );
  if (bad.length) {
    const fetchHint = bad.some((b) => b.rule === 'missing-object')
      ? `the remote has handoff versions this clone has not seen: git handoff fetch ${shq(remoteName)}, then try again`
      : null;
    return handoffRefusal(bad, `pushed to ${remoteName}`, fetchHint);
  }
  const lost = c.session ? droppedOnRemote(c, remoteName, lines) : null;
  if (lost) {
    const { line, dropped } = lost;
    const work = droppedWork(dropped, c.session!);
    return {
      kind: 'owned',
      what: `${line.local ? 'forcing' : 'deleting'} ${line.remoteRef} on ${remoteName} would drop ${work.what} there; nothing was pushed`,
      found: [...work.found, `${work.acting} (from ${c.sessionSource})`],
      steps: [
        `build on the remote's branch instead: git pull --rebase ${shq(remoteName)} (or merge it), then push without force`,
        `if dropping their work is agreed with session ${work.owners}, let a person push it (with no session id in the environment)`,
      ],
      data: { ref: line.remoteRef, remote: line.remote, local: line.local, dropped },
    };
  }
  const mixed = mixedCommits(c, remoteName, lines.filter((l) => !l.remoteRef.startsWith(LEASE_PREFIX)));
  if (mixed.length) {
    return {
      kind: 'integrity',
      what: `${mixed.length} commit${mixed.length === 1 ? '' : 's'} to push ${mixed.length === 1 ? 'carries' : 'carry'} the ids of two sessions; nothing was pushed`,
      found: capped(mixed.map((m) => `commit ${shortOid(m.oid)}: Claude-Session-Id ${m.sessions.map((s) => shortSession(s, m.sessions)).join(', ')}`)),
      steps: [
        `reword each commit so it keeps one Claude-Session-Id: git rebase -i ${shortOid(mixed[mixed.length - 1].oid)}^ and mark it "reword"`,
        "if a commit really mixes two sessions' work, split it (mark it \"edit\" in the rebase, git reset HEAD^, commit each session's files separately)",
        'push again',
      ],
      data: { commits: mixed },
    };
  }
  // Loaded only when handoff refs are pushed: the secret scan (SPEC 2.6), as `git handoff push` runs it.
  const handoffLines = lines.filter((l) => /^refs\/(handoffs|handoff-archive)\//.test(l.remoteRef));
  const gate = handoffLines.length || setting(c.config(), 'autoSync') ? await import('../sync/secrets-gate') : null;
  const secrets = gate ? await gate.pushLineFindings(c.repo, remoteName, handoffLines.map((l) => ({ ref: l.remoteRef, oid: l.local, remoteOid: l.remote }))) : [];
  if (secrets.length) {
    return {
      kind: 'integrity',
      what: `${secrets.length === 1 ? 'a handoff version' : `${secrets.length} handoff versions`} to push contain${secrets.length === 1 ? 's' : ''} secrets; nothing was pushed`,
      found: gate!.describeVersions(secrets),
      steps: ['rewrite them here with the secrets replaced: git handoff redact <topic>', 'if a secret was real, rotate it: it was in a session and may be in other logs', 'push again'],
      data: { versions: secrets.map((v) => ({ ref: v.ref, oid: v.oid, findings: v.findings.map(({ range: _r, ...f }) => f) })) },
    };
  }
  if (setting(c.config(), 'autoSync')) {
    // autoSync pushes handoffs too, by the one plan-scan-push flow (a finding keeps them here; the user's push goes on).
    // Loaded only here: the sync code is not needed by any other hook.
    const { autoSyncPush } = await import('../sync/push');
    const note = await autoSyncPush(c.repo, remoteName);
    if (note) process.stderr.write(`${note}\n`);
  }
  return null;
}
