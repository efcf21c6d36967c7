/**
 * The live heap of a running Node process, observed from outside it: SIGUSR1 opens Node's own
 * inspector (no flag added to the program), and two DevTools protocol calls over its WebSocket
 * run a full collection and read the heap's used size. The WebSocket is the least of RFC 6455
 * that this needs: masked text frames out, unmasked frames in. Refuses a port already taken,
 * so it never speaks to a process it did not open.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { until } from './harness.js';

/** The port SIGUSR1 opens the inspector on when the program was started without `--inspect-port`. */
const INSPECTOR_PORT = 9229;

function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function debuggerUrl(): Promise<URL> {
  const targets = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl?: string;
  }>;
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error('the inspector lists no target');
  return new URL(url);
}

/** One masked text frame from the client. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0x81, 0x80 | length]) : Buffer.alloc(4);
  if (length >= 126) {
    if (length > 0xffff) throw new Error('a frame this large is not needed here');
    header.writeUInt8(0x81, 0);
    header.writeUInt8(0x80 | 126, 1);
    header.writeUInt16BE(length, 2);
  }
  const mask = crypto.randomBytes(4);
  const masked = payload.map((byte, index) => byte ^ (mask[index % 4] as number));
  return Buffer.concat([header, mask, masked]);
}

/** The complete frames at the start of `buffer`, and what is left of it. */
function readFrames(buffer: Buffer): { texts: string[]; rest: Buffer } {
  const texts: string[] = [];
  let at = 0;
  while (buffer.length - at >= 2) {
    let length = (buffer[at + 1] as number) & 0x7f;
    let start = at + 2;
    if (length === 126) [length, start] = [buffer.readUInt16BE(at + 2), at + 4];
    else if (length === 127) [length, start] = [Number(buffer.readBigUInt64BE(at + 2)), at + 10];
    if (buffer.length < start + length) break;
    if (((buffer[at] as number) & 0x0f) === 1) texts.push(buffer.subarray(start, start + length).toString('utf8'));
    at = start + length;
  }
  return { texts, rest: buffer.subarray(at) };
}

export class Inspector {
  private nextId = 1;
  private received: Buffer = Buffer.alloc(0);
  private readonly answers = new Map<number, unknown>();

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (bytes: Buffer) => {
      const { texts, rest } = readFrames(Buffer.concat([this.received, bytes]));
      this.received = rest;
      for (const text of texts) {
        const message = JSON.parse(text) as { id?: number; result?: unknown; error?: unknown };
        if (message.id !== undefined)
          this.answers.set(message.id, message.error ? { error: message.error } : message.result);
      }
    });
  }

  /** Opens the inspector of `pid` with SIGUSR1 and connects to it. */
  static async open(pid: number): Promise<Inspector> {
    if (await portTaken(INSPECTOR_PORT)) throw new Error(`port ${INSPECTOR_PORT} is already taken`);
    process.kill(pid, 'SIGUSR1');
    let url: URL | undefined;
    // The inspector starts on the program's own thread: poll its listing until it answers.
    for (let attempt = 0; attempt < 100 && !url; attempt++) {
      url = await debuggerUrl().catch(() => undefined);
      if (!url) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!url) throw new Error('the inspector did not open');
    return Inspector.connect(url);
  }

  private static async connect(url: URL): Promise<Inspector> {
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const key = crypto.randomBytes(16).toString('base64');
    socket.write(
      `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    const head = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
    const end = head.indexOf('\r\n\r\n');
    if (!head.subarray(0, end).toString().startsWith('HTTP/1.1 101'))
      throw new Error('the inspector refused the WebSocket');
    const inspector = new Inspector(socket);
    if (head.length > end + 4) socket.emit('data', head.subarray(end + 4));
    return inspector;
  }

  async call(method: string): Promise<unknown> {
    const id = this.nextId++;
    this.socket.write(textFrame(JSON.stringify({ id, method })));
    await until(`the inspector to answer ${method}`, () => this.answers.has(id), 30_000);
    const answer = this.answers.get(id);
    if (typeof answer === 'object' && answer !== null && 'error' in answer)
      throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer;
  }

  /** The heap's used size after a full collection: what the program keeps, without its garbage. */
  async liveHeapMb(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const usage = (await this.call('Runtime.getHeapUsage')) as { usedSize: number };
    return usage.usedSize / 2 ** 20;
  }

  close(): void {
    this.socket.destroy();
  }
}
