// A real `memlane serve` on a loopback port for the tests, with API keys made by the CLI
// (`memlane --db X keys create ...`), in a throwaway directory.
//
// Python: $MEMLANE_PYTHON, else the repository's .venv/bin/python, else python3. The `memlane` script next
// to it is used when there is one (else `python -m memlane`); the repository's src/ goes first on
// PYTHONPATH, so the server is the one of this checkout. Embeddings are memlane's fake embedder
// (hashed words: instant and deterministic) and no LLM is configured.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

function memlaneCommand() {
  const venv = join(repo, ".venv", "bin", "python");
  const python = process.env.MEMLANE_PYTHON ?? (existsSync(venv) ? venv : "python3");
  const script = join(dirname(python), "memlane");
  return python.includes("/") && existsSync(script) ? [script] : [python, "-m", "memlane"];
}

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/** A store in a fresh directory, and the `memlane` CLI over it. */
export class Store {
  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), "memlane-ts-"));
    this.db = join(this.dir, "test.db");
    this.command = memlaneCommand();
    this.env = {
      ...process.env,
      PYTHONPATH: [join(repo, "src"), process.env.PYTHONPATH].filter(Boolean).join(":"),
      MEMLANE_HOME: this.dir,
      MEMLANE_EMBEDDER: "fake",
      MEMLANE_LLM_PROVIDER: "none",
      MEMLANE_WORKER: "none",
    };
  }

  /** Run `memlane --db <db> ...args` and return its stdout. */
  async cli(...args) {
    const [program, ...head] = this.command;
    const { stdout } = await run(program, [...head, "--db", this.db, ...args], { env: this.env });
    return stdout;
  }

  /** Make an API key with `memlane keys create` (e.g. `"--agent", "bot", "--user", "alice"`). */
  async key(...args) {
    return JSON.parse(await this.cli("--json", "keys", "create", ...args)).key;
  }

  /** Start `memlane serve` on a free loopback port; resolves once /readyz answers 200. */
  async serve(...args) {
    const port = await freePort();
    const [program, ...head] = this.command;
    const proc = spawn(program, [...head, "--db", this.db, "serve", "--port", String(port), "--no-access-log", ...args], {
      env: this.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    proc.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise((done) => proc.once("exit", (code) => done(code)));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`memlane serve exited with ${proc.exitCode}:\n${stderr}`);
      try {
        if ((await fetch(`${url}/readyz`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        proc.kill();
        throw new Error(`memlane serve did not become ready:\n${stderr}`);
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    return {
      url,
      stderr: () => stderr,
      async stop() {
        if (proc.exitCode === null) proc.kill("SIGTERM");
        await exited;
      },
    };
  }

  remove() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
