/**
 * The baseline for time to screen: the least a program can do to show a streamed reply,
 * one `/api/chat` request read as NDJSON and each delta written to stdout at once.
 * Usage: node stream-printer.js <ollama-url> <model> <prompt>
 */
import { streamChat } from './ollama-by-hand.js';

const [url = '', model = '', prompt = ''] = process.argv.slice(2);
await streamChat(url, { model, messages: [{ role: 'user', content: prompt }] }, (text) => process.stdout.write(text));
process.stdout.write('\n');
