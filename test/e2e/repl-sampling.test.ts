/**
 * A server that samples, in the REPL as a person uses it (tmux, the built binary, the fake Ollama,
 * server-everything over stdio): one question shows what the server asks and the model that
 * answers, one y lets it run, and the completion goes back to the server with nothing more asked.
 */
import { describe, expect, it } from 'vitest';
import { EVERYTHING } from '../helpers/everything.js';
import { useReplSession } from '../helpers/repl-session.js';
import { TmuxPane } from '../helpers/tmux.js';

const sampleCall = (prompt: string): string =>
  JSON.stringify({ action: 'use_tool', server: 'everything', tool: 'trigger-sampling-request', arguments: { prompt } });

describe.skipIf(!TmuxPane.available())('a server asks to use the model, in the REPL', () => {
  const repl = useReplSession({
    config: {
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          alwaysAllow: ['trigger-sampling-request'],
        },
      },
    },
  });
  const samplings = () =>
    repl.ollama.chatRequests.filter((request) =>
      request.messages.some((message) => message.content.includes('trigger-sampling-request context: quokka')),
    );

  it('is one question with what it asks; y runs it and the completion goes back', async () => {
    await repl.shows('ready');
    repl.ollama.script(sampleCall('quokka'), 'Quokkas smile.', 'The server heard back.');
    repl.pane.type('Ask the server to sample about quokkas.', 'Enter');
    await repl.shows('everything asks your model (llama3.2) for a completion:');
    const screen = repl.pane.screen();
    expect(screen).toContain('system: You are a helpful test server.');
    expect(screen).toContain('user: Resource trigger-sampling-request context: quokka');
    expect(screen).toContain('at most 100 tokens · temperature 0.7');
    await repl.shows('allow? y/a/n ›');
    repl.pane.type('y', 'Enter');
    await repl.shows('The server heard back.');
    expect(samplings()).toHaveLength(1);
    const toolResult = JSON.stringify(repl.ollama.chatRequests.at(-1)?.messages);
    expect(toolResult).toContain('Quokkas smile.');
    expect(repl.pane.screen()).not.toContain('send? y/n');
  });
});
