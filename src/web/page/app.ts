// The page of `git handoff web` (bundled for the browser, carried inside dist/web.cjs): what `status` reads, a timeline of
// handoff versions by session (each opening to its text and its diff against the version before), and the claims as
// a tree of paths. Read-only: it only GETs, with the run's token, and reloads when the server says a ref or the
// local state changed. Its address after `#` names the handoff open and the filter, to paste to a teammate. Every text is data and is rendered as text (no HTML is ever built from it).
import { diffLines } from 'diff';
import { html, render } from 'htm/preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { timeLeft, type Attention, type Status, type StatusClaim, type StatusHandoff, type StatusSession } from '../../status/shape';
import type { Timeline, TimelineVersion, VersionView } from '../../status/timeline';
import { claimTree, type TreeNode } from './tree';
import { relativeTime } from '../../handoff/store/time';

// the token where the page's address has it; else the page was opened by a one-time code and the cookie carries it
const token = new URLSearchParams(location.search).get('t');
const api = (p: string, q: Record<string, string> = {}) => `${p}?${new URLSearchParams(token ? { ...q, t: token } : q)}`;

async function getJson<T>(p: string, q: Record<string, string> = {}): Promise<T> {
  const r = await fetch(api(p, q), { cache: 'no-store' });
  if (!r.ok) throw new Error(`${p}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

const shortId = (id: string | null | undefined) => (!id ? '?' : /^[0-9a-f-]{12,}$/i.test(id) ? id.slice(0, 8) : id);

const pad = (n: number) => String(n).padStart(2, '0');

/** The exact local time, 24 h: `21:13` today, `2026-10-29 21:13` on another day. */
function exact(iso: string, now: number): string {
  const d = new Date(iso);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return d.toDateString() === new Date(now).toDateString() ? hm : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
}

/** A time as `git log --date=relative` says it, the exact time in its tooltip. */
const When = ({ iso, now }: { iso: string; now: number }) => html`<time datetime=${iso} title=${exact(iso, now)}>${relativeTime(iso, now)}</time>`;

/** The page's address after `#`: a handoff (`/h/<branch>/<topic>`, one of its versions `?v=`) and the filter (`session`, `topic`). */
interface Route {
  branch: string | null;
  topic: string | null;
  v: string | null;
  session: string;
  q: string;
}

function readRoute(): Route {
  const [p, qs = ''] = location.hash.replace(/^#/, '').split('?');
  const q = new URLSearchParams(qs);
  // a topic has no `/` (SPEC section 1): the branch is everything before the last one
  const m = /^\/h\/(.+)\/([^/]+)$/.exec(p);
  return { branch: m ? decodeURIComponent(m[1]) : null, topic: m ? decodeURIComponent(m[2]) : null, v: q.get('v'), session: q.get('session') ?? '', q: q.get('topic') ?? '' };
}

function routeHash(r: Route): string {
  const q = new URLSearchParams();
  if (r.v) q.set('v', r.v);
  if (r.session) q.set('session', r.session);
  if (r.q) q.set('topic', r.q);
  const path = r.branch && r.topic ? `h/${r.branch.split('/').map(encodeURIComponent).join('/')}/${encodeURIComponent(r.topic)}` : '';
  return `#/${path}${q.size ? `?${q}` : ''}`;
}

/** Whether the filter keeps a handoff or a version. */
const kept = (r: Route, x: { session: string | null; topic: string }) => (!r.session || x.session === r.session) && (!r.q || x.topic.includes(r.q.trim()));

/** A gap between two neighbouring versions worth marking on the timeline's axis (which places versions by order). */
const GAP_MS = 3600_000;

function Sessions({ sessions, now, link }: { sessions: StatusSession[]; now: number; link: (branch: string, topic: string) => string }) {
  if (!sessions.length) return html`<p class="empty">No session is live here, and no claim or handoff names one.</p>`;
  return html`<div class="cards">${sessions.map(
    (s) => html`<article class=${`card status-${s.status}`} data-session=${s.session}>
      <header><strong title=${s.session}>${shortId(s.session)}</strong> <span class="client">${s.client ?? 'unknown client'}</span>
        <span class=${`badge ${s.status}`}>${s.status}</span> <span class="where">${s.where === 'here' ? 'this clone' : 'another clone (through the remote)'}</span></header>
      <dl>
        <dt>where</dt><dd>${s.worktree ?? '—'}${s.host ? ` on ${s.host}` : ''}</dd>
        <dt>active</dt><dd>${s.lastActivity ? html`<${When} iso=${s.lastActivity} now=${now} />` : '—'}</dd>
        ${s.handoffs.length ? html`<dt>owns</dt><dd class="owns">${s.handoffs.map((h) => html`<a class="topic" href=${link(h.branch, h.topic)} data-owned=${h.topic}>${h.topic}</a> `)}</dd>` : null}
        ${s.claims.length ? html`<dt>claims</dt><dd>${s.claims.map((c) => html`<div class="claim" data-claim=${c.id}><code>${c.paths.join(' ')}</code> · ${timeLeft(c.expires, now)}${c.note ? html` · <q>${c.note}</q>` : null}</div>`)}</dd>` : null}
      </dl>
    </article>`,
  )}</div>`;
}

function Handoffs({ handoffs, now, all, caller, link, open, filtered }: { handoffs: StatusHandoff[]; now: number; all: boolean; caller: boolean; link: (branch: string, topic: string) => string; open: string | null; filtered: boolean }) {
  if (!handoffs.length) return html`<p class="empty">No handoffs${all ? '' : ' on this branch'}${filtered ? ' match the filter' : ''}.</p>`;
  const rows = [...handoffs].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).slice(0, 200);
  return html`<table class="handoffs"><thead><tr>${all ? html`<th>branch</th>` : null}<th>topic</th><th>owner</th><th>updated</th><th>to</th>${caller ? html`<th>for you</th>` : null}<th>sync</th></tr></thead>
    <tbody>${rows.map(
      (h) => html`<tr class=${`${h.branch}/${h.topic}` === open ? 'selected' : ''} data-topic=${h.topic} data-owner=${h.session ?? ''} onClick=${() => (location.hash = link(h.branch, h.topic))}>${all ? html`<td>${h.branch}</td>` : null}<td><a href=${link(h.branch, h.topic)}>${h.topic}</a></td><td title=${h.session ?? ''}>${shortId(h.session)}</td><td><${When} iso=${h.updatedAt} now=${now} /></td>
        <td>${h.to.length ? h.to.join(', ') : 'anyone'}</td>${caller ? html`<td>${h.unread === null ? '—' : h.unread ? html`<span class="unread">unread</span>` : 'read'}</td>` : null}<td><span class=${`sync ${h.sync}`}>${h.sync}</span></td></tr>`,
    )}</tbody></table>${handoffs.length > rows.length ? html`<p class="more">${handoffs.length - rows.length} older: <code>git handoff list${all ? ' --all' : ''}</code></p>` : null}`;
}

function NeedsPerson({ items, now }: { items: Attention[]; now: number }) {
  if (!items.length) return html`<p class="empty ok">Nothing needs you: no conflict, refusal, takeover or loss in the last day, no claim about to expire, the remote reached.</p>`;
  return html`<ul class="attention">${items.map(
    (x) => html`<li class=${`kind-${x.kind}`} data-kind=${x.kind}><span class="what">${x.kind.replace(/-/g, ' ')}</span> ${x.at && Date.parse(x.at) <= now ? html`<${When} iso=${x.at} now=${now} /> ` : null}${x.message}${x.command ? html`<div><code>${x.command}</code></div>` : null}</li>`,
  )}</ul>`;
}

function TimelineView({ timeline, versions: vs, selected, now, onSelect }: { timeline: Timeline; versions: TimelineVersion[]; selected: string | null; now: number; onSelect: (v: TimelineVersion) => void }) {
  if (!vs.length) return html`<p class="empty">No handoff versions${timeline.versions.length ? ' match' : ' yet'}.</p>`;
  // placed by order, not by time: one old version would otherwise squeeze today's, minutes apart, into one spot
  const asc = [...vs].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const rank = new Map(asc.map((v, i) => [v.oid, i]));
  const at = (i: number) => (asc.length === 1 ? 50 : 2 + (96 * i) / (asc.length - 1));
  const x = (v: TimelineVersion) => at(rank.get(v.oid)!);
  const gaps = asc.flatMap((v, i) => {
    const ms = i ? Date.parse(v.time) - Date.parse(asc[i - 1].time) : 0;
    return ms > GAP_MS ? [{ left: (at(i - 1) + at(i)) / 2, span: relativeTime(asc[i - 1].time, Date.parse(v.time)).replace(/ ago$/, '') }] : [];
  });
  const gapLines = gaps.map((g) => html`<span class="gap" style=${`left:${g.left.toFixed(2)}%`}></span>`);
  const lanes = timeline.sessions.filter((l) => vs.some((v) => (v.session ?? '?') === l.session));
  const dot = (v: TimelineVersion) => html`<button type="button" class=${`dot${v.takeoverFrom ? ' takeover' : ''}${v.archived ? ' archived' : ''}${v.oid === selected ? ' selected' : ''}${v.where.includes('here') ? '' : ' remote-only'}`}
      style=${`left:${x(v).toFixed(2)}%`} data-oid=${v.oid} title=${`${v.topic} · ${shortId(v.session)} · ${exact(v.time, now)}${v.takeoverFrom ? ` · taken over from ${shortId(v.takeoverFrom)}` : ''} · ${v.where.join(', ')}`}
      aria-label=${`version ${v.oid.slice(0, 12)} of ${v.topic}`} onClick=${() => onSelect(v)}></button>`;
  return html`<div class="timeline">
      <div class="axis"><span title=${exact(asc[0].time, now)}>${relativeTime(asc[0].time, now)}</span>${gaps.map(
        (g) => html`<span class="gap-label" style=${`left:${g.left.toFixed(2)}%`} title=${`${g.span} without a version`}>${g.span}</span>`,
      )}<span title=${exact(asc[asc.length - 1].time, now)}>${relativeTime(asc[asc.length - 1].time, now)}</span></div>
      ${lanes.map(
        (l) => html`<div class="lane" data-lane=${l.session}><div class="lane-name" title=${l.session}>${shortId(l.session)} <small>${l.client ?? ''} · ${l.versions}</small></div>
          <div class="track">${gapLines}${vs.filter((v) => (v.session ?? '?') === l.session).map(dot)}</div></div>`,
      )}
    </div>
    <table class="versions"><thead><tr><th>when</th><th>topic</th><th>session</th><th>held</th><th>subject</th></tr></thead><tbody>
      ${vs.slice(0, 60).map(
        (v) => html`<tr class=${v.oid === selected ? 'selected' : ''} data-version=${v.oid} onClick=${() => onSelect(v)}><td><${When} iso=${v.time} now=${now} /></td><td>${v.topic}</td><td title=${v.session ?? ''}>${shortId(v.session)}${v.takeoverFrom ? html` <span class="badge takeover">took from ${shortId(v.takeoverFrom)}</span>` : null}</td><td>${v.where.join(', ')}</td><td>${v.subject}</td></tr>`,
      )}
    </tbody></table>${timeline.truncated ? html`<p class="more">Older versions: <code>git handoff log &lt;topic&gt;</code></p>` : null}`;
}

function DiffView({ before, after }: { before: string; after: string }) {
  const parts = diffLines(before, after);
  return html`<pre class="diff">${parts.flatMap((p) =>
    p.value.replace(/\n$/, '').split('\n').map((line) => html`<span class=${p.added ? 'add' : p.removed ? 'del' : 'same'}>${p.added ? '+ ' : p.removed ? '- ' : '  '}${line}</span>`),
  )}</pre>`;
}

function VersionPanel({ oid, versions, now, onPick, onClose }: { oid: string; versions: TimelineVersion[]; now: number; onPick: (v: TimelineVersion) => void; onClose: () => void }) {
  const [v, setV] = useState<VersionView | null>(null);
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => {
    setV(null);
    setErr(null);
    getJson<VersionView>('/api/version', { oid }).then(setV, (e: Error) => setErr(e.message));
  }, [oid]);
  // opened from the handoffs below or an owner's card: bring it into view
  useEffect(() => document.getElementById('version')?.scrollIntoView({ block: 'nearest' }), [oid, !v]);
  if (err) return html`<section id="version" class="panel"><p class="error">${err}</p></section>`;
  if (!v) return html`<section id="version" class="panel"><p>loading ${oid.slice(0, 12)}…</p></section>`;
  return html`<section id="version" class="panel" data-oid=${v.oid}>
    <header><h2>${v.topic} <small>${v.oid.slice(0, 12)}</small></h2><button type="button" onClick=${onClose}>close</button></header>
    <p class="meta">by <strong title=${v.session ?? ''}>${shortId(v.session)}</strong> (${v.client ?? 'unknown client'}) on ${v.branch ?? '?'} · <${When} iso=${v.time} now=${now} />
      ${v.takeoverFrom ? html` · taken over from <strong>${shortId(v.takeoverFrom)}</strong>${v.reason ? html`: <q>${v.reason}</q>` : null}` : null}
      ${v.to.length ? ` · to ${v.to.join(', ')}` : ''}</p>
    ${versions.length > 1 ? html`<ol class="history">${versions.map(
      (x) => html`<li><button type="button" class=${x.oid === v.oid ? 'selected' : ''} data-history=${x.oid} onClick=${() => onPick(x)}><${When} iso=${x.time} now=${now} /> · ${shortId(x.session)} · ${x.subject}</button></li>`,
    )}</ol>` : null}
    <div class="columns">
      <div><h3>Text</h3>${v.body === null ? html`<p class="error">over the 1 MiB limit: not read</p>` : html`<pre class="body">${v.body}</pre>`}</div>
      <div><h3>Change ${v.previous ? html`since ${v.previous.oid.slice(0, 12)} (${shortId(v.previous.session)})` : '(first version)'}</h3>
        <${DiffView} before=${v.previous?.body ?? ''} after=${v.body ?? ''} /></div>
    </div>
  </section>`;
}

function Tree({ node, now, depth = 0 }: { node: TreeNode<StatusClaim>; now: number; depth?: number }) {
  return html`<ul class=${depth ? 'tree' : 'tree root'}>${node.children.map(
    (c) => html`<li data-claim-path=${c.path}><span class="name">${c.name}</span>${c.items.map(
      (cl) => html` <span class="holder" data-holder=${cl.session} title=${`${cl.session}${cl.note ? ` — ${cl.note}` : ''}`}>${shortId(cl.session)} · ${timeLeft(cl.expires, now)}${cl.note ? html` · <q>${cl.note}</q>` : null}</span>`,
    )}${c.children.length ? html`<${Tree} node=${c} now=${now} depth=${depth + 1} />` : null}</li>`,
  )}</ul>`;
}

function App() {
  const [all, setAll] = useState(new URLSearchParams(location.search).get('all') === '1');
  const [data, setData] = useState<{ status: Status; timeline: Timeline } | null>(null);
  const [route, setRoute] = useState(readRoute);
  const [live, setLive] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now());
  const [updates, setUpdates] = useState(0);
  const load = useCallback(() => {
    const q: Record<string, string> = all ? { all: '1' } : {};
    Promise.all([getJson<Status>('/api/status', q), getJson<Timeline>('/api/timeline', q)]).then(
      ([status, timeline]) => {
        setData({ status, timeline });
        setNow(Date.now());
        setError(null);
        setUpdates((n) => n + 1);
      },
      (e: Error) => setError(e.message),
    );
  }, [all]);
  useEffect(load, [load]);
  useEffect(() => {
    const es = new EventSource(api('/api/events'));
    es.onopen = () => setLive(true);
    es.onerror = () => setLive(false);
    es.addEventListener('change', () => load());
    return () => es.close();
  }, [load]);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  useEffect(() => {
    const read = () => setRoute(readRoute());
    addEventListener('hashchange', read);
    return () => removeEventListener('hashchange', read);
  }, []);
  // opening a handoff is a new address (Back returns); typing in the filter replaces the current one
  const go = (r: Route, push: boolean) => {
    if (push) location.hash = routeHash(r);
    else history.replaceState(null, '', routeHash(r));
    setRoute(r);
  };
  const link = (branch: string, topic: string) => routeHash({ ...route, branch, topic, v: null });
  if (!data) return html`<main>${error ? html`<p class="error">${error}</p>` : html`<p class="loading">loading…</p>`}</main>`;
  const { status, timeline } = data;
  const tree = claimTree(status.claims.map((c) => ({ paths: c.paths, item: c })));
  const versions = timeline.versions.filter((v) => kept(route, v));
  const open = route.branch && route.topic ? { branch: route.branch, topic: route.topic } : null;
  const own = open ? timeline.versions.filter((v) => (v.branch ?? status.branch) === open.branch && v.topic === open.topic) : [];
  const newest = open ? (status.handoffs.find((h) => h.branch === open.branch && h.topic === open.topic)?.oid ?? own[0]?.oid ?? null) : null;
  const selected = route.v ?? newest;
  const sessionIds = [...new Set([...status.sessions.map((s) => s.session), ...timeline.sessions.map((l) => l.session)])];
  const onSelect = (v: TimelineVersion) => go({ ...route, branch: v.branch ?? status.branch, topic: v.topic, v: v.oid }, true);
  const filtered = !!(route.session || route.q);
  const shown = status.handoffs.filter((h) => kept(route, h));
  return html`<main data-updates=${updates}>
    <header class="top"><h1>git handoff</h1>
      <span>${status.scope === 'all' ? 'every branch' : html`branch <strong>${status.branch}</strong>`} · ${status.remote ? `remote ${status.remote}` : 'no remote'} · ${status.host}</span>
      <label class="scope"><input type="checkbox" checked=${all} onChange=${(e: Event) => setAll((e.target as HTMLInputElement).checked)} /> every branch</label>
      <span class=${`live ${live ? 'on' : 'off'}`} id="live">${live ? 'live' : 'reconnecting…'}</span>
      <time class="generated" datetime=${status.generatedAt}>read ${exact(status.generatedAt, now)}</time></header>
    ${error ? html`<p class="error">${error}</p>` : null}
    <section id="attention"><h2>Needs a person (${status.attention.length})</h2><${NeedsPerson} items=${status.attention} now=${now} /></section>
    <section id="sessions"><h2>Sessions (${status.sessions.length})</h2><${Sessions} sessions=${status.sessions} now=${now} link=${link} /></section>
    <form class="filter" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>session <select id="filter-session" value=${route.session} onChange=${(e: Event) => go({ ...route, session: (e.target as HTMLSelectElement).value }, false)}>
        <option value="">every session</option>${sessionIds.map((id) => html`<option value=${id}>${shortId(id)}</option>`)}</select></label>
      <label>topic <input id="filter-topic" type="search" placeholder="part of a topic" value=${route.q} onInput=${(e: Event) => go({ ...route, q: (e.target as HTMLInputElement).value }, false)} /></label>
    </form>
    ${open ? (selected ? html`<${VersionPanel} oid=${selected} versions=${own} now=${now} onPick=${onSelect} onClose=${() => go({ ...route, branch: null, topic: null, v: null }, true)} />`
      : html`<section id="version" class="panel"><p class="empty">No handoff ${open.topic} on ${open.branch} here${all ? '' : ' (tick every branch)'}.</p></section>`) : null}
    <section id="timeline"><h2>Timeline <small>${versions.length} versions${timeline.truncated ? ', newest' : ''}; placed in order, a dashed line where none was written for over an hour; click one for its text and diff</small></h2>
      <${TimelineView} timeline=${timeline} versions=${versions} selected=${selected} now=${now} onSelect=${onSelect} /></section>
    <section id="claims"><h2>Claims (${status.claims.length})</h2>${tree.children.length ? html`<${Tree} node=${tree} now=${now} />` : html`<p class="empty">No live claims.</p>`}</section>
    <section id="handoffs"><h2>Handoffs (${filtered ? `${shown.length} of ${status.handoffs.length}` : shown.length})</h2><${Handoffs} handoffs=${shown} now=${now} all=${status.scope === 'all'} caller=${!!status.caller} link=${link} open=${open ? `${open.branch}/${open.topic}` : null} filtered=${filtered} /></section>
    <footer>Read-only: this page changes nothing. <code>git handoff status --json</code> prints the same data.</footer>
  </main>`;
}

const root = document.getElementById('app')!;
root.textContent = '';
render(html`<${App} />`, root);
