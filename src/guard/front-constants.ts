// What the sh front (bin/git-handoff-guard) and the after-tool wiring name, taken from the modules node reads and
// writes them with: scripts/front-words.mjs writes them into the front's generated block at build time and
// test/guard/front.test.ts checks the front against it, so none is kept by hand.
import path from 'node:path';
import { intentTemplate, ledgerDir } from '../handoff/state/ledger';
import { lineageDir } from '../handoff/state/lineage-record';
import { LEASE_EVERY_MS } from './first';
import { guardStateDir } from './lifecycle';
import { cacheFile } from './locate';
import { claimsMarker } from '../handoff/claims/marker';
import { markerLine } from '../handoff/import/seed-file';
import { STOPWORDS, TOPIC_MAX } from '../handoff/store/names';
import { configFilesSh } from '../git/config-files';
import { keyName } from '../config-keys';
import { answeredSh, askerSh } from '../answerer/place';
import { elsewhereSh, NODE_FLAG, PAYLOAD_MAX_CHARS, SOURCED_FLAG, SPLIT_FLAGS, takeSh } from '../clients/wiring';
import { WIRING } from '../clients/wirings';
import pkg from '../../package.json';

const ROOT = path.join(path.sep, 'common');
/** A path under a repository's git common directory, relative to it, with forward slashes. */
const under = (p: string) => path.relative(ROOT, p).split(path.sep).join('/');

export const FRONT_CONSTANTS = {
  /** guard/<session>.note, .beat: the session's state */
  guard_dir: under(guardStateDir(ROOT)),
  /** lineage/<session>.json: a session seen here */
  lineage_dir: under(lineageDir(ROOT)),
  /** ledger/<session>.jsonl: what a session's calls name */
  ledger_dir: under(ledgerDir(ROOT)),
  /** node's verified configuration cache */
  config_cache: under(cacheFile({ commonDir: ROOT })),
  /** the claims state file: while it exists a write is node's to tell (SPEC 10) */
  claims_file: under(claimsMarker(ROOT)),
  /** a lease older than this is refreshed by node */
  lease_ms: String(LEASE_EVERY_MS),
  /** the ledger's intent line (printf formats: t, session, worktree, paths, and gone), from src/handoff/state/ledger.ts */
  ledger_line: intentTemplate(false),
  ledger_line_gone: intentTemplate(true),
  /** the settings in node's configuration cache (keys in lower case) that make the front hand every call over */
  protect_key: keyName('protect').toLowerCase(),
  guard_key: keyName('guard').toLowerCase(),
  /** a sourced front hands a payload shorter than this on in the environment, a longer one on stdin (src/clients/wiring.ts) */
  payload_max: String(PAYLOAD_MAX_CHARS),
  /** the flags of a front the client's sh runs itself (`. <front>`), and of its hand-over to node (src/clients/wiring.ts) */
  sourced_flag: SOURCED_FLAG,
  node_flag: NODE_FLAG,
  /** the flags of a split event's two groups, in place of sourced_flag (src/clients/wiring.ts) */
  line_flag: SPLIT_FLAGS.line,
  rest_flag: SPLIT_FLAGS.rest,
  /** the ownership marker, line 1 of a protected handoff file, around the session id (src/handoff/import/seed-file.ts) */
  marker_head: markerLine('\0').split('\0')[0],
  marker_tail: markerLine('\0').split('\0')[1],
  /** the longest topic (src/handoff/store/names.ts) */
  topic_max: String(TOPIC_MAX),
  /**
   * where npm's link to a bin of this package points, from the link's directory: a global prefix's bin/ (prefix/lib/
   * node_modules/<name>/bin), a project's node_modules/.bin (node_modules/<name>/bin); the front takes one that is
   * the same file as the link (`-ef`) instead of starting readlink
   */
  npm_global: `../lib/node_modules/${pkg.name}/bin`,
  npm_local: `../${pkg.name}/bin`,
};

/** sh functions of the front written from TypeScript: each_config gives config_file every file git reads (src/git/config-files.ts). */
export const FRONT_FUNCTIONS = [
  `${configFilesSh('each_config', 'config_file')} # the files git reads: src/git/config-files.ts`,
  askerSh('asker'),
  answeredSh('answered', 'asker'),
  takeSh('take'),
  elsewhereSh('elsewhere', Object.values(WIRING)),
  `stopword() { case $1 in ${[...STOPWORDS].join(' | ')}) return 0 ;; esac; return 1; } # a topic of stopwords only is no topic: src/handoff/store/names.ts`,
];
