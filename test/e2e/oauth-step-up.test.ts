/**
 * A step-up through the CLI: the OAuth test server (test/helpers/oauth-server.mjs --step-up) wants
 * scope `notes:read` for everything and `notes:write` as well for its `publish` tool, and its 403
 * names only the scope missing, as RFC 6750 has it. A script cannot ask a person, so the refused
 * call says what to run; that sign-in then asks for both scopes, so that neither listing the tools
 * nor publishing costs the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { oauthWorkspace, type OAuthWorkspace } from '../helpers/oauth-workspace.js';
import { killAll } from '../helpers/spawn-server.js';

const SERVER = 'stepper';

let space: OAuthWorkspace;

/** The scope each authorization URL the stand-in browser opened asked for, in order. */
function scopesAsked(): (string | null)[] {
  const urls = fs.readFileSync(space.browserLog, 'utf8').trim().split('\n');
  return urls.map((url) => new URL(url).searchParams.get('scope'));
}

beforeAll(async () => {
  space = await oauthWorkspace(SERVER, ['--step-up']);
});

afterAll(async () => {
  await killAll();
  space.remove();
});

describe('a tool that needs more scope than the sign-in granted', () => {
  it('the call is refused in one line naming the scope and the command, with no browser and no stack trace', async () => {
    const auth = await space.cli('auth', ['auth', SERVER]);
    expect(auth.code, auth.stderr).toBe(0);
    expect(auth.stdout).toContain(`${SERVER}: authorised (3 tools)`);
    const call = await space.cli('call before step-up', ['call', SERVER, 'publish']);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(
      `needs authorisation: run mcp-chat auth ${SERVER} (the server asks for more access: scope "notes:write")`,
    );
    expect(call.stderr).not.toMatch(/^\s+at /m);
    expect(scopesAsked()).toEqual(['notes:read']);
  });

  it('step-up keeps what was granted: the next auth asks for both scopes, once, and the call then works', async () => {
    const auth = await space.cli('auth again', ['auth', SERVER]);
    expect(auth.code, auth.stderr).toBe(0);
    expect(auth.stdout).toContain(`${SERVER}: authorised (3 tools)`);
    expect(scopesAsked()).toEqual(['notes:read', 'notes:read notes:write']);
    const call = await space.cli('call after step-up', ['call', SERVER, 'publish']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout.trim()).toBe('published');
    const tools = await space.cli('tools after step-up', ['tools', '--json']);
    expect(tools.stderr).not.toContain('needs authorisation');
    expect((JSON.parse(tools.stdout) as unknown[]).length).toBe(3);
  });
});
