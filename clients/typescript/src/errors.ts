/**
 * The errors a {@link Memlane} call throws: one class per kind of problem the server answers with
 * (RFC 9457 problem details), the same names as memlane's Python errors.
 *
 * ```text
 * MemlaneError
 *  ├─ InvalidInput       400 malformed JSON · 413 body too large · 422 invalid input
 *  ├─ Unauthenticated    401 missing, unknown, revoked or expired key
 *  ├─ Forbidden          403 the key may not do this
 *  ├─ NotFound           404 (also another user's private fact, so its existence does not leak)
 *  ├─ Conflict           409
 *  ├─ RateLimited        429 still limited after the client's retries (retryAfter: seconds)
 *  └─ ServerError        500 and any other 5xx
 *      ├─ ProviderError  502 the LLM or embedding provider failed
 *      └─ StorageError   503 the store is unavailable
 *          └─ Unreachable    no answer at all: refused, unreachable or timed out
 * ```
 */
import type { components } from "./generated/openapi.js";

/** The body of an error answer (RFC 9457 problem details), as the server documents it. */
export type Problem = components["schemas"]["Problem"];

/** The base of every error a call throws. */
export class MemlaneError extends Error {
  /** The HTTP status, or undefined when no answer came. */
  readonly status: number | undefined;
  /** The problem details the server sent (undefined when the body was not one). */
  readonly problem: Problem | undefined;
  /** The server's id of the request (x-request-id), to find it in the server's log. */
  readonly requestId: string | undefined;

  constructor(message: string, options: { status?: number; problem?: Problem; requestId?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.problem = options.problem;
    this.requestId = options.requestId;
  }
}

/** The request was refused as malformed or invalid (400, 413, 422); `problem.errors` says where. */
export class InvalidInput extends MemlaneError {}
/** No key, or a key the server does not accept (401). */
export class Unauthenticated extends MemlaneError {}
/** The key may not do this (403): e.g. a user key asking for another user's data or an agent-level list. */
export class Forbidden extends MemlaneError {}
/** No such thread, fact, memory or job, or one this key may not see (404). */
export class NotFound extends MemlaneError {}
/** The request conflicts with what is stored (409). */
export class Conflict extends MemlaneError {}
/** The server failed (500, or another 5xx). */
export class ServerError extends MemlaneError {}
/** The LLM or embedding provider behind the server failed (502). */
export class ProviderError extends ServerError {}
/** The store behind the server is unavailable (503). */
export class StorageError extends ServerError {}
/** The server did not answer: connection refused, unreachable, or the client's timeout passed. */
export class Unreachable extends StorageError {}

/** Still rate limited (429) after the client's retries. */
export class RateLimited extends MemlaneError {
  /** Seconds the server asked to wait (its Retry-After), if it said. */
  readonly retryAfter: number | undefined;

  constructor(message: string, options: ConstructorParameters<typeof MemlaneError>[1] & { retryAfter?: number }) {
    super(message, options);
    this.retryAfter = options.retryAfter;
  }
}

type ErrorClass = new (message: string, options: { status?: number; problem?: Problem; requestId?: string }) => MemlaneError;

const BY_STATUS: Record<number, ErrorClass> = {
  400: InvalidInput,
  401: Unauthenticated,
  403: Forbidden,
  404: NotFound,
  409: Conflict,
  413: InvalidInput,
  422: InvalidInput,
  429: RateLimited,
  502: ProviderError,
  503: StorageError,
};

// memlane's problems name their kind in a stable `type`, urn:memlane:problem:<kind> (docs/service.md,
// "Errors"); the kind decides the class, else the status does (a proxy's error page, say).
const PROBLEM_TYPE = "urn:memlane:problem:";
const BY_KIND: Record<string, ErrorClass> = {
  "invalid-input": InvalidInput,
  "malformed-json": InvalidInput,
  "bad-request": InvalidInput,
  "body-too-large": InvalidInput,
  "unsupported-media-type": InvalidInput,
  "host-not-allowed": InvalidInput,
  unauthenticated: Unauthenticated,
  forbidden: Forbidden,
  "cross-origin": Forbidden,
  "not-found": NotFound,
  conflict: Conflict,
  "rate-limited": RateLimited,
  "provider-error": ProviderError,
  "storage-unavailable": StorageError,
  "internal-error": ServerError,
};

function classFor(status: number, type: string | undefined): ErrorClass {
  if (type?.startsWith(PROBLEM_TYPE)) {
    const known = BY_KIND[type.slice(PROBLEM_TYPE.length)];
    if (known) return known;
  }
  return BY_STATUS[status] ?? (status >= 500 ? ServerError : MemlaneError);
}

/** The error for an answer with status >= 400 whose body is `text`. */
export function errorFor(status: number, text: string, headers: Headers, retryAfter?: number): MemlaneError {
  let problem: Problem | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && "status" in parsed) problem = parsed as Problem;
  } catch {
    // not JSON: a proxy's error page, say; the text itself is the detail
  }
  const detail = problem?.detail ?? (text.trim().slice(0, 300) || `HTTP ${status}`);
  const requestId = problem?.request_id ?? headers.get("x-request-id") ?? undefined;
  const Class = classFor(status, problem?.type);
  const message = `${detail} (HTTP ${status})`;
  if (Class === RateLimited) return new RateLimited(message, { status, problem, requestId, retryAfter });
  return new Class(message, { status, problem, requestId });
}
