// node:crypto takes a few ms to load (every command paid it at start for one hash some paths take): loaded at first use.
type Crypto = typeof import('node:crypto');
let crypto: Crypto | null = null;
const lazyCrypto = (): Crypto => (crypto ??= require('node:crypto') as Crypto);
export const createHash = (algorithm: string) => lazyCrypto().createHash(algorithm);
