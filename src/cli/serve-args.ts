/**
 * `serve`'s `--host` is the address to bind, where everywhere else `--host` is Ollama's URL, a
 * global flag commander gives the program wherever it stands. Which one was meant is told by
 * where it stands: after `serve` the bind address, before it Ollama's URL.
 */
export interface ServeHosts {
  bind?: string;
  ollama?: string;
}

export function serveHosts(args: readonly string[], commandName: string): ServeHosts {
  const at = args.indexOf(commandName);
  const hosts: ServeHosts = {};
  args.forEach((arg, index) => {
    const value = arg === '--host' ? args[index + 1] : arg.startsWith('--host=') ? arg.slice(7) : undefined;
    if (value === undefined) return;
    if (at >= 0 && index > at) hosts.bind = value;
    else hosts.ollama = value;
  });
  return hosts;
}
