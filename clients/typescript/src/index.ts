/**
 * memlane's TypeScript client: long-term memory for LLM chat bots and agents, from `memlane serve`.
 *
 * ```ts
 * import { Memlane, NotFound } from "memlane";
 * ```
 */
export { Memlane } from "./client.js";
export type * from "./client.js";
export {
  Conflict,
  Forbidden,
  InvalidInput,
  MemlaneError,
  NotFound,
  ProviderError,
  RateLimited,
  ServerError,
  StorageError,
  Unauthenticated,
  Unreachable,
} from "./errors.js";
export type { Problem } from "./errors.js";
export type * from "./types.js";
export type { components, operations, paths } from "./generated/openapi.js";
