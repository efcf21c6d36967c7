/**
 * A server's own question as the wire's `question` message: what it asks, in one plain line the
 * page shows as text (never as HTML), answered by id with allow / always / deny. A form can only
 * be declined over the wire: its fields are filled in at the terminal.
 */
import { assertNever } from '../shared/errors.js';
import type { ServerQuestion } from '../vocabulary/questions.js';
import { samplingLines } from '../vocabulary/server-requests.js';
import type { ServerMessage } from './protocol.js';

function describe(question: ServerQuestion): { server: string; message: string } {
  switch (question.kind) {
    case 'sampling': {
      const { server } = question.request;
      const { asked, limits } = samplingLines(question.request);
      return {
        server,
        message: `may ${server} use ${question.model} for a completion (${limits})? ${asked.join(' · ')}`,
      };
    }
    case 'form':
      return { server: question.request.server, message: `${question.request.message} (a form: deny declines it)` };
    case 'url':
      return { server: question.request.server, message: `${question.request.message} Open ${question.request.url}?` };
    case 'tool-changes':
      return {
        server: question.changes.server,
        message: `${question.changes.server} offers ${question.changes.changes.length} new or changed tools: offer them to the model?`,
      };
    default:
      return assertNever(question);
  }
}

export function questionMessage(question: ServerQuestion): ServerMessage {
  return { type: 'question', payload: { id: question.id, kind: question.kind, ...describe(question) } };
}
