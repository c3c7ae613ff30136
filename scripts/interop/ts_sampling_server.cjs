// A TypeScript SDK server whose one tool, `ask`, asks the client to sample
// with no related request, so the request goes out on the standalone GET
// stream; with no event store, a request sent before that stream is open is
// dropped, and the client waits in vain. The order in which the client's GET
// and its POST tools/call reach the server decides the session.
// Usage: node ts_sampling_server.cjs PORT (NODE_PATH naming the node_modules
// that hold @modelcontextprotocol/sdk).
const http = require("node:http");
const { randomUUID } = require("node:crypto");
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StreamableHTTPServerTransport } = require("@modelcontextprotocol/sdk/server/streamableHttp.js");
const { CreateMessageResultSchema } = require("@modelcontextprotocol/sdk/types.js");

function sampler() {
  const server = new McpServer({ name: "get-stream-sampler", version: "1" });
  server.registerTool("ask", { description: "Asks the client to sample, on the GET stream" }, async () => {
    const answer = await server.server.request(
      {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 },
      },
      CreateMessageResultSchema,
      { timeout: 4000 },
    );
    return { content: [{ type: "text", text: answer.content.text }] };
  });
  return server;
}

const sessions = new Map();
http
  .createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const sessionId = req.headers["mcp-session-id"];
    let transport = sessionId && sessions.get(sessionId);
    if (!transport) {
      if (req.method !== "POST" || sessionId) {
        res.writeHead(404).end("no such session");
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await sampler().connect(transport);
    }
    await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
  })
  .listen(Number(process.argv[2]), "127.0.0.1");
