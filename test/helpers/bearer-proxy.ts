/**
 * A forwarding proxy on 127.0.0.1 that adds `Authorization: Bearer <token>` to every request: it
 * stands for a client that holds the token, for a client (the conformance harness) that cannot
 * send one. A request for the proxy's own address goes on as one for the target's; any other Host
 * is passed on as it came, so the target's own Host check is what a rebinding probe meets.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BearerProxy {
  url: string;
  close: () => Promise<void>;
}

export async function startBearerProxy(target: string, token: string): Promise<BearerProxy> {
  const to = new URL(target);
  let own = new Set<string>();
  const server = http.createServer((req, res) => {
    const host = own.has(req.headers.host ?? '') ? to.host : req.headers.host;
    const headers = { ...req.headers, host, authorization: `Bearer ${token}` };
    const upstream = http.request(
      { hostname: to.hostname, port: to.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  own = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}${to.pathname}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
