/**
 * A stand-in browser for OAuth tests (`BROWSER` points at a wrapper that runs this with the URL):
 * it GETs the authorization URL and follows the redirects, which an authorization server that
 * approves without a person sends to mcp-chat's loopback callback. It never reads or prints a
 * token: the code it carries is exchanged by mcp-chat. Exits 1 when the chain does not end in a 2xx.
 */
const url = process.argv[2];
if (!url || !URL.canParse(url)) {
  process.stderr.write('usage: oauth-browser.mjs <authorization-url>\n');
  process.exit(2);
}
const response = await fetch(url, { redirect: 'follow' });
await response.body?.cancel();
process.exit(response.ok ? 0 : 1);
