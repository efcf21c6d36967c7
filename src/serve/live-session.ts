/**
 * One chat session the server holds while someone uses it: its `ChatSession` and servers, the
 * connections that share it, and what it has shown. Every message of the session goes to every
 * connection of it. Policy: one turn at a time; a message sent while a turn runs is refused with
 * a `busy` error (not queued), so no one's message runs later than they can tell.
 */
import { randomUUID } from 'node:crypto';
import type { McpHost } from '../mcp/host.js';
import type { ChatSession } from '../session/chat-session.js';
import { logContext, type Logger } from '../shared/log.js';
import { errorMessage } from '../shared/errors.js';
import type { SavedItem } from '../state/session-file.js';
import { MAX_SAVED_ITEMS } from '../state/session-keeper.js';
import { TurnTranscript } from '../state/turn-transcript.js';
import type { QuestionChange } from '../vocabulary/questions.js';
import { toDecision, type ServerMessage, type WireDecision } from './protocol.js';
import { questionMessage } from './question-view.js';
import { relayEvent, TURN_FAILED, turnEnd } from './turn-relay.js';

/** A connection as the session sees it: something to send a message to. */
export interface Peer {
  send(message: ServerMessage): void;
}

export class LiveSession {
  private readonly peers = new Set<Peer>();
  private readonly shown: SavedItem[];
  private turn: AbortController | undefined;
  private readonly stopQuestions: () => void;

  constructor(
    readonly id: string,
    private readonly chat: ChatSession,
    private readonly host: McpHost,
    private readonly log: Logger,
    private readonly ready: Promise<void>,
    shown: readonly SavedItem[] = [],
  ) {
    this.shown = [...shown];
    this.stopQuestions = chat.subscribeQuestions((change) => this.onQuestion(change));
  }

  get idle(): boolean {
    return this.peers.size === 0 && this.turn === undefined;
  }

  /** The session's servers and their state (`/healthz`). */
  statuses(): ReturnType<McpHost['statuses']> {
    return this.host.statuses();
  }

  join(peer: Peer): void {
    this.peers.add(peer);
    peer.send({ type: 'connection', payload: { state: 'connected', message: 'connected', sessionId: this.id } });
    peer.send({ type: 'history', payload: { items: [...this.shown], running: this.turn !== undefined } });
  }

  leave(peer: Peer): void {
    this.peers.delete(peer);
  }

  /** Runs a message as the session's turn; false (and nothing run) while another turn is under way. */
  startTurn(text: string): boolean {
    if (this.turn) return false;
    const controller = new AbortController();
    this.turn = controller;
    void this.runTurn(text, controller).then((end) => {
      this.turn = undefined;
      this.broadcast(end);
      this.onTurnEnd?.();
    });
    return true;
  }

  /** Called after each turn: the registry lets an idle session go. */
  onTurnEnd: (() => void) | undefined;

  /** Answers a question by id, from any connection; false when none such waits. */
  answer(id: string, decision: WireDecision): boolean {
    if (!this.chat.answer(id, toDecision(decision))) return false;
    this.broadcast({ type: 'answered', payload: { id, decision } });
    return true;
  }

  cancel(): void {
    this.turn?.abort();
    this.chat.stopServerWork();
  }

  /** Stops the session's servers; a turn still running is cancelled first. */
  async close(): Promise<void> {
    this.cancel();
    this.stopQuestions();
    await this.host.close();
  }

  broadcast(message: ServerMessage): void {
    for (const peer of this.peers) peer.send(message);
  }

  /** Resolves to the status that ends the turn, once the turn is saved; never rejects. */
  private runTurn(text: string, controller: AbortController): Promise<ServerMessage> {
    // Every line the turn logs, the host's and the model client's among them, carries both ids.
    return logContext.run({ requestId: randomUUID(), sessionId: this.id }, () => this.turnInContext(text, controller));
  }

  private async turnInContext(text: string, controller: AbortController): Promise<ServerMessage> {
    this.log.info({ chars: text.length }, 'turn started');
    this.broadcast({ type: 'message', payload: { text } });
    this.broadcast({ type: 'status', payload: { state: 'processing', message: 'thinking' } });
    const transcript = new TurnTranscript(text);
    let end = TURN_FAILED;
    try {
      await this.ready;
      for await (const event of this.chat.runTurn(text, controller.signal)) {
        transcript.note(event);
        for (const message of relayEvent(event)) this.broadcast(message);
        end = turnEnd(event) ?? end;
      }
    } catch (error) {
      this.log.error({ err: error }, 'turn failed');
      this.broadcast({ type: 'error', payload: { kind: 'failed', message: errorMessage(error) } });
    }
    this.shown.push(...transcript.items);
    this.shown.splice(0, Math.max(0, this.shown.length - MAX_SAVED_ITEMS));
    await this.save(transcript);
    this.log.info('turn ended');
    return end;
  }

  private async save(transcript: TurnTranscript): Promise<void> {
    try {
      await this.chat.saveTurn(transcript.items, transcript.answered);
    } catch (error) {
      this.log.error({ err: error }, 'session not saved');
      this.broadcast({ type: 'error', payload: { kind: 'save-failed', message: errorMessage(error) } });
    }
  }

  private onQuestion(change: QuestionChange): void {
    if (change.type === 'asked') this.broadcast(questionMessage(change.question));
    else if (change.withdrawn) this.broadcast({ type: 'answered', payload: { id: change.id, decision: 'withdrawn' } });
  }
}
