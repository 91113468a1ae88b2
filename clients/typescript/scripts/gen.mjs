#!/usr/bin/env node
// Regenerate src/generated/openapi.ts from memlane's OpenAPI document.
//
//   npm run gen                                  # dump the document with Python (create_app(...).openapi())
//   npm run gen -- --url http://127.0.0.1:8080   # fetch /openapi.json from a running `memlane serve`
//   npm run gen -- --spec openapi.json           # read a saved document
//   ... --out FILE                               # write elsewhere (the Python suite compares the two)
//
// Python is $MEMLANE_PYTHON, else the repository's .venv/bin/python, else python3 on PATH; the repository's
// src/ goes first on PYTHONPATH, so the document is the one of this checkout.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, "..");
const repo = resolve(pkg, "..", "..");

// Every option that shapes the output is here, so `npm run gen` and the suite's check agree.
// defaultNonNullable is off: a request field with a default (a fact's category, recall's limit) may be left out.
const OPTIONS = { defaultNonNullable: false };
const BANNER = `/**
 * Types of memlane's HTTP API, generated from its OpenAPI document by openapi-typescript.
 * Do not edit: run \`npm run gen\` in clients/typescript (tests/test_ts_client.py checks this file is current).
 */

`;

const DUMP = `
import json, sys, tempfile, os
from memlane import Memory, load_settings
from memlane.server import create_app
with tempfile.TemporaryDirectory() as d:
    with Memory(os.path.join(d, "openapi.db"), settings=load_settings(embedder="none", worker="none"), llm=None) as m:
        sys.stdout.write(json.dumps(create_app(m).openapi()))
`;

export function findPython() {
  if (process.env.MEMLANE_PYTHON) return process.env.MEMLANE_PYTHON;
  const venv = join(repo, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

function fromPython() {
  const env = { ...process.env, PYTHONPATH: [join(repo, "src"), process.env.PYTHONPATH].filter(Boolean).join(":") };
  const out = execFileSync(findPython(), ["-c", DUMP], { env, encoding: "utf8", maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

async function fromServer(url) {
  const response = await fetch(new URL("/openapi.json", url));
  if (!response.ok) throw new Error(`GET ${url}/openapi.json: HTTP ${response.status}`);
  return response.json();
}

/** The TypeScript text of the types of `document` (an OpenAPI object). */
export async function generate(document) {
  return BANNER + astToString(await openapiTS(document, OPTIONS));
}

async function main() {
  const { values } = parseArgs({
    options: { url: { type: "string" }, spec: { type: "string" }, out: { type: "string" } },
  });
  const document = values.spec
    ? JSON.parse(readFileSync(values.spec, "utf8"))
    : values.url
      ? await fromServer(values.url)
      : fromPython();
  const out = values.out ?? join(pkg, "src", "generated", "openapi.ts");
  writeFileSync(out, await generate(document));
  process.stderr.write(`wrote ${out}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
