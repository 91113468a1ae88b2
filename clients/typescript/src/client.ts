/**
 * {@link Memlane}: the methods of memlane's Python `Client` (and of `Memory`), in camelCase, over HTTP.
 *
 * Every call names its route as the OpenAPI document spells it (`"/v1/agents/{agent}/facts"`), and its
 * options, body and result types are looked up in the types generated from that document: when a route
 * changes on the server, `npm run gen` makes this file fail to compile where it no longer fits.
 * Option names are the wire's (snake_case, like the results), so an object read from one call can be
 * passed to another unchanged.
 */
import type { paths } from "./generated/openapi.js";
import { NotFound, Unreachable } from "./errors.js";
import { Transport, type QueryValue } from "./http.js";
import type {
  ApiKey,
  BodyOf,
  BudgetStatus,
  Context,
  Fact,
  FactChange,
  Hit,
  HitGroup,
  ImportResult,
  Job,
  KeyScope,
  MemoryRecord,
  Message,
  MessageInput,
  Method,
  NewApiKey,
  PathOf,
  QueryOf,
  ResultOf,
  Role,
  StoreStatus,
  Summary,
  Thread,
  UsageDay,
  UsageTotals,
  UserRecord,
  Visibility,
  WhoAmI,
} from "./types.js";

/** How to reach the server. */
export interface MemlaneOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (the default). */
  url?: string;
  /** An API key (`memlane keys create`); leave out for a server without keys (loopback only). */
  key?: string | null;
  /** The agent whose memory to use; a user or agent key must be for it. Left out: the key's own agent,
   * asked of the server once (`GET /v1/whoami`) at the first call; `"default"` for an admin key or a
   * server without keys. */
  agent?: string;
  /** Milliseconds to wait for each answer (default 30 000). */
  timeout?: number;
  /** How often a rate-limited (429) request is sent again after the server's Retry-After (default 2). */
  maxRetries?: number;
  /** The longest Retry-After waited for, in milliseconds (default 60 000); a longer one throws RateLimited. */
  maxRetryDelay?: number;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

type ThreadsPath = "/v1/agents/{agent}/threads/{thread}";
type MessagesPath = "/v1/agents/{agent}/threads/{thread}/messages";
type FactsPath = "/v1/agents/{agent}/facts";
type FactPath = "/v1/agents/{agent}/facts/{fact_id}";

export type AddMessageOptions = Omit<BodyOf<MessagesPath, "post">, "role" | "content">;
export type HistoryOptions = QueryOf<MessagesPath, "get">;
export type ThreadsOptions = QueryOf<"/v1/agents/{agent}/threads", "get">;
export type SetThreadOptions = BodyOf<ThreadsPath, "put">;
export type ContextOptions = BodyOf<"/v1/agents/{agent}/threads/{thread}/context", "post">;
export type RecallOptions = Omit<BodyOf<"/v1/agents/{agent}/recall", "post">, "query">;
export type RememberOptions = Omit<BodyOf<FactsPath, "post">, "content">;
export type FactsOptions = QueryOf<FactsPath, "get">;
export type UpdateFactOptions = BodyOf<FactPath, "patch">;
export type ForgetOptions = QueryOf<FactPath, "delete">;
export type ForgetAllOptions = QueryOf<FactsPath, "delete">;
export type MemoriesOptions = QueryOf<"/v1/agents/{agent}/memories", "get">;
export type JobsOptions = QueryOf<"/v1/agents/{agent}/jobs", "get">;
export type ImportOptions = QueryOf<"/v1/agents/{agent}/import", "post">;
export type PruneMessagesOptions = Omit<BodyOf<"/v1/agents/{agent}/prune/messages", "post">, "older_than_days">;
export type SetUserOptions = BodyOf<"/v1/agents/{agent}/users/{user}", "patch">;
export type FlushOptions = BodyOf<"/v1/agents/{agent}/flush", "post">;
export type ForgetMatchingOptions = Omit<BodyOf<"/v1/agents/{agent}/facts/forget-matching", "post">, "text">;
export type SummariesOptions = QueryOf<"/v1/agents/{agent}/summaries", "get">;
export type DeleteAgentOptions = QueryOf<"/v1/agents/{agent}", "delete">;
export type ApiKeysOptions = QueryOf<"/v1/keys", "get">;
export type CreateApiKeyOptions = Omit<BodyOf<"/v1/keys", "post">, "scope">;

interface Args<P extends keyof paths, M extends Method> {
  path?: PathOf<P, M>;
  query?: QueryOf<P, M>;
  body?: BodyOf<P, M>;
}

/**
 * A client of `memlane serve` for one agent.
 *
 * ```ts
 * const mem = new Memlane({ url: "http://127.0.0.1:8080", key: process.env.MEMLANE_KEY, agent: "my-bot" });
 * await mem.addMessage("chan-1", "user", "I'm vegetarian", { user: "alice" });
 * const ctx = await mem.context("chan-1", { user: "alice", query: "dinner ideas" });
 * ```
 *
 * Every method throws a {@link MemlaneError} subclass for the server's answer (NotFound, Forbidden,
 * InvalidInput, ...; see `errors.ts`), and {@link Unreachable} when the server does not answer.
 */
export class Memlane {
  readonly #options: MemlaneOptions;
  readonly #http: Transport;
  /** The agent, once known: given, or the key's (asked of the server by {@link #resolveAgent}). */
  #agent: string | null;
  /** The one pending `GET /v1/whoami` of the first calls, so that concurrent calls ask once. */
  #asking: Promise<string> | null = null;

  constructor(options: MemlaneOptions = {}) {
    this.#options = options;
    this.#agent = options.agent ?? null;
    const fetcher = options.fetch ?? globalThis.fetch;
    if (typeof fetcher !== "function") throw new TypeError("no fetch: run on Node 20 or newer, or pass `fetch`");
    this.#http = new Transport({
      url: options.url ?? "http://127.0.0.1:8080",
      key: options.key,
      timeout: options.timeout ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      maxRetryDelay: options.maxRetryDelay ?? 60_000,
      fetch: fetcher,
      headers: options.headers,
    });
  }

  /** The server this client talks to. */
  get url(): string {
    return this.#http.url;
  }

  /** The agent whose memory this client uses; null until the first call has asked the server for the
   * key's agent (when no `agent` option was given). */
  get agent(): string | null {
    return this.#agent;
  }

  /** A client for another agent, with the same server, key and options. */
  withAgent(agent: string): Memlane {
    return new Memlane({ ...this.#options, agent });
  }

  // -- threads and messages --------------------------------------------------------------------------

  /** Append one message to `thread` (created on first use). `external_id` makes a redelivered message
   * stored once. */
  addMessage(thread: string, role: Role, content: string | null, options: AddMessageOptions = {}): Promise<Message> {
    return this.#call("post", "/v1/agents/{agent}/threads/{thread}/messages", {
      path: { thread },
      body: { ...options, role, content },
    });
  }

  /** Append several messages to `thread` in one transaction: all of them, or none. */
  addMessages(thread: string, messages: MessageInput[]): Promise<Message[]> {
    return this.#call("post", "/v1/agents/{agent}/threads/{thread}/messages/batch", {
      path: { thread },
      body: { messages },
    });
  }

  /** Append messages to several threads at once (one transaction). */
  addToThreads(messages: Record<string, MessageInput[]>): Promise<Record<string, Message[]>> {
    return this.#call("post", "/v1/agents/{agent}/messages/batch", { body: { threads: messages } });
  }

  /** The thread's messages in order; `before` / `after` page by `seq`. */
  history(thread: string, options: HistoryOptions = {}): Promise<Message[]> {
    return this.#call("get", "/v1/agents/{agent}/threads/{thread}/messages", { path: { thread }, query: options });
  }

  /** Threads, most recently active first. */
  threads(options: ThreadsOptions = {}): Promise<Thread[]> {
    return this.#call("get", "/v1/agents/{agent}/threads", { query: options });
  }

  /** One thread. */
  thread(thread: string): Promise<Thread> {
    return this.#call("get", "/v1/agents/{agent}/threads/{thread}", { path: { thread } });
  }

  /** Create a thread, or set its system prompt and metadata. */
  setThread(thread: string, options: SetThreadOptions = {}): Promise<Thread> {
    return this.#call("put", "/v1/agents/{agent}/threads/{thread}", { path: { thread }, body: options });
  }

  /** End the conversation: its memory is made in the background. */
  endThread(thread: string): Promise<Thread> {
    return this.#call("post", "/v1/agents/{agent}/threads/{thread}/end", { path: { thread } });
  }

  /** Clear the conversation but keep the facts; returns how many messages were cleared. */
  async resetThread(thread: string): Promise<number> {
    const answer = await this.#call("post", "/v1/agents/{agent}/threads/{thread}/reset", { path: { thread } });
    return Number(answer.cleared);
  }

  /** Delete a thread, its messages and its summaries. */
  async deleteThread(thread: string): Promise<void> {
    await this.#call("delete", "/v1/agents/{agent}/threads/{thread}", { path: { thread } });
  }

  /** One message of the thread, by id. */
  message(thread: string, messageId: number): Promise<Message> {
    return this.#call("get", "/v1/agents/{agent}/threads/{thread}/messages/{message_id}", {
      path: { thread, message_id: messageId },
    });
  }

  /** Replace a message's content (a platform's edit); its vector and search entry follow. A user key edits
   * its own messages only. */
  editMessage(thread: string, messageId: number, content: string): Promise<Message> {
    return this.#call("patch", "/v1/agents/{agent}/threads/{thread}/messages/{message_id}", {
      path: { thread, message_id: messageId },
      body: { content },
    });
  }

  /** Delete one message (a user key: its own only). */
  async deleteMessage(thread: string, messageId: number): Promise<void> {
    await this.#call("delete", "/v1/agents/{agent}/threads/{thread}/messages/{message_id}", {
      path: { thread, message_id: messageId },
    });
  }

  /** Delete several messages of the thread (a platform's deletion); returns how many were deleted. */
  async deleteMessages(thread: string, ids: number[]): Promise<number> {
    if (!Array.isArray(ids)) throw new TypeError("ids must be an array of message ids");
    const answer = await this.#call("post", "/v1/agents/{agent}/threads/{thread}/messages/delete", {
      path: { thread },
      body: { ids },
    });
    return Number(answer.deleted);
  }

  /** The message a platform's id names (the `external_id` it was added with), or null when there is none. */
  async externalMessage(thread: string, externalId: string): Promise<Message | null> {
    try {
      return await this.#call("get", "/v1/agents/{agent}/threads/{thread}/external/{external_id}", {
        path: { thread, external_id: externalId },
      });
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }

  /** Delete the threads idle for more than `olderThanDays` days (their facts stay); returns how many. */
  async prune(olderThanDays: number): Promise<number> {
    const answer = await this.#call("post", "/v1/agents/{agent}/prune", { body: { older_than_days: olderThanDays } });
    return Number(answer.deleted);
  }

  /** Delete the messages older than `olderThanDays` days, keeping their threads (of one `thread` if given);
   * returns how many. */
  async pruneMessages(olderThanDays: number, options: PruneMessagesOptions = {}): Promise<number> {
    const answer = await this.#call("post", "/v1/agents/{agent}/prune/messages", {
      body: { ...options, older_than_days: olderThanDays },
    });
    return Number(answer.deleted);
  }

  /** Summaries: a thread's rolling ones, the agent's memories, profiles and digests (`kind` narrows). */
  summaries(options: SummariesOptions = {}): Promise<Summary[]> {
    return this.#call("get", "/v1/agents/{agent}/summaries", { query: options });
  }

  // -- context and recall ----------------------------------------------------------------------------

  /** The token-budgeted context for the next model call: `openai_messages` to send as they are. */
  async context(thread: string, options: ContextOptions = {}): Promise<Context> {
    const answer = await this.#call("post", "/v1/agents/{agent}/threads/{thread}/context", {
      path: { thread },
      body: options,
    });
    return answer as unknown as Context;
  }

  /** The memories most relevant to `query`, best first; with `group_by: "thread"`, grouped by thread. */
  recall(query: string, options: RecallOptions & { group_by: "thread" }): Promise<HitGroup[]>;
  recall(query: string, options?: RecallOptions & { group_by?: null }): Promise<Hit[]>;
  recall(query: string, options?: RecallOptions): Promise<Hit[] | HitGroup[]>;
  recall(query: string, options: RecallOptions = {}): Promise<Hit[] | HitGroup[]> {
    return this.#call("post", "/v1/agents/{agent}/recall", { body: { ...options, query } });
  }

  // -- facts -----------------------------------------------------------------------------------------

  /** Remember a fact (about `user`, or the agent's own without one). */
  remember(content: string, options: RememberOptions = {}): Promise<Fact> {
    return this.#call("post", "/v1/agents/{agent}/facts", { body: { ...options, content } });
  }

  /** The facts a user may see: their own, shared ones and the agent's. */
  facts(options: FactsOptions = {}): Promise<Fact[]> {
    return this.#call("get", "/v1/agents/{agent}/facts", { query: options });
  }

  /** One fact (NotFound for another user's private fact). */
  async fact(factId: number): Promise<Fact> {
    return (await this.#call("get", "/v1/agents/{agent}/facts/{fact_id}", { path: { fact_id: factId } })).fact;
  }

  /** A fact's change history, oldest first. */
  async factHistory(factId: number): Promise<FactChange[]> {
    return (await this.#call("get", "/v1/agents/{agent}/facts/{fact_id}", { path: { fact_id: factId } })).history;
  }

  /** Change a fact's content, category, importance, visibility, subject or metadata. */
  updateFact(factId: number, changes: UpdateFactOptions): Promise<Fact> {
    return this.#call("patch", "/v1/agents/{agent}/facts/{fact_id}", { path: { fact_id: factId }, body: changes });
  }

  /** Share a fact with every user of the agent, or make it private again (its owner only). */
  setVisibility(factId: number, visibility: Visibility, options: { user?: string | null } = {}): Promise<Fact> {
    return this.#call("put", "/v1/agents/{agent}/facts/{fact_id}/visibility", {
      path: { fact_id: factId },
      body: { ...options, visibility },
    });
  }

  /** Forget one fact (its owner only; `purge` deletes it outright); returns what it was. */
  forget(factId: number, options: ForgetOptions = {}): Promise<Fact> {
    return this.#call("delete", "/v1/agents/{agent}/facts/{fact_id}", { path: { fact_id: factId }, query: options });
  }

  /** Forget every fact a user owns (or the agent's own); returns how many. */
  async forgetAll(options: ForgetAllOptions = {}): Promise<number> {
    return Number((await this.#call("delete", "/v1/agents/{agent}/facts", { query: options })).forgotten);
  }

  /** Forget the user's facts that say `text` ("forget that I live in Paris"); returns the facts forgotten. */
  forgetMatching(text: string, options: ForgetMatchingOptions = {}): Promise<Fact[]> {
    return this.#call("post", "/v1/agents/{agent}/facts/forget-matching", { body: { ...options, text } });
  }

  // -- users and tokens ------------------------------------------------------------------------------

  /** What memlane keeps about `user`: preferred persona, custom context, interactions. */
  user(user: string): Promise<UserRecord> {
    return this.#call("get", "/v1/agents/{agent}/users/{user}", { path: { user } });
  }

  /** Set a user's persona or custom context: a field left out stays as it is, null clears it. */
  setUser(user: string, changes: SetUserOptions): Promise<UserRecord> {
    return this.#call("patch", "/v1/agents/{agent}/users/{user}", { path: { user }, body: changes });
  }

  /** How many tokens `text` is with the agent's tokenizer. */
  async countTokens(text: string): Promise<number> {
    return Number((await this.#call("post", "/v1/agents/{agent}/tokens", { body: { text } })).tokens);
  }

  /** Wait until the vectors of the writes already made are stored (`timeout` in seconds, at most 30);
   * true when they are. */
  async flush(options: FlushOptions = {}): Promise<boolean> {
    return Boolean((await this.#call("post", "/v1/agents/{agent}/flush", { body: options })).flushed);
  }

  // -- the agent's own memory and bookkeeping (agent or admin keys) ----------------------------------

  /** The agent's memories (summaries of ended conversations), newest first. */
  async memories(options: MemoriesOptions = {}): Promise<MemoryRecord[]> {
    return (await this.#call("get", "/v1/agents/{agent}/memories", { query: options })).memories ?? [];
  }

  /** How many memories the agent keeps at most (the oldest go beyond it). */
  async memoryCap(): Promise<number> {
    return Number((await this.#call("get", "/v1/agents/{agent}/memories", { query: { limit: 1 } })).cap);
  }

  /** Delete one memory; returns how many were deleted (0 or 1). */
  async deleteMemory(memoryId: number): Promise<number> {
    const answer = await this.#call("delete", "/v1/agents/{agent}/memories/{memory_id}", {
      path: { memory_id: memoryId },
    });
    return answer.deletedCount;
  }

  /** Delete every memory of the agent; returns how many. */
  async purgeMemories(): Promise<number> {
    return (await this.#call("delete", "/v1/agents/{agent}/memories")).deletedCount;
  }

  /** What the agent knows about `user` as one text, or null when nothing is known. */
  async profile(user: string): Promise<string | null> {
    const answer = await this.#call("get", "/v1/agents/{agent}/profiles/{user}", { path: { user } });
    return (answer.profile as string | null | undefined) ?? null;
  }

  /** The user's profile with today and the last week merged ("" when nothing is known). */
  async digest(user: string): Promise<string> {
    const answer = await this.#call("get", "/v1/agents/{agent}/digests/{user}", { path: { user } });
    return String(answer.digest ?? "");
  }

  /** The agent's background jobs, newest first (dead letters included). */
  jobs(options: JobsOptions = {}): Promise<Job[]> {
    return this.#call("get", "/v1/agents/{agent}/jobs", { query: options });
  }

  /** Send a dead job back to the queue. */
  retryJob(jobId: number): Promise<Job> {
    return this.#call("post", "/v1/agents/{agent}/jobs/{job_id}/retry", { path: { job_id: jobId } });
  }

  /** LLM usage per operation since a time; `allAgents` (admin key): of every agent. */
  async usage(options: { since?: string | Date; allAgents?: boolean } = {}): Promise<UsageTotals[]> {
    const since = options.since instanceof Date ? options.since.toISOString() : options.since;
    const answer = options.allAgents
      ? await this.#call("get", "/v1/usage", { query: { since } })
      : await this.#call("get", "/v1/agents/{agent}/usage", { query: { since } });
    return answer.usage as UsageTotals[];
  }

  /** LLM calls and tokens per UTC day, the last `days` days, oldest first. */
  usageByDay(days = 14): Promise<UsageDay[]> {
    return this.#call("get", "/v1/agents/{agent}/usage/days", { query: { days } });
  }

  /** The agent's LLM token budget now. */
  async budget(): Promise<BudgetStatus> {
    return (await this.#call("get", "/v1/agents/{agent}/usage")).budget as BudgetStatus;
  }

  /** Backend, schema version and the agent's row counts; `allAgents` (admin key): the whole store. */
  status(options: { allAgents?: boolean } = {}): Promise<StoreStatus> {
    return options.allAgents
      ? this.#call("get", "/v1/db/status")
      : this.#call("get", "/v1/agents/{agent}/status");
  }

  /** Delete the agent: its conversations, facts, profiles and digests (its memories too with `purge`);
   * returns how many of each were deleted. */
  deleteAgent(options: DeleteAgentOptions = {}): Promise<Record<string, number>> {
    return this.#call("delete", "/v1/agents/{agent}", { query: options });
  }

  // -- the store (admin keys), and who a key is ------------------------------------------------------

  /** Who this client's key is: its scope, agent and user (any key; an open server answers admin). */
  async whoami(): Promise<WhoAmI> {
    return (await this.#call("get", "/v1/whoami")) as unknown as WhoAmI;
  }

  /** Every agent with anything stored (admin key). */
  agents(): Promise<string[]> {
    return this.#call("get", "/v1/agents");
  }

  /** Every API key, never the keys themselves; `include_revoked` lists revoked ones too (admin key). */
  apiKeys(options: ApiKeysOptions = {}): Promise<ApiKey[]> {
    return this.#call("get", "/v1/keys", { query: options });
  }

  /** Make an API key (admin key): `"admin"`, `"agent"` (with `agent`) or `"user"` (with `agent` and `user`).
   * The answer holds the key itself, this once only. */
  async createApiKey(scope: KeyScope, options: CreateApiKeyOptions = {}): Promise<NewApiKey> {
    return (await this.#call("post", "/v1/keys", { body: { ...options, scope } })) as unknown as NewApiKey;
  }

  /** Revoke an API key by id (admin key); returns its record, now revoked. */
  revokeApiKey(keyId: number): Promise<ApiKey> {
    return this.#call("delete", "/v1/keys/{key_id}", { path: { key_id: keyId } });
  }

  // -- export and import -----------------------------------------------------------------------------

  /** The agent's records (of some threads only, if given), one object per line of the export. */
  async *exportRecords(options: { threads?: string[] } = {}): AsyncGenerator<Record<string, unknown>> {
    await this.#resolveAgent();
    const response = await this.#http.send({
      method: "GET",
      path: this.#path("/v1/agents/{agent}/export"),
      query: { thread: options.threads },
    });
    if (!response.body) return;
    const decoder = new TextDecoder();
    const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    let pending = "";
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (error) {
        // the timeout (or the network) cut the stream: no records are made up, the export is incomplete
        throw new Unreachable(`the export from ${this.url} stopped before its end: ${String(error)}`, { cause: error });
      }
      if (next.done) break;
      pending += decoder.decode(next.value, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) yield JSON.parse(line) as Record<string, unknown>;
    }
    pending += decoder.decode();
    if (pending.trim()) yield JSON.parse(pending) as Record<string, unknown>;
  }

  /** The agent's export as JSON Lines text (what `memlane export` writes). */
  async export(options: { threads?: string[] } = {}): Promise<string> {
    let text = "";
    for await (const record of this.exportRecords(options)) text += JSON.stringify(record) + "\n";
    return text;
  }

  /** Load an export (JSON Lines text, or its records) into the agent, in one transaction. */
  async import(source: string | Iterable<Record<string, unknown>>, options: ImportOptions = {}): Promise<ImportResult> {
    const text = typeof source === "string" ? source : Array.from(source, (r) => JSON.stringify(r) + "\n").join("");
    await this.#resolveAgent();
    const answer = await this.#http.json({
      method: "POST",
      path: this.#path("/v1/agents/{agent}/import"),
      query: options as Record<string, QueryValue>,
      text,
      contentType: "application/x-ndjson",
    });
    return answer as ImportResult;
  }

  // -- plumbing --------------------------------------------------------------------------------------

  async #call<P extends keyof paths, M extends Method>(
    method: M,
    path: P,
    args: Args<P, M> = {},
  ): Promise<ResultOf<P, M>> {
    if (path.includes("{agent}")) await this.#resolveAgent();
    const answer = await this.#http.json({
      method: method.toUpperCase(),
      path: this.#path(path, args.path as Record<string, unknown> | undefined),
      query: args.query as Record<string, QueryValue> | undefined,
      json: args.body,
    });
    return answer as ResultOf<P, M>;
  }

  /** The agent of the calls: given, or the key's, asked of the server once (`"default"` for an admin key or
   * a server without keys, as the Python client). A failed question is asked again at the next call. */
  async #resolveAgent(): Promise<string> {
    if (this.#agent !== null) return this.#agent;
    this.#asking ??= this.whoami().then(
      (who) => (this.#agent ??= who.agent || "default"),
      (error: unknown) => {
        this.#asking = null;
        throw error;
      },
    );
    return this.#asking;
  }

  /** `template` with `{agent}` (known by now: see {@link #resolveAgent}) and its other parameters filled in,
   * each escaped as one path segment (a thread named `slack/C42` is `slack%2FC42`). */
  #path(template: string, params: Record<string, unknown> = {}): string {
    return template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = name === "agent" ? this.#agent : params[name];
      if (value === undefined || value === null) throw new TypeError(`${template}: no value for {${name}}`);
      return encodeURIComponent(String(value));
    });
  }
}
