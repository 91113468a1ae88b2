#!/usr/bin/env node
// A chat bot loop with memlane as its memory, without Discord: each line read from stdin is a message from
// one user in one channel. For every message: store it, get the context for the next model call, call
// the model, store the reply, print it.
//
//   memlane --db bot.db serve &                       # a local server (no keys: loopback only)
//   node examples/bot.mjs                             # type messages; Ctrl-D ends
//
// Environment:
//   MEMLANE_URL (http://127.0.0.1:8080), MEMLANE_KEY, MEMLANE_AGENT (bot)
//   BOT_USER (you), BOT_THREAD (console)
//   OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL: an OpenAI-compatible chat completions server
//     (e.g. http://127.0.0.1:11434/v1 for Ollama); without OPENAI_BASE_URL a stub model echoes
//     what it was sent, so the loop runs with no model at all.
// Lines starting with "/remember " store a fact about the user; "/facts" lists what is known.
import { createInterface } from "node:readline";
import { Memlane } from "memlane";

const env = process.env;
const mem = new Memlane({
  url: env.MEMLANE_URL ?? "http://127.0.0.1:8080",
  key: env.MEMLANE_KEY,
  agent: env.MEMLANE_AGENT ?? "bot",
});
const user = env.BOT_USER ?? "you";
const thread = env.BOT_THREAD ?? "console";

/** The model: an OpenAI-compatible server if configured, else a stub that says what it was given. */
async function model(messages) {
  if (!env.OPENAI_BASE_URL) {
    const system = messages[0]?.role === "system" ? messages[0].content : "";
    const known = system.split("\n").filter((line) => line.startsWith("- ")).length;
    return `(stub model) you said: "${messages.at(-1).content}"; the context held ${messages.length} messages and ${known} remembered lines`;
  }
  const response = await fetch(`${env.OPENAI_BASE_URL.replace(/\/+$/, "")}/chat/completions`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(env.OPENAI_API_KEY ? { authorization: `Bearer ${env.OPENAI_API_KEY}` } : {}),
    },
    body: JSON.stringify({ model: env.OPENAI_MODEL ?? "gpt-4o-mini", messages }),
  });
  if (!response.ok) throw new Error(`model: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()).choices[0].message.content;
}

/** What the bot does with one message (the body of a discord.js "messageCreate" handler). */
async function onMessage(text) {
  if (text.startsWith("/remember ")) {
    const fact = await mem.remember(text.slice("/remember ".length), { user });
    return `remembered fact #${fact.id}`;
  }
  if (text === "/facts") {
    const facts = await mem.facts({ user });
    return facts.length ? facts.map((f) => `#${f.id} ${f.content}`).join("\n") : "no facts yet";
  }
  await mem.addMessage(thread, "user", text, { user });
  const ctx = await mem.context(thread, { user, query: text });
  const reply = await model(ctx.openai_messages);
  await mem.addMessage(thread, "assistant", reply);
  return reply;
}

const lines = createInterface({ input: process.stdin, terminal: false });
for await (const line of lines) {
  const text = line.trim();
  if (!text) continue;
  try {
    console.log(await onMessage(text));
  } catch (error) {
    console.error(`error: ${error.name}: ${error.message}`);
    process.exitCode = 1;
  }
}
