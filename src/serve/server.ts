/**
 * The HTTP server: Fastify with @fastify/websocket. Every request passes the access check first
 * (access.ts); `/ws` connects a WebSocket to a session, the other routes are the page, the saved
 * sessions and `/healthz` (http-routes.ts).
 */
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Logger } from '../shared/log.js';
import type { Access } from './access.js';
import { attachConnection, type ConnectionLimits } from './connection.js';
import { addHttpRoutes, type HttpRouteOptions } from './http-routes.js';
import { MAX_MESSAGE_BYTES } from './protocol.js';
import { SessionRefusal, type SessionRegistry } from './session-registry.js';

/**
 * Frames larger than this close the connection (the WebSocket library's hard limit); those
 * between `MAX_MESSAGE_BYTES` and it are refused with an error, the connection kept.
 */
const MAX_FRAME_BYTES = 16 * MAX_MESSAGE_BYTES;
/** Close code for a session that could not be opened: an application's own (4000–4999). */
const SESSION_REFUSED = 4404;
/** Close code for a server that is stopping (RFC 6455: "going away"); the page reconnects. */
const GOING_AWAY = 1001;
/**
 * How long a stopping server waits for a peer to answer its close frame before it drops the
 * connection: a tab on a sleeping laptop never answers, and the library's own wait is 30 s.
 */
const CLOSE_GRACE_MS = 1_000;

export interface ServerOptions extends HttpRouteOptions {
  access: Access;
  registry: SessionRegistry;
  limits: ConnectionLimits;
  log: Logger;
}

function facts(request: FastifyRequest): Parameters<Access['check']>[0] {
  const url = new URL(request.url, 'http://server.invalid');
  const { host, origin, authorization } = request.headers;
  return { host, origin, authorization, queryToken: url.searchParams.get('token') };
}

/** Every connection closed (answered or dropped), then no more upgrades: a stop that never waits on a peer. */
function closePeers(log: Logger): (this: FastifyInstance) => Promise<void> {
  return async function (this: FastifyInstance): Promise<void> {
    // The library's close waits for every client to be gone, one accepted meanwhile too: each is closed.
    const open = (): WebSocket[] =>
      [...this.websocketServer.clients].filter((socket) => socket.readyState !== socket.CLOSED);
    for (let sockets = open(); sockets.length > 0; sockets = open())
      await Promise.all(sockets.map((socket) => closeWithinGrace(socket, log)));
    await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()));
  };
}

function closeWithinGrace(socket: WebSocket, log: Logger): Promise<void> {
  return new Promise((resolve) => {
    const drop = setTimeout(() => {
      log.info('stopping: a connection that did not answer its close was dropped');
      socket.terminate();
    }, CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(drop);
      resolve();
    });
    socket.close(GOING_AWAY, 'server stopping');
  });
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { access, registry, limits, log } = options;
  const app = Fastify({ logger: false, bodyLimit: MAX_MESSAGE_BYTES });
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES }, preClose: closePeers(log) });
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    const verdict = access.check(facts(request), path !== '/healthz', request.headers.upgrade !== undefined);
    if (verdict.ok) return;
    log.warn({ path, status: verdict.status, origin: request.headers.origin }, `refused: ${verdict.message}`);
    await reply.code(verdict.status).send({ error: verdict.message });
  });
  app.get('/ws', { websocket: true }, (socket, request) => {
    const sessionId = new URL(request.url, 'http://server.invalid').searchParams.get('session') ?? undefined;
    try {
      const session = registry.open(sessionId);
      attachConnection(socket, session, limits, log, () => registry.release(session));
    } catch (error) {
      if (!(error instanceof SessionRefusal)) throw error;
      socket.send(JSON.stringify({ type: 'error', payload: { kind: error.kind, message: error.message } }));
      socket.close(SESSION_REFUSED, error.kind);
    }
  });
  addHttpRoutes(app, options);
  return app;
}
