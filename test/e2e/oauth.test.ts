/**
 * OAuth end to end, against the built binary: a real OAuth-protected Streamable HTTP MCP server on
 * 127.0.0.1 (test/helpers/oauth-server.mjs, the SDK's own server-side auth with an authorization
 * server that approves without a person) and `BROWSER` set to a stand-in browser that follows the
 * authorization URL back to the CLI's callback. Scripts never wait for a browser; `mcp-chat auth`
 * stores tokens 0600; an expiring or expired token is refreshed; a revoked one says what to run;
 * no token reaches stdout, stderr or the log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthWorkspace, type OAuthWorkspace } from '../helpers/oauth-workspace.js';
import { killAll } from '../helpers/spawn-server.js';

const SERVER = 'guarded';
/** The warning a script prints for a server waiting for the user's sign-in. */
const NEEDS_AUTH = new RegExp(`^warning: ${SERVER}: needs authorisation: run mcp-chat auth ${SERVER}`, 'm');

interface ServerState {
  issued: string[];
  grants: { authorization_code: number; refresh_token: number };
  presented: { token: string; accepted: boolean }[];
}

let space: OAuthWorkspace;
const cli = (label: string, args: string[]): ReturnType<OAuthWorkspace['cli']> => space.cli(label, args);
const serverState = (): Promise<ServerState> => space.serverState<ServerState>();
const tokenFile = (): string => space.tokenFile;

async function control(action: 'expire' | 'revoke'): Promise<void> {
  const response = await fetch(new URL(`/test/${action}`, space.mcpUrl), { method: 'POST' });
  expect(response.ok).toBe(true);
}

/** Moves the stored token's expiry into the past, as the passing of an hour would. */
function ageStoredToken(): void {
  const stored = JSON.parse(fs.readFileSync(tokenFile(), 'utf8')) as { expiresAt: number };
  stored.expiresAt = Date.now() - 1_000;
  fs.writeFileSync(tokenFile(), JSON.stringify(stored));
}

beforeAll(async () => {
  space = await oauthWorkspace(SERVER);
});

afterAll(async () => {
  await killAll();
  space.remove();
});

describe('OAuth for a remote server, through the CLI', () => {
  it('a script never waits for a browser: tools names the server that needs authorisation and exits 0', async () => {
    const tools = await cli('tools before auth', ['tools', '--json']);
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout)).toEqual([]);
    expect(tools.stderr).toMatch(NEEDS_AUTH);
    expect(fs.existsSync(tokenFile())).toBe(false);
    expect((await serverState()).grants.authorization_code).toBe(0);
  });

  it('mcp-chat auth prints the authorization URL, follows it with $BROWSER and stores the tokens 0600', async () => {
    const auth = await cli('auth', ['auth', SERVER]);
    expect(auth.code, auth.stderr).toBe(0);
    expect(auth.stderr).toMatch(
      /open this URL .*: http:\/\/127\.0\.0\.1:\d+\/authorize\?\S*code_challenge_method=S256/,
    );
    expect(auth.stdout).toContain(`${SERVER}: authorised (2 tools)`);
    expect((await serverState()).grants.authorization_code).toBe(1);
    expect(fs.statSync(tokenFile()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(tokenFile())).mode & 0o777).toBe(0o700);
  });

  it('tools then lists the server with the stored token, with no new authorization', async () => {
    const tools = await cli('tools after auth', ['tools', '--json']);
    expect(tools.code, tools.stderr).toBe(0);
    const names = (JSON.parse(tools.stdout) as { server: string; name: string }[]).map((t) => `${t.server}.${t.name}`);
    expect(names.sort()).toEqual([`${SERVER}.echo`, `${SERVER}.whoami`]);
    expect(tools.stderr).not.toContain('needs authorisation');
    expect((await serverState()).grants.authorization_code).toBe(1);
  });

  it('a stored token past its expiry is refreshed before it is sent: the server never sees it rejected', async () => {
    ageStoredToken();
    const before = await serverState();
    const call = await cli('call after expiry', ['call', SERVER, 'echo', '{"text":"still here"}']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout.trim()).toBe('still here');
    const after = await serverState();
    expect(after.grants.refresh_token).toBe(before.grants.refresh_token + 1);
    expect(after.presented.slice(before.presented.length).every((seen) => seen.accepted)).toBe(true);
  });

  it('an access token the server has expired is refreshed on its 401, and the call goes through', async () => {
    await control('expire');
    const before = await serverState();
    const call = await cli('call after server-side expiry', ['call', SERVER, 'echo', '{"text":"again"}']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout.trim()).toBe('again');
    const after = await serverState();
    expect(after.grants.refresh_token).toBe(before.grants.refresh_token + 1);
    expect(after.presented.slice(before.presented.length).some((seen) => !seen.accepted)).toBe(true);
  });

  it('token in output: a server that quotes the token back shows it hidden', async () => {
    const call = await cli('whoami', ['call', SERVER, 'whoami', '--debug']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout.trim()).toBe('called with token [REDACTED]');
  });

  it('a revoked authorisation is a clear message naming the command, and the rest still works', async () => {
    await control('revoke');
    const tools = await cli('tools after revocation', ['tools', '--json']);
    expect(tools.code).toBe(0);
    expect(tools.stderr).toMatch(NEEDS_AUTH);
    expect(tools.stderr).toContain('(the server refused the stored authorisation: revoked or expired)');
    const call = await cli('call after revocation', ['call', SERVER, 'echo', '{"text":"x"}']);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(`needs authorisation: run mcp-chat auth ${SERVER}`);
  });

  it('auth again redoes the flow; auth --logout forgets the tokens', async () => {
    const auth = await cli('auth again', ['auth', SERVER]);
    expect(auth.code, auth.stderr).toBe(0);
    expect((await serverState()).grants.authorization_code).toBe(2);
    const logout = await cli('logout', ['auth', '--logout', SERVER]);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain(`${SERVER}: forgot its OAuth tokens`);
    expect(fs.existsSync(tokenFile())).toBe(false);
    const tools = await cli('tools after logout', ['tools', '--json']);
    expect(tools.stderr).toMatch(NEEDS_AUTH);
  });

  it('token in logs: no issued token is in any output or log line', async () => {
    const { issued } = await serverState();
    expect(issued.length).toBeGreaterThanOrEqual(8);
    const logs = fs
      .readdirSync(space.dir)
      .filter((name) => name.startsWith('mcp-chat'))
      .map((name) => fs.readFileSync(path.join(space.dir, name), 'utf8'))
      .join('\n');
    expect(logs).toContain('OAuth tokens stored');
    const texts = [
      { label: 'log', text: logs },
      ...space.outputs.flatMap(({ label, result }) => [
        { label: `${label} stdout`, text: result.stdout },
        { label: `${label} stderr`, text: result.stderr },
      ]),
    ];
    const leaks = texts.flatMap(({ label, text }) =>
      issued.filter((token) => text.includes(token)).map((t) => `${label}: ${t}`),
    );
    expect(leaks).toEqual([]);
  });
});
