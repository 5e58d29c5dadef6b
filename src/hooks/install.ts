// Installs the git hook stubs into the hooks directory, chaining what was there (issue 4).
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import type { DoctorItem } from '../wiring';

const notBuilt = () => new HandoffError('internal', 'not-built', 'git hook installation is not built yet');
export function installHooks(_repo: Repo): string[] { throw notBuilt(); }
export function uninstallHooks(_repo: Repo): string[] { throw notBuilt(); }
export function doctorHooks(_repo: Repo): DoctorItem[] { return [{ component: 'git hooks', status: 'missing', detail: 'not built yet' }]; }
