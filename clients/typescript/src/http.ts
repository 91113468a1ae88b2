/**
 * Sending one request with the platform's `fetch`: the bearer key, a timeout, retries of 429 answers as
 * long as the server's Retry-After allows, retries of a request the server never answered (or answered 503:
 * its store unreachable) with backoff, and error answers turned into {@link MemlaneError} classes. Every write
 * carries one `Idempotency-Key` over its tries, so a message the server did store before the connection broke
 * is stored once.
 */
import { errorFor, MemlaneError, Unreachable } from "./errors.js";

/** How a {@link Transport} sends requests. */
export interface TransportOptions {
  url: string;
  key?: string | null | undefined;
  /** Milliseconds per attempt before giving up with {@link Unreachable}. */
  timeout: number;
  /** Retries of a 429 answer (0: throw {@link RateLimited} at once), and of a request that got no answer or a
   * 503 (waiting 250 ms, then 500 ms, 1 s ...). */
  maxRetries: number;
  /** The longest wait for one retry, in milliseconds; a longer Retry-After is thrown as {@link RateLimited}. */
  maxRetryDelay: number;
  fetch: typeof fetch;
  headers?: Record<string, string> | undefined;
}

/** Query values: undefined and null are left out, arrays repeat the name, dates are sent as ISO 8601. */
export type QueryValue = string | number | boolean | Date | null | undefined | readonly (string | number)[];

export interface Request {
  method: string;
  /** The path from the server's root, already with its parameters filled in. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** A JSON body (serialized here), or raw text with `contentType`. */
  json?: unknown;
  text?: string | undefined;
  contentType?: string | undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds in a Retry-After header (a number of seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, value instanceof Date ? value.toISOString() : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export class Transport {
  readonly url: string;
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.url = options.url.replace(/\/+$/, "");
    this.#options = options;
  }

  /** The answer to `request` (status < 400), after any retries of 429.
   * @throws {MemlaneError} the class of the server's problem; {@link Unreachable} without an answer. */
  async send(request: Request): Promise<Response> {
    const { key, timeout, maxRetries, maxRetryDelay } = this.#options;
    const headers: Record<string, string> = { accept: "application/json", ...this.#options.headers };
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (request.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(request.json);
    } else if (request.text !== undefined) {
      headers["content-type"] = request.contentType ?? "text/plain";
      body = request.text;
    }
    if (request.method !== "GET") headers["idempotency-key"] = crypto.randomUUID();
    const url = this.url + request.path + queryString(request.query);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.#options.fetch(url, {
          method: request.method,
          headers,
          body,
          signal: AbortSignal.timeout(timeout),
        });
      } catch (error) {
        if (attempt < maxRetries) {
          await sleep(250 * 2 ** attempt);
          continue;
        }
        const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw new Unreachable(`cannot reach the memlane server at ${this.url}: ${why}`, { cause: error });
      }
      if (response.ok) return response;
      const text = await response.text();
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      if (response.status === 503 && attempt < maxRetries) {
        await sleep(250 * 2 ** attempt);
        continue;
      }
      if (response.status === 429 && attempt < maxRetries) {
        const wait = retryAfter === undefined ? 500 * 2 ** attempt : retryAfter * 1000;
        if (wait <= maxRetryDelay) {
          await sleep(wait);
          continue;
        }
      }
      throw errorFor(response.status, text, response.headers, retryAfter);
    }
  }

  /** The JSON of the answer to `request` (undefined for 204 No Content). */
  async json(request: Request): Promise<unknown> {
    const response = await this.send(request);
    if (response.status === 204) return undefined;
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new MemlaneError(`the server's answer to ${request.method} ${request.path} is not JSON`, {
        status: response.status,
        cause: error,
      });
    }
  }
}
