/**
 * `mcp-chat auth <server>`: authorise a remote server with OAuth in the browser, or again; with
 * `--logout`, forget what is stored for it. The authorization URL goes to stderr whether or not a
 * browser opens (it is the way in on a machine without one); the outcome goes to stdout.
 */
import type { RemoteServerConfig } from '../config/types.js';
import { login, logout } from '../mcp/oauth-login.js';
import { hideSecrets } from '../mcp/server-secrets.js';
import { toolCount } from '../present/tool-line.js';
import { openUrl } from '../session/open-url.js';
import type { Runtime } from '../session/runtime.js';
import { ExitCode, McpChatError, UsageError, errorMessage } from '../shared/errors.js';
import { redactSecrets } from '../shared/log.js';
import type { Output } from './output.js';

function remoteServer(runtime: Runtime, name: string): RemoteServerConfig {
  const { config } = runtime;
  const wanted = name.toLowerCase();
  const disabled = config.disabled.find((entry) => entry.name.toLowerCase() === wanted);
  if (disabled) throw new McpChatError(`server "${disabled.name}" is disabled: ${disabled.reason}`);
  const server = config.servers.find((entry) => entry.name.toLowerCase() === wanted);
  if (!server) {
    const known = config.servers.map((entry) => entry.name).join(', ') || 'none';
    throw new UsageError(`unknown server "${name}" (configured: ${known})`, `Config file: ${config.source}`);
  }
  if (server.kind !== 'remote') throw new UsageError(`"${server.name}" is a local server: OAuth is for remote ones`);
  return server;
}

export async function authCommand(
  runtime: Runtime,
  output: Output,
  name: string,
  options: { logout?: boolean },
): Promise<number> {
  if (options.logout) {
    // By name: the entry may have been removed, or be disabled, and its tokens are still worth forgetting.
    const server = runtime.config.servers.find((entry) => entry.name.toLowerCase() === name.toLowerCase());
    const { forgot, file } = logout(server?.name ?? name);
    output.stdout(
      forgot ? `${server?.name ?? name}: forgot its OAuth tokens (${file})` : `${name}: nothing was stored`,
    );
    return ExitCode.ok;
  }
  const server = remoteServer(runtime, name);
  try {
    const { tools, file } = await login(server, {
      log: runtime.log.child({ server: server.name }),
      say: (line) => output.stderr(`${line}\n`),
      openUrl: (url) => openUrl(url),
    });
    output.stdout(`${server.name}: authorised (${toolCount(tools)}); tokens kept in ${file}`);
    return ExitCode.ok;
  } catch (error) {
    // Security: an authorization server's error may quote what it was sent.
    throw new McpChatError(`${server.name}: ${redactSecrets(hideSecrets(errorMessage(error), server))}`);
  }
}
