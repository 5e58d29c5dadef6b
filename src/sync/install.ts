// Adds the handoff fetch refspecs to a remote, and the receive-side check to a bare server (issue 5).
import { HandoffError } from '../errors';
import type { Repo } from '../git/repo';
import type { DoctorItem } from '../wiring';

const notBuilt = () => new HandoffError('internal', 'not-built', 'remote wiring is not built yet');
export function installRemote(_repo: Repo, _remote: string): string[] { throw notBuilt(); }
export function uninstallRemote(_repo: Repo, _remote?: string): string[] { throw notBuilt(); }
export function installServer(_repo: Repo): string[] { throw notBuilt(); }
export function uninstallServer(_repo: Repo): string[] { throw notBuilt(); }
export function doctorSync(_repo: Repo): DoctorItem[] { return []; }
