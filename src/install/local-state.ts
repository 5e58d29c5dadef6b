// What a plain `uninstall` does with git-handoff's state in a repository: the transient state the guard and the
// commands made (leases, ledger, lineage, guard state, caches) goes; handoffs and the loss record are the user's
// and stay, said so — unless no handoff was ever written here, when the record (of nothing) goes too.
import { existsSync, rmSync } from 'node:fs';
import { removeEmptyUp } from '../clients/own-files';
import path from 'node:path';
import { moveRefs, type RefOp } from '../handoff/store/tx';
import type { Storage } from '../git/storage';
import { readRecord, RECORD_REF, KEPT_PREFIX, removeEmptyRecord, ROGUE_PREFIX } from '../handoff/store/tx/record';
import { DROPPED_PREFIX } from '../handoff/store/names';
import { ARCHIVE_PREFIX, HANDOFF_PREFIX, LEASE_PREFIX, NOTES_REF, REMOTES_ROOT } from '../handoff/store/names';
import { auditFile } from '../handoff/state/audit';
import { handoffDir } from '../handoff/state/paths';
import { retireWitness, witnessOf, witnessTip } from '../handoff/store/tx/witness';
import { CLAIMS_PREFIX } from '../handoff/claims/table';
import { claimsRemote } from '../handoff/claims/claims';
import { userStateDir } from '../user-dirs';

/** The files and folders under <git-common-dir>/handoff/ that only serve a running guard or command (claims.json: the claims state file, a cache of the tables). */
const TRANSIENT = ['guard', 'guard-config.json', 'guard-config.plain', 'guard.log', 'lineage', 'ledger', 'processes', 'record-seen.json', 'versions.json', 'listing', 'hooks-for-agents.json', 'refusals.jsonl', 'refusals.jsonl.1', 'contact.json', 'claims.json', 'sync-seen.json', 'claims-seen.json', 'claims-refs.json'];
/** The refs that hold handoffs or what a command kept of one (user data). */
const LOCAL_DATA = [HANDOFF_PREFIX, ARCHIVE_PREFIX, DROPPED_PREFIX, ROGUE_PREFIX, KEPT_PREFIX, NOTES_REF];
const DATA = [...LOCAL_DATA, `${REMOTES_ROOT}*/handoffs/**`, 'refs/remotes/*/handoffs/**'];
/** Where sync keeps each remote's claims tables (trackingClaimsPrefix), as a for-each-ref pattern. */
const TRACKED_CLAIMS = `${REMOTES_ROOT}*/claims/**`;

/** The command that deletes every ref under `patterns`, as the user pastes it into sh (patterns quoted: sh must not glob them). */
const deleteRefs = (patterns: string[]) => `\`git for-each-ref --format='delete %(refname)' ${patterns.map((p) => `'${p}'`).join(' ')} | git update-ref --stdin\``;

/**
 * Removes the transient state; `inUse` (a plugin that still runs the guard here) keeps it. Returns one line for each
 * thing it removed or kept, and why.
 */
export function removeLocalState(repo: Storage, inUse: string | null): string[] {
  const dir = handoffDir(repo.commonDir);
  const shown = path.relative(repo.worktree ?? repo.commonDir, dir) || dir;
  if (inUse) return [`${shown}: kept (leases, ledger, lineage, guard state): ${inUse} still runs the guard here and uses them`];
  const msgs: string[] = [];
  const leases = repo.listRefNames([LEASE_PREFIX]);
  if (leases.length) {
    const ops: RefOp[] = leases.map((l) => ({ op: 'delete', ref: l.ref, oldOid: l.oid }));
    let r: { ok: boolean; message?: string };
    try {
      r = moveRefs(repo, ops, 'handoff uninstall: worktree leases');
    } catch (e) {
      r = { ok: false, message: (e as Error).message }; // a held lock or a hook: the leases stay, said so
    }
    msgs.push(r.ok ? `${LEASE_PREFIX}*: removed (${leases.length} worktree lease${leases.length === 1 ? '' : 's'})` : `${LEASE_PREFIX}*: kept, a session moved one meanwhile (${(r.message ?? '').trim()})`);
  }
  const gone = TRANSIENT.filter((n) => existsSync(path.join(dir, n)));
  for (const n of gone) rmSync(path.join(dir, n), { recursive: true, force: true });
  if (gone.length) msgs.push(`${shown}: removed ${gone.join(', ')} (the guard's and the sessions' working state)`);
  const data = repo.listRefNames(DATA);
  const record = repo.listRefNames([RECORD_REF]).find((r) => r.ref === RECORD_REF);
  const rec = record ? readRecord(repo, RECORD_REF) : null;
  const recordsNothing = !!rec && !rec.problem && rec.entries.size === 0 && rec.removed.size === 0;
  if (data.length === 0 && (!record || recordsNothing)) {
    // no handoff was ever written here: the record of nothing goes, by compare-and-swap (a write meanwhile keeps it)
    // the witness outside .git (tx/witness.ts) goes with it when it holds just that record of nothing; one holding
    // anything else is evidence of a store whose record vanished, and stays
    const w = record ? witnessOf(repo) : null;
    if (record) {
      const removed = removeEmptyRecord(repo, record.oid, 'handoff uninstall: empty record');
      msgs.push(removed ? `${RECORD_REF}: removed (no handoff was ever written here)` : `${RECORD_REF}: kept, it moved meanwhile`);
      if (removed && w && witnessTip(w) === record.oid) retireWitness(w);
    }
    rmSync(auditFile(repo.commonDir), { force: true });
    // the witness's identity cache (witness.json): worked out again by the next install's first record write
    rmSync(path.join(dir, 'witness.json'), { force: true });
  } else {
    const handoffs = data.filter((d) => d.ref.startsWith(HANDOFF_PREFIX) || d.ref.startsWith(ARCHIVE_PREFIX)).length;
    const audit = existsSync(auditFile(repo.commonDir)) ? ` and ${path.join(shown, 'audit.jsonl')} (who took over, dropped or bypassed what)` : '';
    msgs.push(
      `kept: your handoffs (${handoffs} ref${handoffs === 1 ? '' : 's'} under ${HANDOFF_PREFIX} and ${ARCHIVE_PREFIX}), ${RECORD_REF} (the loss record that restores them)` +
        `${audit}, and what sync keeps of each remote (${REMOTES_ROOT}<remote>/): they are data, not wiring (git handoff list --all shows them; ${deleteRefs([...LOCAL_DATA, RECORD_REF, REMOTES_ROOT])} deletes them)`,
    );
  }
  msgs.push(...claimsKept(repo));
  if (existsSync(path.join(dir, 'witness.json'))) {
    msgs.push(
      `kept: ${path.join(shown, 'witness.json')} (which copy of the loss record outside .git is this clone's: ${userStateDir()}/witness/…), with the record; ` +
        `\`rm ${path.join(shown, 'witness.json')}\` removes it once the record goes, and the README's last uninstall line the copies`,
    );
  }
  removeEmptyUp(path.join(dir, 'installed'), dir);
  removeEmptyUp(dir, repo.commonDir);
  return msgs;
}

/** The claims tables (SPEC 10) here and on the remotes this clone fetched them from: shared with other clones, kept, said how to remove. */
function claimsKept(repo: Storage): string[] {
  const here = repo.listRefNames([CLAIMS_PREFIX]);
  // where claim and release publish (the handoff remote)
  const { remote } = claimsRemote(repo, repo.config());
  // each remote's tables by name: this clone's own there, and those a sync brought here (refs/handoff-remotes/<R>/claims/…)
  const tables = new Map<string, Set<string>>(here.length && remote ? [[remote, new Set(here.map((r) => r.ref))]] : []);
  for (const { ref } of repo.listRefNames([TRACKED_CLAIMS])) {
    const [, , name, ...rest] = ref.split('/');
    tables.set(name, (tables.get(name) ?? new Set()).add(`refs/${rest.join('/')}`));
  }
  const remotes = [...tables.keys()];
  if (!here.length && !remotes.length) return [];
  const on = remotes.map((r) => `${r} (\`git push ${r} --delete ${[...tables.get(r)!].join(' ')}\`)`);
  return [
    `kept: the claims tables ${here.length ? `${CLAIMS_PREFIX}<branch> here (${here.length})` : ''}${here.length && on.length ? ' and ' : ''}${on.length ? `on ${on.join(', ')}` : ''}: ` +
      `claims other clones see; \`git handoff release --session <id>\` ends a session's, ` +
      `${deleteRefs([CLAIMS_PREFIX, TRACKED_CLAIMS])} deletes them here`,
  ];
}
