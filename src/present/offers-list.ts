/** Prompts and resources for people: `mcp-chat prompts`, `mcp-chat resources` and the REPL's `help`. */
import { type PromptInfo, promptUsage, type ResourceInfo, type ResourceTemplateInfo } from '../vocabulary/offers.js';
import { sanitizeForDisplay } from '../shared/terminal-text.js';
import { twoColumns } from './listing-layout.js';

const oneLine = (text: string | undefined): string => (text ? sanitizeForDisplay(text.split('\n')[0] ?? '') : '');

export function formatPromptList(prompts: PromptInfo[]): string {
  if (prompts.length === 0) return 'No prompts: no running server offers any.';
  return twoColumns(prompts.map((prompt) => [promptUsage(prompt), oneLine(prompt.title ?? prompt.description)])).join(
    '\n',
  );
}

export function formatResourceList(resources: ResourceInfo[], templates: ResourceTemplateInfo[]): string {
  if (resources.length === 0 && templates.length === 0) return 'No resources: no running server offers any.';
  const lines = twoColumns(
    resources.map((resource) => [`@${resource.server}:${resource.uri}`, oneLine(resource.title ?? resource.name)]),
  );
  if (templates.length > 0) {
    lines.push('', 'Templates (fill in the {placeholders}):');
    lines.push(
      ...twoColumns(
        templates.map((template) => [
          `@${template.server}:${template.uriTemplate}`,
          oneLine(template.title ?? template.name),
        ]),
      ),
    );
  }
  return lines.join('\n');
}
