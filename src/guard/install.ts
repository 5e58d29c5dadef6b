// Wires `git handoff guard` into each agent client's settings (issue 3).
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import type { DoctorItem, InstallOptions } from '../wiring';

const notBuilt = () => new HandoffError('internal', 'not-built', 'agent wiring is not built yet');
export function installAgents(_repo: Repo, _o: InstallOptions): string[] { throw notBuilt(); }
export function uninstallAgents(_repo: Repo, _o: InstallOptions): string[] { throw notBuilt(); }
export function doctorAgents(_repo: Repo): DoctorItem[] { return [{ component: 'agent clients', status: 'missing', detail: 'not built yet' }]; }
