// What each installable piece (git hooks, agent clients, startup snippet, remote, server) reports.
import type { Agent } from './clients/names';
type DoctorStatus = 'ok' | 'missing' | 'broken' | 'chained' | 'info';

export interface DoctorItem {
  component: string;
  status: DoctorStatus;
  detail: string;
}

export interface InstallOptions {
  /** agent clients for --agent */
  agents?: Agent[];
  remote?: string;
  /** the command installed wiring runs, default `git-handoff` */
  command?: string;
}
