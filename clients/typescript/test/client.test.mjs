// The client against a real `memlane serve` (see server.mjs): one server for the calls, a second one on
// the same store with a rate limit of 1 request a second for the 429 retries.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import {
  Conflict,
  Forbidden,
  InvalidInput,
  Memlane,
  MemlaneError,
  NotFound,
  RateLimited,
  StorageError,
  Unauthenticated,
  Unreachable,
} from "../dist/index.js";
import { Store } from "./server.mjs";

const store = new Store();
let server;
let limited;
const keys = {};
const as = (who, options = {}) => new Memlane({ url: server.url, key: keys[who], agent: "bot", ...options });

before(async () => {
  // The first key creates the store; the other keys are made while the servers start (each request
  // looks the keys up afresh).
  keys.admin = await store.key("--admin");
  [server, limited, keys.bot, keys.other, keys.alice, keys.bob] = await Promise.all([
    store.serve("--rate-limit", "0", "--workers-in-process", "1"),
    store.serve("--rate-limit", "1"), // bursts of 2, then one request a second, Retry-After: 1
    store.key("--agent", "bot"),
    store.key("--agent", "other"),
    store.key("--agent", "bot", "--user", "alice"),
    store.key("--agent", "bot", "--user", "bob"),
  ]);
});

after(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
  store.remove();
});

/** The error `promise` rejects with, checked to be an instance of `Class`. */
async function failure(promise, Class) {
  const error = await promise.then(
    () => assert.fail(`expected ${Class.name}`),
    (e) => e,
  );
  assert.ok(error instanceof Class, `expected ${Class.name}, got ${error?.name}: ${error?.message}`);
  assert.ok(error instanceof MemlaneError);
  return error;
}

describe("threads, messages and context", () => {
  test("a conversation is stored, paged, recalled and put into the next model call's context", async () => {
    const mem = as("bot");
    await mem.setThread("chan-1", { system_prompt: "You are a cooking assistant.", metadata: { guild: "g1" } });
    const first = await mem.addMessage("chan-1", "user", "I am vegetarian and I love spicy lentil curry", {
      user: "alice",
      external_id: "discord-1",
    });
    assert.equal(first.role, "user");
    assert.equal(first.user, "alice");
    const again = await mem.addMessage("chan-1", "user", "I am vegetarian and I love spicy lentil curry", {
      user: "alice",
      external_id: "discord-1",
    });
    assert.equal(again.id, first.id, "a redelivered message (same external_id) is stored once");
    await mem.addMessages("chan-1", [
      { role: "assistant", content: "Noted! Lentil curry it is." },
      { role: "user", content: "What should I cook tonight?", user: "alice" },
    ]);

    const all = await mem.history("chan-1");
    assert.deepEqual(all.map((m) => m.content), [
      "I am vegetarian and I love spicy lentil curry",
      "Noted! Lentil curry it is.",
      "What should I cook tonight?",
    ]);
    const page = await mem.history("chan-1", { limit: 1, before: all[2].seq });
    assert.deepEqual(page.map((m) => m.seq), [all[1].seq]);

    const thread = await mem.thread("chan-1");
    assert.equal(thread.system_prompt, "You are a cooking assistant.");
    assert.deepEqual(thread.metadata, { guild: "g1" });
    assert.ok((await mem.threads({ user: "alice" })).some((t) => t.key === "chan-1"));

    const ctx = await mem.context("chan-1", { user: "alice", query: "dinner" });
    assert.equal(ctx.openai_messages[0].role, "system");
    assert.match(ctx.openai_messages[0].content, /cooking assistant/);
    assert.equal(ctx.openai_messages.at(-1).content, "What should I cook tonight?");
    assert.ok(ctx.tokens > 0 && ctx.tokens <= ctx.budget);

    const hits = await mem.recall("lentil curry", { user: "alice", kinds: ["message"] });
    assert.ok(hits.some((h) => h.text.includes("lentil curry")), JSON.stringify(hits));
    const groups = await mem.recall("lentil curry", { user: "alice", group_by: "thread" });
    assert.equal(groups[0].thread, "chan-1");
  });

  test("reset clears the messages, delete removes the thread", async () => {
    const mem = as("bot");
    await mem.addMessage("chan-reset", "user", "hello there", { user: "alice" });
    await mem.addMessage("chan-reset", "assistant", "hi!");
    assert.equal(await mem.resetThread("chan-reset"), 2);
    assert.deepEqual(await mem.history("chan-reset"), []);
    await mem.deleteThread("chan-reset");
    await failure(mem.thread("chan-reset"), NotFound);
  });

  test("addToThreads writes several threads at once", async () => {
    const written = await as("bot").addToThreads({
      "batch-a": [{ role: "user", content: "one", user: "alice" }],
      "batch-b": [{ role: "user", content: "two", user: "bob" }],
    });
    assert.deepEqual(Object.keys(written).sort(), ["batch-a", "batch-b"]);
    assert.equal(written["batch-b"][0].content, "two");
  });
});

describe("messages by id, users and tokens", () => {
  test("a message is read, edited and deleted by id, in a thread whose name holds a slash", async () => {
    const mem = as("bot");
    const thread = "slack/C42"; // one path segment: slack%2FC42
    const said = await mem.addMessage(thread, "user", "my favourite colour is teal", { user: "alice", external_id: "ts-1" });
    assert.equal((await mem.thread(thread)).key, thread);
    assert.ok((await mem.threads()).some((t) => t.key === thread), "stored under its own name, not split at the slash");
    assert.equal((await mem.message(thread, said.id)).content, "my favourite colour is teal");

    const edited = await mem.editMessage(thread, said.id, "my favourite colour is crimson");
    assert.equal(edited.id, said.id);
    assert.equal(edited.content, "my favourite colour is crimson");
    assert.deepEqual((await mem.history(thread)).map((m) => m.content), ["my favourite colour is crimson"]);
    const hits = await mem.recall("crimson", { user: "alice", thread, kinds: ["message"] });
    assert.ok(hits.some((h) => h.message_id === said.id), "the edit is what search finds");

    const second = await mem.addMessage(thread, "assistant", "Crimson, noted.");
    const third = await mem.addMessage(thread, "user", "and teal for the walls", { user: "alice" });
    assert.equal(await mem.deleteMessages(thread, [said.id, second.id]), 2);
    assert.deepEqual((await mem.history(thread)).map((m) => m.id), [third.id]);
    await failure(mem.message(thread, said.id), NotFound);
    await mem.deleteMessage(thread, third.id);
    assert.deepEqual(await mem.history(thread), []);
    await failure(mem.editMessage(thread, third.id, "gone"), NotFound);
  });

  test("externalMessage finds a message by its platform id, and is null for an unknown one", async () => {
    const mem = as("bot");
    const said = await mem.addMessage("chan-ext", "user", "delivered once", { user: "alice", external_id: "discord-77" });
    assert.equal((await mem.externalMessage("chan-ext", "discord-77"))?.id, said.id);
    assert.equal(await mem.externalMessage("chan-ext", "discord-78"), null);
    // only a 404 means "none": a key of another agent is still refused
    await failure(as("other").externalMessage("chan-ext", "discord-77"), Forbidden);
  });

  test("a user's persona and custom context are set field by field", async () => {
    const mem = as("bot");
    const set = await mem.setUser("hana", { persona: "a terse pirate" });
    assert.equal(set.user, "hana");
    assert.equal(set.persona, "a terse pirate");
    await mem.setUser("hana", { custom_context: "Hana is learning Rust" });
    const record = await mem.user("hana");
    assert.equal(record.persona, "a terse pirate", "a field left out stays as it is");
    assert.equal(record.custom_context, "Hana is learning Rust");
    assert.equal((await mem.setUser("hana", { persona: null })).persona, null, "null clears a field");
    await failure(as("bob").user("hana"), Forbidden);
    assert.equal((await as("bob").user("bob")).user, "bob");
  });

  test("countTokens counts with the agent's tokenizer; flush waits for the vectors", async () => {
    const mem = as("bot");
    const short = await mem.countTokens("hello world");
    const long = await mem.countTokens("hello world ".repeat(50));
    assert.ok(short > 0 && long > 10 * short, `${short} then ${long}`);
    assert.equal(await mem.flush({ timeout: 10 }), true);
  });

  test("forgetMatching forgets the user's facts that say a text, and no one else's", async () => {
    const mem = as("bot");
    const paris = await mem.remember("Ivan lives in Paris", { user: "ivan" });
    const other = await mem.remember("Ivan lives in Paris", { user: "judy" });
    const kept = await mem.remember("Ivan plays chess", { user: "ivan" });
    await mem.flush();
    const gone = await mem.forgetMatching("Ivan lives in Paris", { user: "ivan" });
    assert.deepEqual(gone.map((f) => f.id), [paris.id]);
    const left = (await mem.facts({ user: "ivan" })).map((f) => f.id);
    assert.ok(left.includes(kept.id) && !left.includes(paris.id), JSON.stringify(left));
    assert.ok((await mem.facts({ user: "judy" })).some((f) => f.id === other.id), "judy's fact stays");
    assert.deepEqual(await mem.forgetMatching("Ivan lives in Paris", { user: "ivan" }), []);
  });
});

describe("the agent from the key (GET /v1/whoami)", () => {
  test("without an agent option, the client asks once and uses the key's agent", async () => {
    let asked = 0;
    const counting = (url, init) => {
      if (String(url).endsWith("/v1/whoami")) asked++;
      return fetch(url, init);
    };
    const mem = new Memlane({ url: server.url, key: keys.bot, fetch: counting });
    assert.equal(mem.agent, null, "not known before the first call");
    await Promise.all([
      mem.addMessage("chan-whoami", "user", "which agent am I?", { user: "alice" }),
      mem.facts({ user: "alice" }),
    ]);
    assert.equal(mem.agent, "bot");
    await mem.history("chan-whoami");
    assert.equal(asked, 1, "asked once, for concurrent first calls too");
    assert.equal((await as("bot").history("chan-whoami")).length, 1, "written to the key's agent");

    const alice = new Memlane({ url: server.url, key: keys.alice });
    assert.deepEqual(await alice.whoami(), { scope: "user", agent: "bot", user: "alice" });
    assert.equal((await alice.history("chan-whoami")).length, 1);
    assert.equal(alice.agent, "bot");

    const admin = new Memlane({ url: server.url, key: keys.admin });
    await admin.addMessage("chan-default", "user", "an admin key has no agent", { user: "alice" });
    assert.equal(admin.agent, "default");
    assert.equal((await as("admin", { agent: "default" }).history("chan-default")).length, 1);

    const nobody = new Memlane({ url: server.url });
    await failure(nobody.facts(), Unauthenticated);
    assert.equal(nobody.agent, null);
  });
});

describe("the agent and the store (admin)", () => {
  test("agents lists every agent; deleteAgent removes one agent's conversations and facts", async () => {
    const admin = as("admin");
    const scratch = admin.withAgent("scratch");
    await scratch.addMessage("chan-s", "user", "soon gone", { user: "kim" });
    await scratch.remember("Kim likes figs", { user: "kim" });
    assert.ok((await admin.agents()).includes("scratch"));
    await failure(as("bot").agents(), Forbidden);
    await failure(as("alice").deleteAgent(), Forbidden);

    const deleted = await scratch.deleteAgent();
    assert.deepEqual([deleted.threads, deleted.facts], [1, 1], JSON.stringify(deleted));
    await failure(scratch.thread("chan-s"), NotFound);
    assert.deepEqual(await scratch.facts({ user: "kim" }), []);
    assert.deepEqual(await scratch.threads(), []);
  });

  test("an API key is made, listed, used and revoked", async () => {
    const admin = as("admin");
    const made = await admin.createApiKey("user", { agent: "bot", user: "gina", label: "ts test" });
    assert.match(made.key, /\S{20,}/);
    assert.equal(made.record.scope, "user");
    assert.equal(made.record.user, "gina");
    assert.ok(made.key.startsWith(made.record.prefix));
    const gina = new Memlane({ url: server.url, key: made.key });
    assert.deepEqual(await gina.whoami(), { scope: "user", agent: "bot", user: "gina" });
    assert.ok((await admin.apiKeys()).some((k) => k.id === made.record.id && k.label === "ts test"));
    await failure(as("bot").apiKeys(), Forbidden);
    await failure(as("bot").createApiKey("admin"), Forbidden);

    const revoked = await admin.revokeApiKey(made.record.id);
    assert.ok(revoked.revoked_at, "revoked now");
    await failure(gina.whoami(), Unauthenticated);
    assert.ok(!(await admin.apiKeys()).some((k) => k.id === made.record.id));
    assert.ok((await admin.apiKeys({ include_revoked: true })).some((k) => k.id === made.record.id));
  });

  test("prune, pruneMessages, summaries and memoryCap answer what the server did", async () => {
    const mem = as("bot");
    await mem.addMessage("chan-prune", "user", "old enough to prune?", { user: "alice" });
    await mem.addMessage("chan-prune-kept", "user", "keep my thread", { user: "alice" });
    assert.equal(await mem.prune(3650), 0, "nothing is ten years idle");
    assert.equal(await mem.pruneMessages(3650), 0);
    assert.equal(await mem.pruneMessages(0, { thread: "chan-prune" }), 1, "older than now: the one message");
    assert.deepEqual(await mem.history("chan-prune"), []);
    assert.equal((await mem.thread("chan-prune")).key, "chan-prune", "its thread stays");
    assert.equal((await mem.history("chan-prune-kept")).length, 1, "another thread is untouched");
    await failure(as("alice").prune(1), Forbidden);

    assert.ok(Array.isArray(await mem.summaries({ thread: "chan-prune-kept" })));
    await failure(as("alice").summaries(), Forbidden);
    const cap = await mem.memoryCap();
    assert.ok(Number.isInteger(cap) && cap > 0, String(cap));
  });
});

describe("facts", () => {
  test("remember, read, change, share and forget a fact", async () => {
    const mem = as("bot");
    const fact = await mem.remember("Alice is allergic to peanuts", { user: "alice", category: "health", importance: 5 });
    assert.equal(fact.owner, "alice");
    assert.equal((await mem.fact(fact.id)).content, "Alice is allergic to peanuts");
    assert.ok((await mem.facts({ user: "alice" })).some((f) => f.id === fact.id));

    const changed = await mem.updateFact(fact.id, { content: "Alice is allergic to peanuts and cashews", user: "alice" });
    assert.equal(changed.content, "Alice is allergic to peanuts and cashews");
    const history = await mem.factHistory(fact.id);
    assert.ok(history.some((c) => c.old_content === "Alice is allergic to peanuts"), JSON.stringify(history));

    assert.equal((await mem.setVisibility(fact.id, "shared", { user: "alice" })).visibility, "shared");
    const forgotten = await mem.forget(fact.id, { user: "alice" });
    assert.equal(forgotten.id, fact.id);
    assert.ok(!(await mem.facts({ user: "alice" })).some((f) => f.id === fact.id));

    await mem.remember("Bob plays the cello", { user: "bob" });
    await mem.remember("Bob lives in Lyon", { user: "bob" });
    assert.equal(await mem.forgetAll({ user: "bob" }), 2);
    assert.deepEqual((await mem.facts({ user: "bob" })).filter((f) => f.owner === "bob"), []);
  });
});

describe("scopes", () => {
  test("a user key cannot read another user's private fact, until it is shared", async () => {
    const alice = as("alice");
    const bob = as("bob");
    const secret = await alice.remember("Alice's door code is 4711");
    assert.equal(secret.owner, "alice", "a user key writes as its own user");
    assert.equal(secret.visibility, "private");

    const hidden = await failure(bob.fact(secret.id), NotFound);
    assert.equal(hidden.status, 404);
    assert.ok(!(await bob.facts()).some((f) => f.id === secret.id));
    const recalled = await bob.recall("door code 4711");
    assert.ok(!recalled.some((h) => h.text.includes("4711")), JSON.stringify(recalled));
    await failure(bob.forget(secret.id), NotFound);
    await failure(bob.facts({ user: "alice" }), Forbidden);

    // A user's wish to share waits for the agent (share_needs_approval, on by default).
    const asked = await alice.setVisibility(secret.id, "shared");
    assert.equal(asked.visibility, "private");
    assert.equal(asked.metadata.share_requested, true);
    await failure(bob.fact(secret.id), NotFound);
    await as("bot").setVisibility(secret.id, "shared");
    assert.equal((await bob.fact(secret.id)).content, "Alice's door code is 4711");
  });

  test("user keys are refused the agent's bookkeeping, and keys of another agent everything", async () => {
    for (const call of [(m) => m.memories(), (m) => m.jobs(), (m) => m.usage(), (m) => m.status(), (m) => m.export()]) {
      const error = await failure(call(as("alice")), Forbidden);
      assert.equal(error.status, 403);
    }
    await failure(as("other").facts(), Forbidden);
    await failure(as("bot").status({ allAgents: true }), Forbidden);
    const whole = await as("admin").status({ allAgents: true });
    assert.ok(whole.schema_version >= 1, JSON.stringify(whole));
  });
});

describe("errors", () => {
  test("404, 422, 401 and an unreachable server are thrown as their classes", async () => {
    const missing = await failure(as("bot").thread("no-such-thread"), NotFound);
    assert.equal(missing.status, 404);
    assert.match(missing.message, /no-such-thread/);
    assert.equal(missing.problem.status, 404);
    assert.ok(missing.requestId, "the server's request id, to find the request in its log");

    const invalid = await failure(as("bot").recall("anything", { limit: 1000 }), InvalidInput);
    assert.equal(invalid.status, 422);
    assert.deepEqual(invalid.problem.errors[0].loc, ["body", "limit"]);
    await failure(as("bot").addMessage("chan-x", "wizard", "hi"), InvalidInput);
    await failure(as("bot").remember("   "), InvalidInput);

    const unknown = await failure(new Memlane({ url: server.url, key: "ml_not_a_key", agent: "bot" }).facts(), Unauthenticated);
    assert.equal(unknown.status, 401);
    const nobody = await failure(new Memlane({ url: server.url, agent: "bot" }).facts(), Unauthenticated);
    assert.equal(nobody.status, 401);

    const closed = new Memlane({ url: "http://127.0.0.1:9", agent: "bot", timeout: 2000 });
    const down = await failure(closed.facts(), Unreachable);
    assert.ok(down instanceof StorageError, "as in the Python client, no answer is a StorageError");
    assert.equal(down.status, undefined);
  });
});

describe("429 retries", () => {
  test("a rate-limited request is sent again after Retry-After, and succeeds", async () => {
    const mem = new Memlane({ url: limited.url, key: keys.bot, agent: "bot" });
    const started = Date.now();
    const answers = [await mem.facts(), await mem.facts(), await mem.facts()];
    const elapsed = Date.now() - started;
    assert.equal(answers.length, 3);
    assert.ok(elapsed >= 900, `the third call waited for Retry-After: 1 (took ${elapsed} ms)`);
  });

  test("without retries left, or with a Retry-After above maxRetryDelay, RateLimited is thrown", async () => {
    const once = new Memlane({ url: limited.url, key: keys.alice, agent: "bot", maxRetries: 0 });
    await once.facts();
    await once.facts();
    const limitedError = await failure(once.facts(), RateLimited);
    assert.equal(limitedError.status, 429);
    assert.ok(limitedError.retryAfter >= 1, `retryAfter ${limitedError.retryAfter}`);

    const impatient = new Memlane({ url: limited.url, key: keys.alice, agent: "bot", maxRetryDelay: 100 });
    const started = Date.now();
    await failure(impatient.facts(), RateLimited);
    assert.ok(Date.now() - started < 800, "a Retry-After longer than maxRetryDelay is not waited for");
  });
});

describe("the agent's memory and bookkeeping", () => {
  test("an ended thread becomes a memory, which can be listed and deleted", async () => {
    const mem = as("bot");
    await mem.addMessage("chan-end", "user", "Let's plan the product launch for March", { user: "alice" });
    await mem.addMessage("chan-end", "assistant", "Sure: a beta in February, the launch on March 3.");
    const ended = await mem.endThread("chan-end");
    assert.equal(ended.status, "ended");
    assert.ok((await mem.jobs()).some((j) => JSON.stringify(j.payload).includes("chan-end")));

    let memories = [];
    for (const deadline = Date.now() + 20_000; !memories.length && Date.now() < deadline; ) {
      await new Promise((done) => setTimeout(done, 250));
      memories = (await mem.memories()).filter((m) => m.sourceConversationId === "chan-end");
    }
    assert.equal(memories.length, 1, "the in-process worker made the thread's memory");
    assert.equal(await mem.deleteMemory(memories[0].id), 1);
    assert.ok(!(await mem.memories()).some((m) => m.id === memories[0].id));
    assert.equal(await mem.purgeMemories(), 0);
  });

  test("usage, budget, status, profile and digest answer typed values", async () => {
    const mem = as("bot");
    assert.ok(Array.isArray(await mem.usage({ since: new Date(Date.now() - 3600_000) })));
    const days = await mem.usageByDay(3);
    assert.equal(days.length, 3);
    assert.equal((await mem.budget()).agent, "bot");
    const status = await mem.status();
    assert.ok(status.schema_version >= 1, JSON.stringify(status));
    await mem.remember("Carol speaks Portuguese", { user: "carol" });
    const profile = await mem.profile("carol");
    assert.ok(profile === null || typeof profile === "string");
    assert.equal(typeof (await mem.digest("carol")), "string");
  });

  test("an export imports into another agent unchanged", async () => {
    const source = as("admin");
    await source.addMessage("chan-export", "user", "export me please", { user: "dora" });
    const text = await source.export({ threads: ["chan-export"] });
    const records = text.trim().split("\n").map((line) => JSON.parse(line));
    assert.ok(records.some((r) => JSON.stringify(r).includes("export me please")));

    const copy = source.withAgent("copy");
    assert.equal(copy.agent, "copy");
    const result = await copy.import(text);
    assert.equal(result.threads, 1);
    assert.equal(result.messages, 1);
    assert.deepEqual((await copy.history("chan-export")).map((m) => m.content), ["export me please"]);
    const again = await failure(copy.import(text), Conflict);
    assert.match(again.message, /chan-export/);
    const skipped = await copy.import(records, { on_conflict: "skip" });
    assert.equal(skipped.messages, 0);
    await failure(copy.import("not json\n"), InvalidInput);
  });
});

/** Run examples/bot.mjs with `lines` on its stdin; resolves to its stdout lines. */
function runBot(lines, env) {
  const bot = fileURLToPath(new URL("../examples/bot.mjs", import.meta.url));
  return new Promise((done, fail) => {
    const child = execFile(process.execPath, [bot], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout.trim().split("\n")),
    );
    child.stdin.end(lines.join("\n") + "\n");
  });
}

describe("the example bot (examples/bot.mjs)", () => {
  test("stores each message and the model's reply, and sends the model the context with the user's facts", async () => {
    const requests = [];
    const llm = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        requests.push({ path: req.url, body: JSON.parse(body) });
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: `reply ${requests.length}` } }] }));
      });
    });
    await new Promise((done) => llm.listen(0, "127.0.0.1", done));
    try {
      const out = await runBot(["/remember I keep bees", "what do I keep?", "/facts"], {
        MEMLANE_URL: server.url,
        MEMLANE_KEY: keys.bot,
        MEMLANE_AGENT: "bot",
        BOT_USER: "erin",
        BOT_THREAD: "console-erin",
        OPENAI_BASE_URL: `http://127.0.0.1:${llm.address().port}/v1`,
        OPENAI_MODEL: "stub",
      });
      assert.match(out[0], /^remembered fact #\d+$/);
      assert.equal(out[1], "reply 1");
      // a first-person fact is stored about its user, so it reads right in any prompt
      assert.match(out[2], /^#\d+ Erin keeps bees$/);
      assert.equal(requests.length, 1);
      assert.equal(requests[0].path, "/v1/chat/completions");
      const sent = requests[0].body.messages;
      assert.match(sent[0].content, /Erin keeps bees/, "the user's fact reached the model's system message");
      assert.deepEqual(sent.at(-1), { role: "user", content: "what do I keep?" });
      const stored = await as("bot").history("console-erin");
      assert.deepEqual(stored.map((m) => [m.role, m.content]), [["user", "what do I keep?"], ["assistant", "reply 1"]]);
    } finally {
      llm.close();
    }
  });

  test("runs with no model at all (the stub echoes)", async () => {
    const out = await runBot(["hello from the console"], {
      MEMLANE_URL: server.url,
      MEMLANE_KEY: keys.bot,
      BOT_USER: "alice",
      BOT_THREAD: "console-alice",
      OPENAI_BASE_URL: "",
    });
    assert.match(out[0], /^\(stub model\) you said: "hello from the console"/);
    assert.equal((await as("alice").history("console-alice")).length, 2); // her conversation with the bot
  });
});
