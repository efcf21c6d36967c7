/**
 * `node:http` and `node:https`, taken through `require`. From Node 22 on, the ES module form of
 * `node:http` reads every export as it loads, its lazy `WebSocket` among them, and that loads all
 * of undici, which nothing here uses (nodejs/node#57649); required, the export stays lazy.
 * `node:https` is loaded at its first use: it brings in TLS, which a local Ollama over plain http
 * never needs. Import these from here; types come from the modules themselves (`import type`).
 */
import { createRequire } from 'node:module';

const loadBuiltin = createRequire(import.meta.url);

export const http = loadBuiltin('node:http') as typeof import('node:http');

/** `node:https`, loaded now if it was not yet (Node keeps it loaded after). */
export const loadHttps = (): typeof import('node:https') => loadBuiltin('node:https') as typeof import('node:https');
