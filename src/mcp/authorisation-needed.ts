/**
 * A server that needs a person to approve access, said the way every command says it. Its own
 * module: the host checks for it on every start, and the OAuth code that raises it (with the SDK's
 * remote transports) loads only for a remote server.
 */
export class AuthorisationNeeded extends Error {
  constructor(
    readonly server: string,
    reason?: string,
  ) {
    super(`needs authorisation: run mcp-chat auth ${server}${reason ? ` (${reason})` : ''}`);
    this.name = 'AuthorisationNeeded';
  }
}
