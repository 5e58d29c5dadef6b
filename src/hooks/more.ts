// The hooks' code beyond one session's ordinary commit (src/hooks/commit.ts): the staged checks against claims and other
// sessions, pre-push, reference-transaction, the server's pre-receive, the leases' full reading, what a refusal
// records, and an older build's stubs brought up to this one. Not in dist/hooks.cjs: loaded through dist/fast.cjs (in
// dist/rest.cjs, beside the guard's modules its frequent calls never import) only by a hook that needs it
// (src/hooks/load-more.ts).
export { sessionStaged, stagedClaims } from './staged';
export { prePush } from './push';
export { referenceTransaction } from './transaction';
export { preReceiveHook } from '../sync/receive';
export { listLeases } from '../handoff/store/leases';
export { appendAudit, auditFile } from '../handoff/state/audit';
export { noteRefusal } from '../handoff/state/refusals';
export { refreshStubs } from './install';
