// The parts that need no server: reading Retry-After, choosing the error class of an answer, and how many
// times a 429 is sent again (counted with a fetch that answers from a script).
import assert from "node:assert/strict";
import { test } from "node:test";
import { errorFor } from "../dist/errors.js";
import { parseRetryAfter } from "../dist/http.js";
import {
  Conflict,
  Forbidden,
  InvalidInput,
  Memlane,
  MemlaneError,
  NotFound,
  ProviderError,
  RateLimited,
  ServerError,
  StorageError,
  Unauthenticated,
} from "../dist/index.js";

test("Retry-After in seconds or as an HTTP date", () => {
  assert.equal(parseRetryAfter("3"), 3);
  assert.equal(parseRetryAfter("0.5"), 0.5);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter("soon"), undefined);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:07 GMT", now), 7);
  assert.equal(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now), 0, "a date in the past: no wait");
});

const problem = (status, extra = {}) =>
  JSON.stringify({ type: "urn:memlane:problem:x", title: "t", status, detail: `detail ${status}`, request_id: "rid-1", ...extra });

test("each status is its error class, with the problem's detail and request id", () => {
  const cases = [
    [400, InvalidInput], [401, Unauthenticated], [403, Forbidden], [404, NotFound], [409, Conflict],
    [413, InvalidInput], [422, InvalidInput], [429, RateLimited], [500, ServerError], [502, ProviderError],
    [503, StorageError], [504, ServerError], [418, MemlaneError],
  ];
  for (const [status, Class] of cases) {
    const error = errorFor(status, problem(status), new Headers());
    assert.equal(error.constructor, Class, `HTTP ${status}`);
    assert.equal(error.status, status);
    assert.equal(error.message, `detail ${status} (HTTP ${status})`);
    assert.equal(error.requestId, "rid-1");
    assert.equal(error.problem.detail, `detail ${status}`);
  }
  assert.ok(errorFor(502, problem(502), new Headers()) instanceof ServerError);
});

test("a problem type other than about:blank decides the class; a body that is no problem still gives one", () => {
  const typed = errorFor(400, problem(400, { type: "urn:memlane:problem:not-found" }), new Headers());
  assert.ok(typed instanceof NotFound);
  assert.ok(errorFor(422, problem(422, { type: "urn:memlane:conflict" }), new Headers()) instanceof InvalidInput);
  const page = errorFor(502, "<html>Bad gateway</html>", new Headers({ "x-request-id": "proxy-9" }));
  assert.ok(page instanceof ProviderError);
  assert.equal(page.problem, undefined);
  assert.equal(page.requestId, "proxy-9");
  assert.match(page.message, /Bad gateway.*HTTP 502/);
  const limited = errorFor(429, problem(429), new Headers(), 2);
  assert.equal(limited.retryAfter, 2);
});

function scripted(...answers) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    const [status, headers, body] = answers[Math.min(calls.length - 1, answers.length - 1)];
    return new Response(body ?? (status >= 400 ? problem(status) : "[]"), { status, headers });
  };
  return { calls, fetch };
}

test("a 429 is sent again at most maxRetries times, then thrown as RateLimited", async () => {
  const { calls, fetch } = scripted([429, { "retry-after": "0" }]);
  const mem = new Memlane({ url: "http://memlane.invalid", agent: "bot", key: "k", fetch, maxRetries: 2 });
  const error = await mem.facts().catch((e) => e);
  assert.ok(error instanceof RateLimited);
  assert.equal(error.retryAfter, 0);
  assert.equal(calls.length, 3);
  assert.equal(calls[0].init.headers.authorization, "Bearer k");
  assert.equal(calls[2].url, "http://memlane.invalid/v1/agents/bot/facts");
});

test("the request after a 429 carries the same body, and its answer is returned", async () => {
  const { calls, fetch } = scripted([429, { "retry-after": "0" }], [201, {}, '{"id": 7}']);
  const mem = new Memlane({ url: "http://memlane.invalid/", agent: "a b", fetch });
  const fact = await mem.remember("tea", { user: "alice" });
  assert.equal(fact.id, 7);
  assert.equal(calls.length, 2);
  assert.equal(calls[1].url, "http://memlane.invalid/v1/agents/a%20b/facts", "the agent is escaped");
  assert.deepEqual(JSON.parse(calls[1].init.body), { user: "alice", content: "tea" });
  assert.equal(calls[1].init.headers.authorization, undefined, "no key, no header");
});

test("query parameters: none for undefined and null, repeated for lists, ISO 8601 for dates", async () => {
  const { calls, fetch } = scripted([200, {}, '{"usage": [], "budget": {}}']);
  const mem = new Memlane({ agent: "bot", fetch });
  await mem.facts({ user: "alice", subject: null, category: undefined, include_superseded: true });
  await mem.usage({ since: new Date("2026-01-02T03:04:05Z") });
  assert.equal(calls[0].url, "http://127.0.0.1:8080/v1/agents/bot/facts?user=alice&include_superseded=true");
  assert.equal(calls[1].url, "http://127.0.0.1:8080/v1/agents/bot/usage?since=2026-01-02T03%3A04%3A05.000Z");
});

test("a name is one path segment: a thread named slack/C42 is sent as slack%2FC42", async () => {
  const { calls, fetch } = scripted([200, {}, "null"]);
  const mem = new Memlane({ agent: "bot", fetch });
  await mem.externalMessage("slack/C42", "msg/7?x");
  await mem.editMessage("slack/C42", 5, "new text");
  assert.equal(calls[0].url, "http://127.0.0.1:8080/v1/agents/bot/threads/slack%2FC42/external/msg%2F7%3Fx");
  assert.equal(calls[1].url, "http://127.0.0.1:8080/v1/agents/bot/threads/slack%2FC42/messages/5");
  assert.equal(calls[1].init.method, "PATCH");
  assert.deepEqual(JSON.parse(calls[1].init.body), { content: "new text" });
});

test("without an agent option: whoami once, 'default' for a key without agent, asked again after a failure", async () => {
  const open = scripted([200, {}, '{"scope": "admin", "agent": null, "user": null}'], [200, {}, "[]"]);
  const mem = new Memlane({ fetch: open.fetch });
  await mem.facts();
  await mem.facts();
  assert.deepEqual(open.calls.map((c) => c.url.replace("http://127.0.0.1:8080", "")), [
    "/v1/whoami",
    "/v1/agents/default/facts",
    "/v1/agents/default/facts",
  ]);
  assert.equal(mem.agent, "default");

  const flaky = scripted([503, {}], [200, {}, '{"scope": "agent", "agent": "bot", "user": null}'], [200, {}, "[]"]);
  const retried = new Memlane({ fetch: flaky.fetch, maxRetries: 0 });
  assert.ok((await retried.facts().catch((e) => e)) instanceof StorageError);
  assert.equal(retried.agent, null);
  await retried.facts();
  assert.deepEqual(flaky.calls.map((c) => c.url.replace("http://127.0.0.1:8080", "")), [
    "/v1/whoami",
    "/v1/whoami",
    "/v1/agents/bot/facts",
  ]);
});

test("externalMessage answers null for a 404 only; other errors are thrown", async () => {
  const { fetch } = scripted([404, {}], [500, {}]);
  const mem = new Memlane({ agent: "bot", fetch, maxRetries: 0 });
  assert.equal(await mem.externalMessage("t", "nope"), null);
  assert.ok((await mem.externalMessage("t", "nope").catch((e) => e)) instanceof ServerError);
});

test("a write whose answer never came, or came as 503, is sent again with the same Idempotency-Key", async () => {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    if (calls.length === 1) throw new TypeError("fetch failed: socket hang up");
    if (calls.length === 2) return new Response(problem(503), { status: 503 });
    return new Response('{"id": 9, "thread": "t", "seq": 1}', { status: 201 });
  };
  const mem = new Memlane({ url: "http://memlane.invalid", agent: "bot", fetch, maxRetries: 2 });
  const stored = await mem.addMessage("t", "user", "did this arrive?", { user: "u" });
  assert.equal(stored.id, 9);
  assert.equal(calls.length, 3);
  const keys = calls.map((c) => c.init.headers["idempotency-key"]);
  assert.ok(keys[0] && keys.every((k) => k === keys[0]), JSON.stringify(keys));
  const read = scripted([200, {}, "[]"]);
  await new Memlane({ url: "http://memlane.invalid", agent: "bot", fetch: read.fetch }).facts();
  assert.equal(read.calls[0].init.headers["idempotency-key"], undefined, "reads carry no key");
});
