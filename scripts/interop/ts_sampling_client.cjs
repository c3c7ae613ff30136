// N sessions back to back with the TypeScript SDK's client: each connects
// (the client opens its GET stream as soon as initialize is done) and at
// once calls `ask`, whose server samples on that GET stream. The GET and
// the POST leave a few microseconds apart, and whichever reaches the server
// first decides the session: a proxy that lets the POST overtake fails it.
//
// Each session has two connections of its own, opened before it starts, so
// the GET and the POST both leave on a connection already open. With
// fetch's shared pool one of them often had to connect first, and the
// client itself then sent the POST ahead of the GET in 1 to 3 sessions of
// 100 with no proxy at all: a race of the client's, not the proxy's.
//
// Prints one line per session (its number and what came back, or the
// error), then "K of N".
// Usage: node ts_sampling_client.cjs URL N (NODE_PATH naming the
// node_modules that hold @modelcontextprotocol/sdk).
const http = require("node:http");
const { Readable } = require("node:stream");
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { CreateMessageRequestSchema } = require("@modelcontextprotocol/sdk/types.js");

// A fetch for the transport, over node:http with the session's own agent.
function fetchWith(agent) {
  return (url, init = {}) =>
    new Promise((resolve, reject) => {
      const headers = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const request = http.request(
        new URL(url),
        { method: init.method ?? "GET", headers, agent, signal: init.signal },
        (response) => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            answer.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          // An empty body (a 202) is read to its end here, so the connection
          // goes back to the agent rather than being closed by a cancel.
          const bodiless = [204, 205, 304].includes(response.statusCode) || response.headers["content-length"] === "0";
          if (bodiless) response.resume();
          resolve(
            new Response(bodiless ? null : Readable.toWeb(response), {
              status: response.statusCode,
              statusText: response.statusMessage,
              headers: answer,
            }),
          );
        },
      );
      request.on("error", reject);
      request.end(init.body);
    });
}

// Two requests at once open the agent's two connections; kept alive, they
// carry the session.
async function warm(agent, url) {
  const fetch = fetchWith(agent);
  await Promise.all(
    [0, 1, 2].map(async () => {
      const response = await fetch(url, { method: "GET", headers: { accept: "text/event-stream" } });
      await response.arrayBuffer();
    }),
  );
}

async function main(url, n) {
  let ok = 0;
  for (let i = 0; i < n; i++) {
    const agent = new http.Agent({ keepAlive: true });
    const client = new Client({ name: "interop", version: "1" }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "sampled" },
      model: "m",
    }));
    let outcome;
    try {
      await warm(agent, url);
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchWith(agent) }));
      const result = await client.callTool({ name: "ask", arguments: {} }, undefined, { timeout: 6000 });
      outcome = JSON.stringify(result.content);
      if (result.content?.[0]?.text === "sampled") ok++;
    } catch (e) {
      outcome = `error: ${e.message}`;
    }
    await client.close();
    agent.destroy();
    console.log(`${i} ${outcome}`);
  }
  console.log(`${ok} of ${n}`);
}

main(process.argv[2], Number(process.argv[3]));
