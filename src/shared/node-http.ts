/**
 * `node:http` and `node:https`, taken through `require`. From Node 22 on, the ES module form of
 * `node:http` reads every export as it loads, its lazy `WebSocket` among them, and that loads all
 * of undici, which nothing here uses (nodejs/node#57649); required, the export stays lazy.
 * Import these two from here; types come from the modules themselves (`import type`).
 */
import { createRequire } from 'node:module';

const loadBuiltin = createRequire(import.meta.url);

export const http = loadBuiltin('node:http') as typeof import('node:http');
export const https = loadBuiltin('node:https') as typeof import('node:https');
