// SHA-1 (@noble/hashes) for the small objects a write hashes: loading node:crypto costs more than hashing them here.
import { sha1 } from '@noble/hashes/legacy';
import { bytesToHex } from '@noble/hashes/utils';

/** The SHA-1 of the concatenated `parts`, as 40 hex digits (checked against node:crypto and git in tests). */
export function sha1Hex(parts: Uint8Array[]): string {
  const h = sha1.create();
  for (const p of parts) h.update(p);
  return bytesToHex(h.digest());
}
