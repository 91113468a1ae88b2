/**
 * Names for the types of memlane's HTTP API. Each is taken from the generated OpenAPI types
 * (`./generated/openapi.ts`), so a change on the server shows up here at the next `npm run gen`;
 * the few written by hand are marked, and the Python suite checks their fields.
 */
import type { components, paths } from "./generated/openapi.js";

type Schemas = components["schemas"];

export type Thread = Schemas["Thread"];
export type Message = Schemas["Message"];
export type Fact = Schemas["Fact"];
export type FactChange = Schemas["FactChange"];
export type Hit = Schemas["Hit"];
export type HitGroup = Schemas["HitGroup"];
export type Summary = Schemas["Summary"];
export type Job = Schemas["Job"];
export type UsageDay = Schemas["UsageDay"];
export type StoreStatus = Schemas["StoreStatus"];
/** One agent memory: its summary plus the id, content and times of the memories API. */
export type MemoryRecord = Schemas["MemoryOut"];
export type ContextSection = Schemas["SectionOut"];
/** A message to append (addMessages, addToThreads). */
export type MessageInput = Schemas["MessageBody"];
export type Role = MessageInput["role"];
export type Visibility = Schemas["VisibilityBody"]["visibility"];
/** What memlane keeps about one user: preferred persona, custom context, interactions. */
export type UserRecord = Schemas["UserRecord"];
/** An API key as stored (never the key itself). */
export type ApiKey = Schemas["ApiKey"];
export type KeyScope = ApiKey["scope"];

/** A key just made: its record, and the key itself, shown this once. Written by hand: `POST /v1/keys`
 * answers an untyped object. */
export interface NewApiKey {
  record: ApiKey;
  key: string;
}

/** Who a key is (`GET /v1/whoami`): its scope, its agent (null for an admin key) and its user (user keys).
 * Written by hand: the route answers an untyped object. */
export interface WhoAmI {
  scope: KeyScope;
  agent: string | null;
  user: string | null;
}

/** One message of {@link Context.openai_messages}, ready for an OpenAI-style chat completion.
 * Written by hand: the document types these as plain objects. */
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  name?: string;
  tool_calls?: Record<string, unknown>[];
  tool_call_id?: string;
}

/** The context for the next model call: `openai_messages` to send, and what they are made of. */
export type Context = Omit<Schemas["ContextOut"], "openai_messages"> & { openai_messages: ChatMessage[] };

/** What one agent spent on one operation. Written by hand: `GET .../usage` answers an untyped object. */
export interface UsageTotals {
  agent: string;
  operation: string;
  calls: number;
  failures: number;
  prompt_tokens: number;
  completion_tokens: number;
  latency_s: number;
  p95_latency_s: number | null;
}

/** An agent's LLM token budget now (`limit` 0: unlimited). Written by hand, like {@link UsageTotals}. */
export interface BudgetStatus {
  agent: string;
  limit: number;
  spent: number;
  window_s: number;
  reserve: number;
  low: boolean;
  resume_at: string | null;
}

/** What an import did: counts per kind of record. */
export type ImportResult = Record<string, number>;

// -- types of requests, looked up in the generated `paths` -----------------------------------------

export type Method = "get" | "put" | "post" | "delete" | "patch";
/** The operation `method` of `path`, as the document declares it. */
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** Its query parameters. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** Its path parameters other than the agent (which the client fills in). */
export type PathOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { path: infer A } } ? Omit<A, "agent"> : Record<string, never>;
/** Its JSON request body. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
/** Its JSON answer on success (200 or 201), void for 204. */
export type ResultOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: { 200: { content: { "application/json": infer R } } } }
    ? R
    : Operation<P, M> extends { responses: { 201: { content: { "application/json": infer R } } } }
      ? R
      : void;
