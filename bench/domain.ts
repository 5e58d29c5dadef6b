// What the bench's repository generator borrows from the domain, so generated handoffs are the real format.
export { buildMessage, serializeState } from '../src/handoff/store/document';
export { encodeBranch, handoffRef } from '../src/handoff/store/names';
