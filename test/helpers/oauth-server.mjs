/**
 * An OAuth-protected Streamable HTTP MCP server for tests, on 127.0.0.1, made of the SDK's own
 * server-side auth pieces: `mcpAuthRouter` (metadata, dynamic registration, authorize, token) over
 * an in-memory provider whose authorization endpoint approves at once (no person), and
 * `requireBearerAuth` in front of `/mcp`. A test drives it through `/test/*`: expire the access
 * tokens, revoke everything, or read what was issued and which tokens were presented.
 * `--pkce absent|plain` makes its authorization server metadata say no PKCE, or PKCE with `plain`
 * only (the SDK's router advertises S256). `--step-up` asks for scope `notes:read` for everything and
 * adds a tool `publish` that needs `notes:write` too; refused, its 403 names only the scope missing
 * (RFC 6750 §3.1).
 * Prints `oauth test server listening on <mcp url>` on stderr once it accepts connections.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { parseArgs } from 'node:util';
import express from 'express';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** Lifetime of an access token, seconds; the tests move time by expiring tokens, not by waiting. */
const ACCESS_TTL_S = 3600;

const { values: options } = parseArgs({ options: { pkce: { type: 'string' }, 'step-up': { type: 'boolean' } } });
const READ_SCOPE = 'notes:read';
const WRITE_SCOPE = 'notes:write';

const state = {
  /** Authorization requests that reached the authorization endpoint. */
  authorizations: 0,
  codes: new Map(),
  access: new Map(),
  refresh: new Map(),
  /** Every token handed out, so a test can look for them where they must not be. */
  issued: [],
  grants: { authorization_code: 0, refresh_token: 0 },
  /** Bearer tokens presented to /mcp, in order, and whether they were accepted. */
  presented: [],
};

function issue(clientId, scopes) {
  const accessToken = `at-${randomUUID()}`;
  const refreshToken = `rt-${randomUUID()}`;
  state.access.set(accessToken, { clientId, scopes, expiresAt: Date.now() + ACCESS_TTL_S * 1000 });
  state.refresh.set(refreshToken, { clientId, scopes });
  state.issued.push(accessToken, refreshToken);
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ACCESS_TTL_S,
    refresh_token: refreshToken,
    scope: scopes.join(' '),
  };
}

const clients = new Map();
const provider = {
  clientsStore: {
    getClient: async (id) => clients.get(id),
    registerClient: async (client) => (clients.set(client.client_id, client), client),
  },
  // The person's approval, given at once: straight back to the client's (already validated) redirect URI.
  async authorize(client, params, res) {
    state.authorizations += 1;
    const code = randomUUID();
    state.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  },
  async challengeForAuthorizationCode(_client, code) {
    const grant = state.codes.get(code);
    if (!grant) throw new InvalidGrantError('unknown authorization code');
    return grant.params.codeChallenge;
  },
  async exchangeAuthorizationCode(client, code) {
    const grant = state.codes.get(code);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    state.codes.delete(code);
    state.grants.authorization_code += 1;
    return issue(client.client_id, grant.params.scopes ?? []);
  },
  async exchangeRefreshToken(client, refreshToken) {
    const grant = state.refresh.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('refresh token revoked');
    state.refresh.delete(refreshToken);
    state.grants.refresh_token += 1;
    return issue(client.client_id, grant.scopes);
  },
  async verifyAccessToken(token) {
    const grant = state.access.get(token);
    const accepted = grant !== undefined && grant.expiresAt > Date.now();
    state.presented.push({ token, accepted });
    if (!accepted) throw new InvalidTokenError('access token expired or revoked');
    return { token, clientId: grant.clientId, scopes: grant.scopes, expiresAt: Math.floor(grant.expiresAt / 1000) };
  },
};

function buildServer() {
  const server = new McpServer({ name: 'oauth-test', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  // A careless server that quotes the caller's token back: mcp-chat must not show it.
  server.registerTool(
    'whoami',
    { description: 'Say which token called', annotations: { readOnlyHint: true } },
    async (extra) => ({ content: [{ type: 'text', text: `called with token ${extra.authInfo?.token}` }] }),
  );
  if (options['step-up'])
    server.registerTool('publish', { description: 'Publish the notes' }, async () => ({
      content: [{ type: 'text', text: 'published' }],
    }));
  return server;
}

const app = express();
const httpServer = http.createServer(app);
await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${httpServer.address().port}`;
const mcpUrl = new URL('/mcp', base);

// An authorization server that does not check PKCE: its metadata says so, the rest is unchanged.
if (options.pkce !== undefined) {
  app.get('/.well-known/oauth-authorization-server', (_req, res, next) => {
    const send = res.json.bind(res);
    res.json = (metadata) => {
      delete metadata.code_challenge_methods_supported;
      return send(options.pkce === 'plain' ? { ...metadata, code_challenge_methods_supported: ['plain'] } : metadata);
    };
    next();
  });
}

const noRateLimit = { rateLimit: false };
app.use(
  mcpAuthRouter({
    provider,
    issuerUrl: new URL(base),
    resourceServerUrl: mcpUrl,
    authorizationOptions: noRateLimit,
    tokenOptions: noRateLimit,
    clientRegistrationOptions: noRateLimit,
    revocationOptions: noRateLimit,
  }),
);

const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
const bearer = requireBearerAuth({
  verifier: provider,
  resourceMetadataUrl,
  requiredScopes: options['step-up'] ? [READ_SCOPE] : [],
});
/** A call to `publish` without `notes:write`: 403, naming only the scope it lacks. */
function stepUp(req, res, next) {
  const publishing = req.body?.method === 'tools/call' && req.body.params?.name === 'publish';
  if (!options['step-up'] || !publishing || req.auth.scopes.includes(WRITE_SCOPE)) return next();
  const challenge = `Bearer error="insufficient_scope", scope="${WRITE_SCOPE}", resource_metadata="${resourceMetadataUrl}"`;
  res.set('WWW-Authenticate', challenge).status(403).json({ error: 'insufficient_scope' });
}
app.post('/mcp', express.json(), bearer, stepUp, async (req, res) => {
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
});
app.get('/mcp', (_req, res) => res.status(405).end());
app.delete('/mcp', (_req, res) => res.status(405).end());

// What a test does to the server: time passing for the access tokens, a revocation, a look inside.
app.post('/test/expire', (_req, res) => {
  for (const grant of state.access.values()) grant.expiresAt = 0;
  res.json({ ok: true });
});
app.post('/test/revoke', (_req, res) => {
  state.access.clear();
  state.refresh.clear();
  res.json({ ok: true });
});
app.get('/test/state', (_req, res) =>
  res.json({
    issued: state.issued,
    grants: state.grants,
    presented: state.presented,
    clients: clients.size,
    authorizations: state.authorizations,
  }),
);

process.stderr.write(`oauth test server listening on ${mcpUrl.href}\n`);
