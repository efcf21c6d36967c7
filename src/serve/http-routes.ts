/**
 * The routes besides `/ws`: the page and its script, the saved sessions the page lists, and
 * `/healthz` (Ollama reachable, every live session's servers), the one route without a token.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { errorMessage } from '../shared/errors.js';
import { PACKAGE_ROOT } from '../shared/paths.js';
import type { SessionStore } from '../state/session-store.js';
import { pageHtml } from './page-html.js';
import type { SessionRegistry } from './session-registry.js';

/** The page's script, as the build bundles it (scripts/bundle.mjs). */
const PAGE_SCRIPT = path.join(PACKAGE_ROOT, 'dist/web/page.js');

export interface HttpRouteOptions {
  registry: SessionRegistry;
  store: SessionStore;
  /** Resolves when Ollama answers, rejects with why not. */
  checkOllama: () => Promise<void>;
  ollamaUrl: string;
}

export function addHttpRoutes(app: FastifyInstance, options: HttpRouteOptions): void {
  const { registry, store } = options;
  app.get('/', async (request, reply) => {
    const token = new URL(request.url, 'http://server.invalid').searchParams.get('token') ?? '';
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'")
      .send(pageHtml(token));
  });
  app.get('/page.js', async (_request, reply) => {
    const script = await fs.promises.readFile(PAGE_SCRIPT, 'utf8');
    return reply.type('text/javascript; charset=utf-8').send(script);
  });
  app.get('/sessions', async () => store.list().sessions);
  app.get('/healthz', async (_request, reply) => {
    const ollama = await options.checkOllama().then(
      () => ({ url: options.ollamaUrl, reachable: true }),
      (error: unknown) => ({ url: options.ollamaUrl, reachable: false, error: errorMessage(error) }),
    );
    const servers = registry
      .sessions()
      .flatMap((session) => session.statuses().map(({ name, state }) => ({ session: session.id, name, state })));
    const ready = ollama.reachable && servers.every((server) => server.state !== 'failed');
    return reply.code(ready ? 200 : 503).send({ ok: ready, ollama, sessions: registry.size, servers });
  });
}
