// SHA-1 in this process, for the small objects a write hashes (a body, its state, a tree, a commit): node:crypto
// costs about 3 ms of CPU to load, more than hashing every object of a write here (issue 39). The hash itself is
// @noble/hashes', not our own. Large contents (the loss record of many
// handoffs) go to node:crypto, which is faster per byte (src/git/loose.ts).
import { sha1 } from '@noble/hashes/legacy';
import { bytesToHex } from '@noble/hashes/utils';

/** The SHA-1 of the concatenated `parts`, as 40 hex digits (checked against node:crypto and git in tests). */
export function sha1Hex(parts: Uint8Array[]): string {
  const h = sha1.create();
  for (const p of parts) h.update(p);
  return bytesToHex(h.digest());
}
