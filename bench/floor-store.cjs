#!/usr/bin/env node
'use strict';
// The floor of bench/store.mjs's rows (issue 39): the least a node command reached as `git <name>` can do for what
// `git handoff write` and `show` must do by the contract, in plain node (no bundle, no code cache, no check, no
// message of any length): the rows in bench/floor.mjs run it through git's dispatch and npm's bin link, as the
// store rows run git-handoff, against the same `node -e ''`. It writes nothing a test reads; the bench gives it a
// repository of its own.
//   git handoff-floor write <topic> [--record]   the body on stdin: git status (state.json's dirty list), the tip read
//                                                 here, 4 loose objects, one `update-ref --stdin` compare-and-swap;
//                                                 --record: the loss record's next commit (its branch's shelf rewritten) joins that
//                                                 transaction and its objects are copied outside .git (the witness)
//   git handoff-floor show <topic>                the tip, its tree and body read here, git status (verify's dirty)
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');

// SHA-1, inline: node:crypto costs a run 2-3 ms to load (src/git/sha1.ts says the same of the product)
function sha1(buf) {
  const ml = buf.length * 8;
  const padded = Buffer.alloc((((buf.length + 8) >> 6) + 1) << 6);
  buf.copy(padded);
  padded[buf.length] = 0x80;
  padded.writeUInt32BE(Math.floor(ml / 0x100000000), padded.length - 8);
  padded.writeUInt32BE(ml >>> 0, padded.length - 4);
  let h0 = 0x67452301, h1 = 0xefcdab89, h2 = 0x98badcfe, h3 = 0x10325476, h4 = 0xc3d2e1f0;
  const w = new Int32Array(80);
  for (let o = 0; o < padded.length; o += 64) {
    for (let i = 0; i < 16; i++) w[i] = padded.readInt32BE(o + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16];
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4;
    for (let i = 0; i < 80; i++) {
      const f = i < 20 ? ((b & c) | (~b & d)) + 0x5a827999 : i < 40 ? (b ^ c ^ d) + 0x6ed9eba1 : i < 60 ? ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc : (b ^ c ^ d) + 0xca62c1d6;
      const t = (((a << 5) | (a >>> 27)) + f + e + w[i]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}

const gitDir = path.join(process.cwd(), '.git');
const objects = path.join(gitDir, 'objects');

/** A loose object written as git writes one (a temporary file, then a link), into `dir`; its id. */
function writeLoose(dir, type, content) {
  const raw = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  const oid = sha1(raw);
  copyLoose(dir, oid, zlib.deflateSync(raw, { level: 1 }));
  return oid;
}

function copyLoose(dir, oid, data) {
  const fan = path.join(dir, oid.slice(0, 2));
  const tmp = path.join(fan, `tmp_obj_${process.pid}`);
  let fd;
  try {
    fd = fs.openSync(tmp, 'wx', 0o444);
  } catch {
    fs.mkdirSync(fan, { recursive: true });
    fd = fs.openSync(tmp, 'wx', 0o444);
  }
  fs.writeSync(fd, data);
  fs.closeSync(fd);
  try {
    fs.linkSync(tmp, path.join(fan, oid.slice(2)));
  } catch {
    /* there already */
  }
  fs.unlinkSync(tmp);
}

const looseFile = (oid) => fs.readFileSync(path.join(objects, oid.slice(0, 2), oid.slice(2)));
const readLoose = (oid) => {
  const raw = zlib.inflateSync(looseFile(oid));
  return raw.subarray(raw.indexOf(0) + 1);
};

/** A loose ref's value, or null (the bench's refs are loose). */
function readRef(ref) {
  try {
    return fs.readFileSync(path.join(gitDir, ref), 'latin1').trim();
  } catch {
    return null;
  }
}

function treeOf(entries) {
  return Buffer.concat(entries.map(([name, oid]) => Buffer.concat([Buffer.from(`100644 ${name}\0`), Buffer.from(oid, 'hex')])));
}

/** The blob `name` of a tree's content. */
function entry(tree, name) {
  for (let at = 0; at < tree.length; ) {
    const nul = tree.indexOf(0, at);
    const n = tree.subarray(tree.indexOf(32, at) + 1, nul).toString();
    const oid = tree.subarray(nul + 1, nul + 21).toString('hex');
    if (n === name) return oid;
    at = nul + 21;
  }
  return null;
}

const status = () => spawnSync('git', ['status', '--porcelain=v1', '-z', '--no-renames'], { encoding: 'latin1' }).stdout;

const [cmd, topic, flag] = process.argv.slice(2);
const ref = `refs/handoffs/main/${topic}`;
const ident = `Bench User <bench@example.com> ${Math.floor(Date.now() / 1000)} +0000`;
const commit = (tree, parents, message) => Buffer.from([`tree ${tree}`, ...parents.map((p) => `parent ${p}`), `author ${ident}`, `committer ${ident}`, '', message].join('\n'));

if (cmd === 'show') {
  const tip = readRef(ref);
  const c = readLoose(tip).toString('latin1');
  const body = readLoose(entry(readLoose(c.slice(5, 45)), 'handoff.md'));
  const dirty = status().length > 0;
  fs.writeSync(1, `${topic} @ ${tip.slice(0, 12)}${dirty ? ' · worktree has uncommitted changes' : ''}\n\n`);
  fs.writeSync(1, body);
} else if (cmd === 'write') {
  const body = fs.readFileSync(0);
  const dirty = status().split('\0').filter(Boolean).map((e) => e.slice(3));
  const tip = readRef(ref);
  const state = Buffer.from(JSON.stringify({ branch: 'main', head: readRef('refs/heads/main'), dirty, files: [] }));
  const tree = writeLoose(objects, 'tree', treeOf([['handoff.md', writeLoose(objects, 'blob', body)], ['state.json', writeLoose(objects, 'blob', state)]]));
  const oid = writeLoose(objects, 'commit', commit(tree, tip ? [tip] : [], `handoff: ${topic}\n\nClaude-Session-Id: bench-session\n`));
  let input = `update ${ref} ${oid} ${tip ?? '0'.repeat(40)}\n`;
  let witness = null;
  if (flag === '--record') {
    // the loss record: a file (shelf) per branch of `tip <oid> <seen> <ref>` lines; only this ref's shelf is rewritten,
    // the others are kept by their blob; the record's next commit joins the same transaction
    const recRef = 'refs/handoff-record';
    const rec = readRef(recRef);
    const shelf = ref.split('/')[2];
    const files = new Map();
    if (rec) {
      const tree = readLoose(readLoose(rec).toString('latin1').slice(5, 45));
      for (let at = 0; at < tree.length; ) {
        const nul = tree.indexOf(0, at);
        files.set(tree.subarray(tree.indexOf(32, at) + 1, nul).toString(), tree.subarray(nul + 1, nul + 21).toString('hex'));
        at = nul + 21;
      }
    }
    const lines = new Map();
    if (files.has(shelf)) for (const l of readLoose(files.get(shelf)).toString('latin1').split('\n')) if (l) lines.set(l.slice(l.lastIndexOf(' ') + 1), l);
    lines.set(ref, `tip ${oid} ${Math.floor(Date.now() / 1000)} ${ref}`);
    const blob = writeLoose(objects, 'blob', Buffer.from(`${[...lines.keys()].sort().map((r) => lines.get(r)).join('\n')}\n`));
    files.set(shelf, blob);
    const rtree = writeLoose(objects, 'tree', treeOf([...files].sort(([a], [b]) => (a < b ? -1 : 1))));
    const rcommit = writeLoose(objects, 'commit', commit(rtree, rec ? [rec] : [], 'handoff record\n'));
    input += `update ${recRef} ${rcommit} ${rec ?? '0'.repeat(40)}\n`;
    witness = [rcommit, rtree, blob];
  }
  const r = spawnSync('git', ['update-ref', '-m', `handoff write ${topic}`, '--stdin'], { input });
  if (r.status !== 0) process.exit(4);
  if (witness) {
    // the witness outside .git: the record's objects copied, its tip in a file replaced atomically
    const dir = path.join(process.env.XDG_STATE_HOME || path.join(process.env.HOME, '.local', 'state'), 'git-handoff-floor');
    for (const o of witness) copyLoose(path.join(dir, 'objects'), o, looseFile(o));
    const tmp = path.join(dir, `tip.${process.pid}`);
    fs.writeFileSync(tmp, `${witness[0]}\n`);
    fs.renameSync(tmp, path.join(dir, 'tip'));
  }
  fs.writeSync(1, `${ref} ${oid.slice(0, 7)}\n`);
} else {
  process.exit(2);
}
