// What each installable piece (git hooks, agent clients, startup snippet, remote, server) reports.
type DoctorStatus = 'ok' | 'missing' | 'broken' | 'chained' | 'info';

export interface DoctorItem {
  component: string;
  status: DoctorStatus;
  detail: string;
}
