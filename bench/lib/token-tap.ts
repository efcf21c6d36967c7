/**
 * A TCP relay in front of the fake Ollama that notes when each numbered token leaves for
 * the client: the moment its bytes are handed to the client's socket. The relay is part
 * of the fake's side, so what is timed from there is only the client's own delay.
 */
import net from 'node:net';
import { ChunkJoiner, type MarkerLog } from './markers.js';

export class TokenTap {
  /** Where this run's tokens are recorded as they are sent; set per run. */
  log: MarkerLog | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  private constructor(private readonly target: URL) {
    this.server = net.createServer((client) => this.relay(client));
  }

  static async start(targetUrl: string): Promise<TokenTap> {
    const tap = new TokenTap(new URL(targetUrl));
    await new Promise<void>((resolve) => tap.server.listen(0, '127.0.0.1', resolve));
    return tap;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  private relay(client: net.Socket): void {
    const upstream = net.connect(Number(this.target.port), this.target.hostname);
    const joiner = new ChunkJoiner();
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.on('data', (bytes: Buffer) => {
      client.write(bytes);
      this.log?.record(joiner.push(bytes.toString('utf8')), performance.now());
    });
    upstream.on('end', () => client.end());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
