/**
 * `/auth <server>` in the chat: the OAuth login of `mcp-chat auth`, with the authorization URL said
 * in the conversation (and opened in a browser), then the server started afresh on the new token.
 */
import { hideSecrets } from '../mcp/server-secrets.js';
import { errorMessage } from '../shared/errors.js';
import { redactSecrets } from '../shared/log.js';
import type { ChatSession } from './chat-session.js';
import { openUrl } from './open-url.js';

export async function authorizeServer(session: ChatSession, name: string): Promise<string> {
  const remote = session.runtime.config.servers.flatMap((server) => (server.kind === 'remote' ? [server] : []));
  const known = remote.map((server) => server.name).join(', ') || 'none configured';
  if (name === '') throw new Error(`name the server: /auth <server> (remote servers: ${known})`);
  const server = remote.find((entry) => entry.name.toLowerCase() === name.toLowerCase());
  if (!server) throw new Error(`no remote server "${name}" (remote servers: ${known})`);
  // Loaded on use: the OAuth flow brings the HTTP transports, which a chat without remote servers never needs.
  const { login } = await import('../mcp/oauth-login.js');
  try {
    await login(server, {
      log: session.runtime.log.child({ server: server.name }),
      say: (line) => session.notices.notify(line),
      openUrl: (url) => openUrl(url),
    });
  } catch (error) {
    // Security: an authorization server's error may quote what it was sent.
    throw new Error(`${server.name}: ${redactSecrets(hideSecrets(errorMessage(error), server))}`, { cause: error });
  }
  // A server that failed for want of a token is started again; one that was up takes the new token.
  await session.servers.setServerEnabled(server.name, false);
  return session.servers.setServerEnabled(server.name, true);
}
