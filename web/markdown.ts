/**
 * Markdown to HTML for the page, made safe. Security: the model's and tools' text is untrusted,
 * so HTML inside it is shown as text, never parsed; links keep only http(s) and mailto targets,
 * and images become links (nothing is fetched because a model wrote its address).
 */
import { Marked, type Tokens } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href, 'https://invalid.invalid/');
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) && /^(https?:|mailto:)/i.test(href)
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag): string => escapeHtml(text),
    link({ href, tokens }: Tokens.Link): string {
      const text = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      return safe === undefined
        ? text
        : `<a href="${escapeHtml(safe)}" rel="noopener noreferrer nofollow" target="_blank">${text}</a>`;
    },
    image({ href, text }: Tokens.Image): string {
      const safe = safeHref(href);
      const label = escapeHtml(text || href);
      return safe === undefined
        ? label
        : `<a href="${escapeHtml(safe)}" rel="noopener noreferrer nofollow">${label}</a>`;
    },
  },
});

export function renderMarkdown(text: string): string {
  return marked.parse(text, { async: false });
}
