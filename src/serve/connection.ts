/**
 * One WebSocket connection of a session: what it sends is read, limited and dispatched; what the
 * session says is sent to it. A refused message (too large, malformed, too many, a turn already
 * running) is an `error` back and the connection stays open. A connection that answers no ping
 * for a heartbeat is closed: a laptop that slept or a network that dropped leaves nothing behind.
 */
import type { WebSocket } from 'ws';
import type { Logger } from '../shared/log.js';
import { assertNever } from '../shared/errors.js';
import type { LiveSession, Peer } from './live-session.js';
import { readClientMessage, type ClientMessage, type ServerMessage, type WireErrorKind } from './protocol.js';
import { RateLimit } from './rate-limit.js';

export interface ConnectionLimits {
  /** Time between pings; a connection that answered none of the last one is closed. */
  heartbeatMs: number;
  messagesPerSecond: number;
}

export function attachConnection(
  socket: WebSocket,
  session: LiveSession,
  limits: ConnectionLimits,
  log: Logger,
  onClose: () => void,
): void {
  const peer: Peer = {
    send(message: ServerMessage) {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    },
  };
  const refuse = (kind: WireErrorKind, message: string): void =>
    peer.send({ type: 'error', payload: { kind, message } });
  const rate = new RateLimit(limits.messagesPerSecond);
  let alive = true;
  socket.on('pong', () => (alive = true));
  const heartbeat = setInterval(() => {
    if (!alive) {
      log.info({ sessionId: session.id }, 'connection silent past the heartbeat: closed');
      socket.terminate();
      return;
    }
    alive = false;
    socket.ping();
  }, limits.heartbeatMs);
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    alive = true;
    if (!rate.take()) return refuse('rate-limited', `at most ${limits.messagesPerSecond} messages a second`);
    if (isBinary) return refuse('malformed', 'messages are JSON text frames');
    const read = readClientMessage(data);
    if (!read.ok) return refuse(read.kind, read.message);
    dispatch(read.message, session, refuse);
  });
  socket.on('close', () => {
    clearInterval(heartbeat);
    session.leave(peer);
    onClose();
  });
  session.join(peer);
}

function dispatch(
  message: ClientMessage,
  session: LiveSession,
  refuse: (kind: WireErrorKind, message: string) => void,
): void {
  switch (message.type) {
    case 'message':
      if (!session.startTurn(message.payload.text))
        refuse('busy', 'a turn is running in this session: wait for it to end, or cancel it');
      return;
    case 'answer':
      if (!session.answer(message.payload.id, message.payload.decision))
        refuse('unknown-question', `no question ${message.payload.id} waits for that answer`);
      return;
    case 'cancel':
      session.cancel();
      return;
    default:
      assertNever(message);
  }
}
