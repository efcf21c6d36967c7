/**
 * The page's client: one WebSocket to `/ws` (the token from the page's own address), the
 * server's messages drawn by the view, reconnection after the server restarts (to the same
 * session, which the server resumes from disk), and the list of saved sessions.
 */
import { ConversationView, type HistoryItem } from './view.js';

interface Message {
  type: string;
  payload?: Record<string, unknown>;
}

const params = new URLSearchParams(location.search);
const token = params.get('token') ?? '';
const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const view = new ConversationView(byId('log'));
const stateLine = byId('state');
let sessionId: string | undefined = params.get('session') ?? undefined;
let socket: WebSocket | undefined;
let retryMs = 500;

function send(message: Message): void {
  socket?.send(JSON.stringify(message));
}

const answer = (id: string, decision: 'allow' | 'always' | 'deny'): void =>
  send({ type: 'answer', payload: { id, decision } });

function showSession(id: string): void {
  sessionId = id;
  const url = new URL(location.href);
  url.searchParams.set('session', id);
  history.replaceState(null, '', url);
}

function onStatus(payload: Record<string, unknown>): void {
  const data = (payload.data ?? {}) as Record<string, unknown>;
  const message = String(payload.message ?? '');
  if (typeof payload.tool === 'string') {
    const state = payload.state === 'processing' ? 'running' : data.isError === true ? 'failed' : 'complete';
    const detail = state === 'running' ? JSON.stringify(data.arguments ?? {}) : `${String(data.durationMs ?? '')} ms`;
    view.tool(String(data.id), payload.tool, state, detail);
    return;
  }
  stateLine.textContent = payload.state === 'processing' ? message : 'ready';
  if (payload.state === 'complete') {
    view.endTurn();
    void listSessions();
  }
}

function onMessage(message: Message): void {
  const payload = message.payload ?? {};
  switch (message.type) {
    case 'connection':
      showSession(String(payload.sessionId));
      stateLine.textContent = 'ready';
      retryMs = 500;
      return;
    case 'history':
      view.history(payload.items as HistoryItem[]);
      if (payload.running === true) stateLine.textContent = 'a turn is running';
      return;
    case 'message':
      return view.user(String(payload.text));
    case 'text':
      return view.text(String(payload.content));
    case 'status':
      return onStatus(payload);
    case 'approval': {
      const title = `${String(payload.server)}.${String(payload.tool)} wants to run with:`;
      return view.ask(String(payload.id), 'approval', title, JSON.stringify(payload.arguments, null, 2), answer);
    }
    case 'question':
      return view.ask(
        String(payload.id),
        'question',
        `${String(payload.server)}: ${String(payload.message)}`,
        undefined,
        answer,
      );
    case 'answered':
      return view.answered(String(payload.id));
    case 'error':
      if (payload.kind === 'unknown-session') sessionId = undefined;
      return view.note('error', String(payload.message));
  }
}

function connect(): void {
  const query = new URLSearchParams({ token });
  if (sessionId !== undefined) query.set('session', sessionId);
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?${query}`);
  socket = ws;
  ws.addEventListener('message', (event) => onMessage(JSON.parse(String(event.data)) as Message));
  ws.addEventListener('close', () => {
    if (socket !== ws) return;
    stateLine.textContent = 'disconnected: reconnecting…';
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 5_000);
  });
}

function switchTo(id: string | undefined): void {
  const old = socket;
  socket = undefined;
  old?.close();
  sessionId = id;
  view.clear();
  connect();
}

async function listSessions(): Promise<void> {
  const response = await fetch('/sessions', { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) return;
  const sessions = (await response.json()) as { name: string; title: string; turns: number }[];
  byId('sessions').replaceChildren(
    ...sessions.map((session) => {
      const item = document.createElement('li');
      item.textContent = session.title || session.name;
      item.title = `${session.name}, ${session.turns} turns`;
      item.addEventListener('click', () => switchTo(session.name));
      return item;
    }),
  );
}

byId('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>('input');
  if (input.value.trim() === '') return;
  send({ type: 'message', payload: { text: input.value } });
  input.value = '';
});
byId('cancel').addEventListener('click', () => send({ type: 'cancel' }));
byId('new').addEventListener('click', () => switchTo(undefined));
connect();
void listSessions();
