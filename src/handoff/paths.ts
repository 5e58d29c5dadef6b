// Where git-handoff keeps its local files: <git-common-dir>/handoff/ (ledger, audit trail, guard state and log).
// A module of its own so the guard's fast path can name it without loading the rest of the domain.
import path from 'node:path';

export const handoffDir = (commonDir: string) => path.join(commonDir, 'handoff');
