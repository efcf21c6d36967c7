/**
 * What the editor sends and what a saved session showed, in ACP's terms: a prompt's content
 * blocks as the text of a turn (embedded text resources included, links named), and a saved
 * session's screen replayed as the updates that showed it (`session/load`).
 */
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import type { SavedItem } from '../state/session-file.js';
import { messageChunk, resultUpdate, toolCallUpdate, userChunk } from './turn-updates.js';

/** One block as text: only what can reach the model as text (`image`/`audio` are not offered in `initialize`). */
function blockText(block: ContentBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? `${block.resource.uri}:\n\`\`\`\n${block.resource.text}\n\`\`\`` : undefined;
    default:
      return undefined;
  }
}

export function promptText(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((block) => blockText(block) ?? []).join('\n\n');
}

/** The saved screen as updates, in order; each tool call under an id of its place in the replay. */
export function replayUpdates(screen: readonly SavedItem[]): SessionUpdate[] {
  return screen.flatMap((item, index): SessionUpdate[] => {
    switch (item.type) {
      case 'user':
        return [userChunk(item.text)];
      case 'assistant':
        return [messageChunk(item.text)];
      case 'tool': {
        const id = `replay_${index}`;
        return [toolCallUpdate(id, item.call, 'other'), resultUpdate(id, item.result)];
      }
      case 'info':
      case 'error':
        return [messageChunk(`${item.text}\n\n`)];
      case 'debug':
        return [];
    }
  });
}
