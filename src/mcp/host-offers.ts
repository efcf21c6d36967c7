/**
 * What the host's servers offer the user besides tools: prompts (and completion of their
 * arguments) and resources. A listing asks only the servers that are up and leaves out one that
 * fails; getting one prompt or resource starts its server if need be, and a failure names both.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { PromptInfo, ResourceInfo, ResourceTemplateInfo } from '../vocabulary/offers.js';
import type { ChatMessage } from '../vocabulary/types.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { type HostServers, withoutCredentials } from './host-servers.js';
import type { ManagedServer } from './managed-server.js';
import { listPrompts, listResources, listResourceTemplates, promptMessages, resourceText } from './server-offers.js';

/** A Tab press waits at most this for a server's suggestions. */
const COMPLETION_TIMEOUT_MS = 2_000;

export class HostOffers {
  constructor(
    private readonly servers: HostServers,
    private readonly log: Logger,
  ) {}

  async listPrompts(): Promise<PromptInfo[]> {
    return this.fromReadyServers('prompts', (client, server) => listPrompts(client, server.name));
  }

  async listResources(): Promise<ResourceInfo[]> {
    return this.fromReadyServers('resources', (client, server) => listResources(client, server.name));
  }

  async listResourceTemplates(): Promise<ResourceTemplateInfo[]> {
    return this.fromReadyServers('resource templates', (client, server) => listResourceTemplates(client, server.name));
  }

  async getPrompt(serverName: string, name: string, args: Record<string, string>): Promise<ChatMessage[]> {
    const server = this.servers.require(serverName);
    const client = await server.client();
    try {
      const messages = promptMessages(await client.getPrompt({ name, arguments: args }));
      return messages.map((message) => ({ ...message, content: withoutCredentials(server, message.content) }));
    } catch (error) {
      throw new Error(withoutCredentials(server, `prompt ${server.name}:${name} failed: ${errorMessage(error)}`));
    }
  }

  async readResource(serverName: string, uri: string): Promise<string> {
    const server = this.servers.require(serverName);
    const client = await server.client();
    try {
      return withoutCredentials(server, resourceText(await client.readResource({ uri })));
    } catch (error) {
      throw new Error(withoutCredentials(server, `reading ${server.name}:${uri} failed: ${errorMessage(error)}`));
    }
  }

  async completePromptArgument(
    serverName: string,
    prompt: string,
    argument: { name: string; value: string },
    typed: Record<string, string>,
  ): Promise<string[]> {
    const server = this.servers.find(serverName);
    const client = server?.readyClient();
    if (!client?.getServerCapabilities()?.completions) return [];
    try {
      const { completion } = await client.complete(
        { ref: { type: 'ref/prompt', name: prompt }, argument, context: { arguments: typed } },
        { timeout: COMPLETION_TIMEOUT_MS },
      );
      return completion.values;
    } catch (error) {
      this.log.warn({ server: serverName, prompt, err: error }, 'completion failed');
      return [];
    }
  }

  private async fromReadyServers<T>(
    what: string,
    list: (client: Client, server: ManagedServer) => Promise<T[]>,
  ): Promise<T[]> {
    const lists = await Promise.all(
      this.servers.all().map(async (server) => {
        const client = server.readyClient();
        if (!client) return [];
        try {
          return await list(client, server);
        } catch (error) {
          this.log.warn({ server: server.name, err: error }, `could not list ${what}`);
          return [];
        }
      }),
    );
    return lists.flat();
  }
}
