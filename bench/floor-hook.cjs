'use strict';
// The floor of bench/guard.mjs: the least any node hook costs for the I/O of the guard's own-file decision (a Write
// of this session's own handoff file): read the payload from stdin, JSON.parse it, stat and read the file, stat
// the session's record, read its lease, append one line, write an answer. Plain node, no bundle, no code cache,
// no rule: what a one-node-per-Write guard (the seed tools' peer) pays at least. fs.writeSync, not
// process.stdout.write (which builds node's stream objects, a few ms more).
const fs = require('node:fs');
const p = JSON.parse(fs.readFileSync(0, 'utf8'));
const input = p.tool_input || {};
const given = input.file_path || input.path || '';
const file = given.startsWith('/') ? given : `${p.cwd}/${given}`;
const st = fs.statSync(file, { throwIfNoEntry: false });
const mine = !st || fs.readFileSync(file, 'utf8').startsWith(`<!-- claude-session: ${p.session_id} -->`);
const state = `${p.cwd}/.git/bench-floor`; // made by the bench, as the guard's state directory is by install
const known = fs.existsSync(`${state}/${p.session_id}.json`);
let beat = 0;
try {
  beat = Number(fs.readFileSync(`${state}/${p.session_id}.beat`, 'utf8'));
} catch {
  /* no lease yet */
}
fs.appendFileSync(`${state}/${p.session_id}.jsonl`, JSON.stringify({ t: Date.now(), session: p.session_id, paths: [given], known, beat }) + '\n');
fs.writeSync(1, mine ? '{}\n' : '{"decision":"block","reason":"another session\'s handoff file"}\n');
