/**
 * What the host's servers send unasked, as the user chooses: changes of watched resources
 * (`resources/subscribe`) and log messages from a level up (`logging/setLevel`). Each is asked only
 * of a server that declares it; a failure names the server and what was asked.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../shared/errors.js';
import { type HostServers, withoutCredentials } from './host-servers.js';
import type { ManagedServer } from './managed-server.js';

export class HostNotifications {
  constructor(private readonly servers: HostServers) {}

  async watch(serverName: string, uri: string): Promise<void> {
    await this.request(serverName, 'resources', `watching ${uri}`, (_, server) => server.watch(uri, true));
  }

  async unwatch(serverName: string, uri: string): Promise<void> {
    await this.request(serverName, 'resources', `unwatching ${uri}`, (_, server) => server.watch(uri, false));
  }

  async setLogLevel(serverName: string, level: LoggingLevel): Promise<void> {
    await this.request(serverName, 'logging', `setting the log level`, (client) => client.setLoggingLevel(level));
  }

  private async request(
    serverName: string,
    capability: 'resources' | 'logging',
    what: string,
    send: (client: Client, server: ManagedServer) => Promise<unknown>,
  ): Promise<void> {
    const server = this.servers.require(serverName);
    const client = await server.client();
    if (capability === 'resources' && client.getServerCapabilities()?.resources?.subscribe !== true)
      throw new Error(`${server.name} does not offer resource subscriptions`);
    if (capability === 'logging' && client.getServerCapabilities()?.logging === undefined)
      throw new Error(`${server.name} does not offer log levels`);
    try {
      await send(client, server);
    } catch (error) {
      throw new Error(withoutCredentials(server, `${server.name}: ${what} failed: ${errorMessage(error)}`));
    }
  }
}
