/**
 * The host's servers in the config's order, found by the name the user types (in any case), and
 * the rule for what they say: it never carries the secrets their entries give them.
 */
import type { ManagedServer } from './managed-server.js';
import { hideSecrets } from './server-secrets.js';

export class HostServers {
  constructor(private servers: ManagedServer[]) {}

  all(): readonly ManagedServer[] {
    return this.servers;
  }

  /** A reload's servers, in its order. */
  replace(servers: ManagedServer[]): void {
    this.servers = servers;
  }

  find(name: string): ManagedServer | undefined {
    const wanted = name.toLowerCase();
    return this.servers.find((server) => server.name.toLowerCase() === wanted);
  }

  /** Throws naming the servers there are. */
  require(name: string): ManagedServer {
    const server = this.find(name);
    if (server) return server;
    throw new Error(`unknown server "${name}" (servers: ${this.names()})`);
  }

  /** Names each server gives (`names`), by server name; servers with none are left out. */
  namesBy(names: (server: ManagedServer) => string[]): Record<string, string[]> {
    return Object.fromEntries(
      this.servers.flatMap((server) => {
        const found = names(server);
        return found.length > 0 ? [[server.name, found]] : [];
      }),
    );
  }

  /** The servers' names for a message, or `none`. */
  names(): string {
    return this.servers.map((server) => server.name).join(', ') || 'none';
  }
}

/** Security: what a server says never carries the secrets its entry gives it, to the model or the screen. */
export function withoutCredentials(server: ManagedServer, text: string): string {
  return hideSecrets(text, server.config);
}
