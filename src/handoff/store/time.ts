// Ages as people say them ("3 hours ago"), shared by the CLI and the session-start view.

/** How long ago an ISO 8601 time was, in the largest fitting unit. */
export function relativeTime(iso: string, now = Date.now()): string {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(s)) return iso;
  if (s < 45) return 'just now';
  const units: Array<[number, string]> = [
    [60, 'minute'],
    [3600, 'hour'],
    [86400, 'day'],
    [86400 * 30, 'month'],
    [86400 * 365, 'year'],
  ];
  let pick = units[0];
  for (const u of units) if (s >= u[0] * 0.75) pick = u;
  const n = Math.max(1, Math.round(s / pick[0]));
  return `${n} ${pick[1]}${n === 1 ? '' : 's'} ago`;
}
