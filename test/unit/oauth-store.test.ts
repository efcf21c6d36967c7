/**
 * The OAuth store on a real temporary directory: files 0600 in a 0700 directory, bound to the
 * server's URL, a damaged file read as nothing, and names that would leave the directory refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthStore, oauthDir, oauthStoreFor, withoutKeys } from '../../src/mcp/oauth-store.js';

const URL_A = 'https://mcp.example.com/mcp';
const TOKENS = { access_token: 'access-123456789', token_type: 'bearer', refresh_token: 'refresh-123456789' };

let dir: string;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-oauth-store-')));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('OAuthStore', () => {
  it('keeps tokens in $XDG_STATE_HOME/mcp-chat/oauth/<server>.json, mode 0600 in a 0700 directory', () => {
    const store = oauthStoreFor({ name: 'Notes', url: URL_A }, { XDG_STATE_HOME: dir });
    expect(store.file).toBe(path.join(dir, 'mcp-chat', 'oauth', 'notes.json'));
    store.update((stored) => ({ ...stored, tokens: TOKENS, expiresAt: 42 }));
    expect(fs.statSync(store.file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(oauthDir({ XDG_STATE_HOME: dir })).mode & 0o777).toBe(0o700);
    expect(store.read()).toEqual({ tokens: TOKENS, expiresAt: 42 });
  });

  it('a file made for another URL reads as nothing: an entry pointed elsewhere starts afresh', () => {
    new OAuthStore(dir, 'notes', URL_A).update(() => ({ tokens: TOKENS }));
    expect(new OAuthStore(dir, 'notes', 'https://evil.example.com/mcp').read()).toEqual({});
  });

  it('a damaged or foreign file reads as nothing', () => {
    const store = new OAuthStore(dir, 'notes', URL_A);
    fs.writeFileSync(store.file, '{ not json');
    expect(store.read()).toEqual({});
    fs.writeFileSync(store.file, JSON.stringify({ version: 99, serverUrl: URL_A, tokens: TOKENS }));
    expect(store.read()).toEqual({});
    fs.writeFileSync(store.file, JSON.stringify({ version: 1, serverUrl: URL_A, tokens: { access_token: 1 } }));
    expect(store.read()).toEqual({});
  });

  it('forget removes the file, and says whether there was one', () => {
    const store = new OAuthStore(dir, 'notes', URL_A);
    expect(store.forget()).toBe(false);
    store.update(() => ({ tokens: TOKENS }));
    expect(store.forget()).toBe(true);
    expect(fs.existsSync(store.file)).toBe(false);
  });

  it('path traversal: a name that would leave the directory is refused', () => {
    for (const name of ['../escape', 'a/b', '', '.hidden', 'x\u0000y'])
      expect(() => new OAuthStore(dir, name, URL_A), name).toThrow(/not a server name/);
  });

  it('withoutKeys drops what a redo or a refusal forgets and keeps the rest', () => {
    const client = { client_id: 'abc' };
    expect(withoutKeys({ client, tokens: TOKENS, expiresAt: 1 }, 'tokens', 'expiresAt')).toEqual({ client });
  });
});
