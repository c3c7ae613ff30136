// A server on the TypeScript SDK v2 (npm @modelcontextprotocol/server,
// which speaks 2026-07-28), for the interop step's side by side with the
// official conformance suite: one tool, one prompt, one resource;
// Streamable HTTP on 127.0.0.1, the SDK's own Host and Origin validation
// in front. Usage: node ts2_server.mjs PORT (node_modules found from
// NODE_PATH's first entry, where interop.sh installs the SDK).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

const modules = (process.env.NODE_PATH || '').split(path.delimiter)[0];
const require = createRequire(path.join(modules, 'noop.js'));
const { McpServer, createMcpHandler } = await import(require.resolve('@modelcontextprotocol/server'));
const { toNodeHandler, localhostHostValidation, localhostOriginValidation } = await import(
  require.resolve('@modelcontextprotocol/node'));
const { z } = await import(require.resolve('zod'));

const port = Number(process.argv[2]);

const server = () => {
  const made = new McpServer({ name: 'interop-ts2', version: '1.0.0' });
  made.registerTool('echo', { description: 'Says the text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));
  made.registerPrompt('greet', { description: 'A greeting', argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}` } }] }));
  made.registerResource('readme', 'interop://readme', { mimeType: 'text/plain', description: 'A text' },
    async (uri) => ({ contents: [{ uri: uri.href, text: 'nothing changes here' }] }));
  return made;
};

const handler = toNodeHandler(createMcpHandler(server));
const host = localhostHostValidation();
const origin = localhostOriginValidation();
createServer(async (request, response) => {
  if (!request.url.startsWith('/mcp')) {
    response.statusCode = 404;
    response.end();
    return;
  }
  if (!host(request, response) || !origin(request, response)) return;
  await handler(request, response);
}).listen(port, '127.0.0.1');
