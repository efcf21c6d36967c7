/**
 * The loopback OAuth callback over real HTTP on 127.0.0.1: the code of the answer carrying the
 * state handed out is delivered; forged answers are refused and do not end the wait.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuthorizationCallback, listenForCallback } from '../../src/mcp/oauth-callback.js';

let callback: AuthorizationCallback | undefined;

afterEach(async () => {
  await callback?.close();
  callback = undefined;
});

async function visit(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.text() };
}

describe('listenForCallback', () => {
  it('listens on 127.0.0.1 and delivers the code of the answer with the state it handed out', async () => {
    callback = await listenForCallback();
    expect(callback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const code = callback.expect('state-1', 10_000);
    const page = await visit(`${callback.redirectUrl}?code=the-code&state=state-1`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('the-code');
    await expect(code).resolves.toBe('the-code');
  });

  it('CSRF: a forged callback with another state is refused, and the real one still completes', async () => {
    callback = await listenForCallback();
    const code = callback.expect('expected-state', 10_000);
    const forged = await visit(`${callback.redirectUrl}?code=attacker-code&state=forged`);
    expect(forged.status).toBe(400);
    const missing = await visit(`${callback.redirectUrl}?code=attacker-code`);
    expect(missing.status).toBe(400);
    await visit(`${callback.redirectUrl}?code=real-code&state=expected-state`);
    await expect(code).resolves.toBe('real-code');
    // Each state completes once: a replay of the same answer is refused.
    expect((await visit(`${callback.redirectUrl}?code=real-code&state=expected-state`)).status).toBe(400);
  });

  it("an error answer rejects with the server's reason, and the page echoes nothing of it", async () => {
    callback = await listenForCallback();
    const code = callback.expect('s', 10_000);
    const page = await visit(
      `${callback.redirectUrl}?error=access_denied&error_description=${encodeURIComponent('<script>x</script>')}&state=s`,
    );
    expect(page.status).toBe(400);
    expect(page.body).not.toContain('<script>');
    await expect(code).rejects.toThrow('the authorization server refused: access_denied: <script>x</script>');
  });

  it('only GET /callback is answered', async () => {
    callback = await listenForCallback();
    expect((await visit(callback.redirectUrl.replace('/callback', '/other'))).status).toBe(404);
  });

  it('gives up after its timeout, and closing rejects what is still awaited', async () => {
    callback = await listenForCallback();
    await expect(callback.expect('late', 20)).rejects.toThrow(/no answer from the browser within/);
    const abandoned = callback.expect('never', 10_000);
    await callback.close();
    callback = undefined;
    await expect(abandoned).rejects.toThrow('the authorization was abandoned');
  });

  it('a fixed port in use says which setting to change', async () => {
    const busy = http.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      await expect(listenForCallback(port)).rejects.toThrow(
        /cannot listen on 127\.0\.0\.1:\d+ .*"oauth\.callbackPort"/,
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
