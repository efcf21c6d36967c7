/**
 * `serve`'s flags, checked before anything starts. Security: a server bound to anything but
 * loopback is reachable from the network, so it needs a token the user chose (`--token`), and
 * says so with a warning; on loopback a fresh token is made for each run.
 */
import { UsageError } from '../shared/errors.js';
import { isLoopback, newToken } from './access.js';

/** The port the issue and the README name: the same address each run, so a bookmark keeps working. */
export const DEFAULT_PORT = 7860;

export interface ServeFlags {
  port?: string;
  /** The address to bind, not Ollama's `--host` (a global flag). */
  bind?: string;
  token?: string;
  /** Seconds between pings. */
  heartbeat?: string;
}

export interface ServeSettings {
  host: string;
  port: number;
  token: string;
  heartbeatMs: number;
  /** A line to warn with before the server starts, when the bind is not loopback. */
  warning?: string;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535)
    throw new UsageError(`invalid --port ${JSON.stringify(text)}`, 'A port is 0 to 65535 (0: any free one).');
  return port;
}

/** A ping every 30 s finds a dropped connection within a minute, and is well inside proxies' idle timeouts. */
const DEFAULT_HEARTBEAT_S = 30;

function parseHeartbeat(text: string | undefined): number {
  if (text === undefined) return DEFAULT_HEARTBEAT_S * 1000;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 3600)
    throw new UsageError(`invalid --heartbeat ${JSON.stringify(text)}`, 'Seconds between pings, 0.1 to 3600.');
  return seconds * 1000;
}

export function serveSettings(flags: ServeFlags): ServeSettings {
  const host = flags.bind ?? '127.0.0.1';
  const port = parsePort(flags.port);
  const heartbeatMs = parseHeartbeat(flags.heartbeat);
  if (flags.token !== undefined && flags.token.length < 16)
    throw new UsageError('--token must have at least 16 characters', 'A long random one: openssl rand -hex 24');
  if (isLoopback(host)) return { host, port, heartbeatMs, token: flags.token ?? newToken() };
  if (flags.token === undefined)
    throw new UsageError(
      `binding ${host} makes the chat reachable from the network: give the token clients must send`,
      `Add --token <secret>, or bind 127.0.0.1 (the default).`,
    );
  return {
    host,
    port,
    heartbeatMs,
    token: flags.token,
    warning: `serving on ${host}: anyone who can reach this address and has the token can use your model and tools`,
  };
}

/** The address to open: IPv6 literals in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
