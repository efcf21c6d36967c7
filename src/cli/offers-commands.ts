/**
 * `mcp-chat prompts [--json]` and `mcp-chat resources [--json]`: start the configured servers,
 * list what they offer besides tools, exit. `prompts --json` prints
 * `[{ server, name, title?, description?, arguments: [{ name, description?, required }] }]`;
 * `resources --json` prints `{ resources: [{ server, uri, name, … }], templates: [{ server, uriTemplate, name, … }] }`.
 */
import { formatPromptList, formatResourceList } from '../present/offers-list.js';
import type { Runtime } from '../session/runtime.js';
import { withHost } from '../session/with-host.js';
import { ExitCode } from '../shared/errors.js';
import { jsonForTerminal } from '../shared/terminal-text.js';
import type { Output } from './output.js';
import { printListing } from './print-listing.js';

export async function promptsCommand(runtime: Runtime, output: Output, options: { json?: boolean }): Promise<number> {
  const prompts = await withHost(runtime, output, (host) => host.listPrompts());
  if (options.json) output.stdout(jsonForTerminal(prompts));
  else printListing(output, formatPromptList(prompts));
  return ExitCode.ok;
}

export async function resourcesCommand(runtime: Runtime, output: Output, options: { json?: boolean }): Promise<number> {
  const { resources, templates } = await withHost(runtime, output, async (host) => ({
    resources: await host.listResources(),
    templates: await host.listResourceTemplates(),
  }));
  if (options.json) output.stdout(jsonForTerminal({ resources, templates }));
  else printListing(output, formatResourceList(resources, templates));
  return ExitCode.ok;
}
