/**
 * The page's HTML: a frame for the script (web/page.ts) to fill. The script's URL carries the
 * token, as every route does; the page reads it from its own address for the WebSocket.
 */

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&#39;',
};

const attribute = (text: string): string => text.replace(/[&"<>']/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; display: flex; height: 100vh; color: #1d1d1f; }
aside { width: 14rem; border-right: 1px solid #ddd; padding: .75rem; overflow-y: auto; background: #fafafa; }
aside li { cursor: pointer; list-style: none; padding: .25rem 0; }
aside ul { padding: 0; }
main { flex: 1; display: flex; flex-direction: column; min-width: 0; }
#log { flex: 1; overflow-y: auto; padding: 1rem; }
.user { font-weight: 600; white-space: pre-wrap; margin-top: 1rem; }
.tool { font-family: ui-monospace, monospace; font-size: 13px; color: #555; }
.tool[data-state="complete"] { color: #137333; }
.tool[data-state="failed"] { color: #b3261e; }
.error { color: #b3261e; }
.approval, .question { border: 1px solid #e0c060; background: #fff8e0; padding: .5rem; margin: .5rem 0; }
.approval pre { white-space: pre-wrap; }
form { display: flex; gap: .5rem; padding: .75rem; border-top: 1px solid #ddd; }
#input { flex: 1; font: inherit; padding: .4rem; }
#state { font-size: 12px; color: #777; padding: 0 1rem; }
`;

export function pageHtml(token: string): string {
  const script = `/page.js?token=${encodeURIComponent(token)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-chat</title>
<style>${STYLE}</style>
</head>
<body>
<aside><strong>Saved sessions</strong><button id="new" type="button">New</button><ul id="sessions"></ul></aside>
<main>
<div id="log" aria-live="polite"></div>
<div id="state">connecting…</div>
<form id="composer"><input id="input" autocomplete="off" placeholder="Message"><button id="send" type="submit">Send</button><button id="cancel" type="button">Cancel</button></form>
</main>
<script type="module" src="${attribute(script)}"></script>
</body>
</html>
`;
}
