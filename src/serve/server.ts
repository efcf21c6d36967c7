/**
 * The HTTP server: Fastify with @fastify/websocket. Every request passes the access check first
 * (access.ts); `/ws` connects a WebSocket to a session, the other routes are the page, the saved
 * sessions and `/healthz` (http-routes.ts).
 */
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
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

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { access, registry, limits, log } = options;
  const app = Fastify({ logger: false, bodyLimit: MAX_MESSAGE_BYTES });
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
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
