/**
 * Entry of the GitHub server. `main.js --stdio` serves one client over stdio;
 * otherwise Streamable HTTP on `--host` (default 127.0.0.1) and `--port` (0 = any),
 * HTTPS with `--cert`/`--key`. The URL is printed as one stderr line; stdout stays unused.
 *
 * GITHUB_TOKEN is the owner's credential. Over stdio the one client is the owner's own process,
 * so calls use it. Over HTTP every caller brings its own `Authorization` header; a call without
 * one goes to GitHub anonymously, unless the server was started with `--use-own-token`, which
 * lends the token to every caller that can reach the port (said on stderr at start).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { runStdio } from '../shared/run-stdio.js';
import { GitHubClient } from './github-api.js';
import { serveHttp } from './http-server.js';
import { createServer } from './server.js';

/** Same meaning as the CLI's exit code for bad usage. */
const EXIT_USAGE = 2;
const USAGE =
  'usage: main.js [--stdio] | [--host 127.0.0.1] [--port 0] [--cert cert.pem --key key.pem] [--allowed-host name:port] ' +
  '[--use-own-token]';

function usage(message: string): never {
  process.stderr.write(`github server: ${message}\n${USAGE}\n`);
  process.exit(EXIT_USAGE);
}

const OPTIONS = {
  stdio: { type: 'boolean' },
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '0' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'use-own-token': { type: 'boolean' },
} as const;

function parseOptions() {
  try {
    return parseArgs({ options: OPTIONS, strict: true }).values;
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
}

/** What a caller without its own `Authorization` header gets, said once at start. */
function tokenNotice(lent: boolean, hasToken: boolean, url: string): string | undefined {
  if (lent) {
    return (
      `--use-own-token: a call without its own Authorization header uses this server's GITHUB_TOKEN; ` +
      `anyone who can reach ${url} reads GitHub as the token's owner`
    );
  }
  if (!hasToken) return undefined;
  return (
    'GITHUB_TOKEN is not lent to HTTP callers: a call without its own Authorization header reaches GitHub ' +
    'anonymously (start with --use-own-token to lend it)'
  );
}

const values = parseOptions();
// Security: the token is only ever sent to GITHUB_API_URL; it is never logged.
const token = process.env.GITHUB_TOKEN || undefined;
const lendToken = values['use-own-token'] === true;
if (lendToken && values.stdio) usage('--use-own-token is for HTTP; over --stdio the server always uses GITHUB_TOKEN');
if (lendToken && !token) usage('--use-own-token needs GITHUB_TOKEN set');
const baseUrl = process.env.GITHUB_API_URL || undefined;

if (values.stdio) {
  await runStdio(createServer({ client: new GitHubClient({ baseUrl, token }) }), 'github');
} else {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) usage(`invalid --port "${values.port}"`);
  if (Boolean(values.cert) !== Boolean(values.key)) usage('--cert and --key go together');
  const tls =
    values.cert && values.key ? { cert: fs.readFileSync(values.cert), key: fs.readFileSync(values.key) } : undefined;
  // Security: over HTTP the owner's token answers only for callers it was lent to on purpose.
  const client = new GitHubClient({ baseUrl, token: lendToken ? token : undefined });
  const running = await serveHttp({
    host: values.host,
    port,
    tls,
    allowedHosts: values['allowed-host'],
    createServer: () => createServer({ client }),
    log: (line) => process.stderr.write(`github: ${line}\n`),
  });
  const notice = tokenNotice(lendToken, token !== undefined, running.url);
  if (notice) process.stderr.write(`github: ${notice}\n`);
  process.stderr.write(`github MCP server listening on ${running.url}\n`);
  const stop = (): void => void running.close().finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
