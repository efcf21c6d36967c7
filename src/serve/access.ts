/**
 * Who may use the server. Security: a local server is reachable by every page the user's browser
 * opens, so every route but `/healthz` and every WebSocket upgrade needs the token (a bearer
 * header or `?token=`), a loopback server answers only requests addressed to a loopback name
 * (DNS rebinding), and an upgrade's `Origin` must be the server's own (cross-site WebSockets).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.js';
import { stateDir, type StateEnv } from '../shared/state-dir.js';

/** Loopback names a browser on this machine may use for the server. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}

export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/** Keeps the token for scripts, readable by the user alone; returns the file. */
export function writeTokenFile(token: string, env: StateEnv = process.env): string {
  const file = path.join(stateDir(env), 'serve-token');
  writeFileAtomic(file, `${token}\n`);
  return file;
}

export interface RequestFacts {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  /** `?token=` of the request's URL. */
  queryToken: string | null;
}

export type Verdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

export class Access {
  private readonly digest: Buffer;

  constructor(
    token: string,
    /** Bound to loopback: requests must name a loopback host with this port. */
    private readonly loopback: boolean,
    private readonly port: () => number,
  ) {
    this.digest = sha256(token);
  }

  /** A request for an HTTP route (`needsToken`: all but `/healthz`) or an upgrade. */
  check(facts: RequestFacts, needsToken: boolean, upgrade: boolean): Verdict {
    // Security: a rebound name (evil.example resolving to 127.0.0.1) never reaches a loopback server.
    if (this.loopback && !this.loopbackHost(facts.host))
      return { ok: false, status: 403, message: 'this server answers only requests to 127.0.0.1 or localhost' };
    if (needsToken && !this.tokenMatches(facts))
      return { ok: false, status: 401, message: 'a valid token is required' };
    // Security: a browser always sends Origin with an upgrade; a page of another site is refused.
    // A client that is not a browser sends none, and cannot be a page acting for the user.
    if (upgrade && facts.origin !== undefined && facts.origin !== `http://${facts.host}`)
      return { ok: false, status: 403, message: "the WebSocket's Origin is not this server's" };
    return { ok: true };
  }

  private loopbackHost(host: string | undefined): boolean {
    return host !== undefined && LOOPBACK_NAMES.some((name) => host === `${name}:${this.port()}`);
  }

  private tokenMatches(facts: RequestFacts): boolean {
    const bearer = /^Bearer\s+(\S+)$/i.exec(facts.authorization ?? '')?.[1];
    const given = bearer ?? facts.queryToken;
    // Security: compared in constant time, as digests of equal length.
    return given !== undefined && given !== null && crypto.timingSafeEqual(sha256(given), this.digest);
  }
}

function sha256(text: string): Buffer {
  return crypto.createHash('sha256').update(text).digest();
}
