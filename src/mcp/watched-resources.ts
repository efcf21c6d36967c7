/**
 * The resources the user watches on one server (`/watch`): a restarted server knows nothing of
 * them, so each new session subscribes again, and one that fails then is logged, not a failed start.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServerConfig } from '../config/types.js';
import type { Logger } from '../shared/log.js';
import { errorWithoutSecrets, secretValues } from './server-secrets.js';

export class WatchedResources {
  private readonly uris = new Set<string>();

  constructor(
    private readonly config: ServerConfig,
    private readonly log: Logger,
  ) {}

  /** Remembers (or forgets) a watched resource once the server has taken the (un)subscription. */
  async watch(client: Client, uri: string, on: boolean): Promise<void> {
    if (on) {
      await client.subscribeResource({ uri });
      this.uris.add(uri);
    } else {
      this.uris.delete(uri);
      await client.unsubscribeResource({ uri });
    }
  }

  async subscribeAgain(client: Client): Promise<void> {
    await Promise.all(
      [...this.uris].map((uri) =>
        client
          .subscribeResource({ uri })
          .catch((error: unknown) =>
            this.log.warn({ uri, err: errorWithoutSecrets(error, secretValues(this.config)) }, 'could not watch again'),
          ),
      ),
    );
  }
}
