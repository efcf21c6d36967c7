/** What `mcp-chat serve` lets in (src/serve/access.ts): the token, the Host of a loopback server, an upgrade's Origin. */
import { describe, expect, it } from 'vitest';
import { Access } from '../../src/serve/access.js';

const TOKEN = 'a-token-of-enough-length';
const loopback = new Access(TOKEN, true, () => 7860);
const facts = (overrides: Partial<Parameters<Access['check']>[0]> = {}): Parameters<Access['check']>[0] => ({
  host: '127.0.0.1:7860',
  origin: undefined,
  authorization: `Bearer ${TOKEN}`,
  queryToken: null,
  ...overrides,
});

describe('serve access', () => {
  it('takes the token as a bearer header or ?token=, and refuses a wrong, a missing or a longer one', () => {
    expect(loopback.check(facts(), true, false)).toEqual({ ok: true });
    expect(loopback.check(facts({ authorization: undefined, queryToken: TOKEN }), true, false)).toEqual({ ok: true });
    for (const wrong of [undefined, 'Bearer nope', `Bearer ${TOKEN}x`, TOKEN])
      expect(loopback.check(facts({ authorization: wrong }), true, false)).toMatchObject({ ok: false, status: 401 });
    expect(loopback.check(facts({ authorization: undefined }), false, false)).toEqual({ ok: true });
  });

  it('dns rebinding: on loopback, only loopback names with the port are answered', () => {
    for (const host of ['localhost:7860', '[::1]:7860'])
      expect(loopback.check(facts({ host }), true, false).ok).toBe(true);
    for (const host of ['rebind.example:7860', '127.0.0.1:80', undefined])
      expect(loopback.check(facts({ host }), false, false)).toMatchObject({ ok: false, status: 403 });
    // Bound to the network, any name may be used: the token is what keeps others out.
    expect(new Access(TOKEN, false, () => 7860).check(facts({ host: 'box.lan:7860' }), true, false).ok).toBe(true);
  });

  it("cross-site websocket: an upgrade's Origin must be the server's own; a client without one is let in", () => {
    expect(loopback.check(facts({ origin: 'http://127.0.0.1:7860' }), true, true).ok).toBe(true);
    expect(loopback.check(facts(), true, true).ok).toBe(true);
    for (const origin of ['https://evil.example', 'http://localhost:7860', 'null', 'http://127.0.0.1:7861'])
      expect(loopback.check(facts({ origin }), true, true)).toMatchObject({ ok: false, status: 403 });
  });
});
