/**
 * `node:crypto`, loaded when first called for. Loading it takes ~3 ms of CPU on Node 20, and most
 * starts need none of it before their servers run: the trust check hashes only a config found in
 * the working directory, and state files are written later.
 */
import type * as Crypto from 'node:crypto';

export const cryptoOnUse = (): typeof Crypto => process.getBuiltinModule('node:crypto');
