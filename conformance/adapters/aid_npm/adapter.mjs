// @agentcommunity/aid (npm), the AID client library of the AID authors, behind the harness
// protocol adck-harness/1 (docs/harness-protocol.md), for the AID client role.
//
//   adck run aid --role client --target "cmd:node conformance/adapters/aid_npm/adapter.mjs --prefix DIR"
//
// DIR is an npm prefix holding node_modules/@agentcommunity/aid (python -m
// conformance.adapters.aid_npm --install installs the pinned version there). Without --prefix:
// $ADCK_AID_NPM_PREFIX, else $ADCK_NPM_CACHE/agentcommunity-aid-VERSION, else
// ~/.cache/adck/npm/agentcommunity-aid-VERSION. --fallback (with --revision v1.2 or v2.1) switches the library's .well-known
// fallback on (off by default: AID v1 has none). --validating-resolver makes the loopback
// forwarder validate DNSSEC with the step's trust anchors and answer SERVFAIL for a bogus
// answer, as the library's real resolvers (1.1.1.1, 8.8.8.8) do (off by default: the library
// validates nothing itself). --revision v1|v1.2|v2.1 says which AID revision the kit judges
// (the kit does not tell an adapter; default v1): under v1.2 and v2.1 the hello claims aid.v1.2
// and aid.pka (the library reads aid1 records with short keys and runs v1.1's aid1 handshake
// itself when a record holds pka/k), aid.well-known with --fallback (never under v1), and the
// protocols it accepts at a uri of their own kind (zeroconf:, wss://) too, local left out; a
// reply's connect.record holds the version, the trust source and the PKA state, and only
// ERR_NO_RECORD is "none". What the adapter changes around the library: README.md, redirect.mjs.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { register } from "node:module";
import { pathToFileURL } from "node:url";

import * as redirect from "./redirect.mjs";

const PROTOCOL = "adck-harness/1";
const PACKAGE = "@agentcommunity/aid";
const PINNED = "1.1.0";
const HOMEPAGE = "https://aid.agentcommunity.org";
/** The library's discover() timeout, ms: the kit's reference client's lifetime of a lookup. */
const LIFETIME_MS = 5000;
/** Error codes meaning "this domain has no usable AID record" (outcome none, AID v1 2.5). */
const NO_RECORD = new Set(["ERR_NO_RECORD", "ERR_INVALID_TXT"]);
/** Under v1.2 and v2.1 every failure has its code: only a missing record is "none". */
const NO_RECORD_LATER = new Set(["ERR_NO_RECORD"]);
const REVISIONS = ["v1", "v1.2", "v2.1"];
/** Uris of their own kind for the tokens the library ties to one. */
const OWN_URIS = ["zeroconf:_mcp._tcp", "wss://agent.example/"];

// stdout carries the protocol only: anything the library logs goes to stderr
console.log = console.info = console.debug = (...args) => console.error(...args);

function usage(message) {
  process.stderr.write(`adck aid_npm adapter: ${message}\n`
    + "usage: node adapter.mjs [--prefix NPM_PREFIX] [--revision v1|v1.2|v2.1] [--fallback] [--validating-resolver]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const args = { prefix: null, fallback: false, validating: false, revision: "v1" };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--prefix" && i + 1 < argv.length) args.prefix = argv[++i];
    else if (argv[i].startsWith("--prefix=")) args.prefix = argv[i].slice(9);
    else if (argv[i] === "--fallback") args.fallback = true;
    else if (argv[i] === "--revision" && i + 1 < argv.length) args.revision = argv[++i];
    else if (argv[i].startsWith("--revision=")) args.revision = argv[i].slice(11);
    else if (argv[i] === "--validating-resolver") args.validating = true;
    else usage(`unknown argument ${JSON.stringify(argv[i])}`);
  }
  if (!REVISIONS.includes(args.revision)) usage(`unknown revision ${JSON.stringify(args.revision)}`);
  if (args.fallback && args.revision === "v1") usage("AID v1 has no .well-known fallback: --fallback needs --revision v1.2 or v2.1");
  if (!args.prefix) {
    const cache = process.env.ADCK_NPM_CACHE || path.join(os.homedir(), ".cache", "adck", "npm");
    args.prefix = process.env.ADCK_AID_NPM_PREFIX || path.join(cache, `agentcommunity-aid-${PINNED}`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const later = args.revision !== "v1";
const packageDir = path.resolve(args.prefix, "node_modules", ...PACKAGE.split("/"));
let version;
try {
  version = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")).version;
} catch (error) {
  process.stderr.write(`adck: the aid_npm adapter drives the npm package ${PACKAGE}, not installed under `
    + `${args.prefix} (${error.code || error.message}); install it with: `
    + `python -m conformance.adapters.aid_npm --install --prefix ${args.prefix}  `
    + `(or npm install --prefix ${args.prefix} --no-audit --no-fund ${PACKAGE}@${PINNED})\n`);
  process.exit(2);
}

register("./hooks.mjs", import.meta.url, {
  data: { libraryURL: pathToFileURL(packageDir + path.sep).href, redirectURL: new URL("./redirect.mjs", import.meta.url).href },
});
redirect.installGuard();
redirect.state.validating = args.validating;
await redirect.startForwarder();
await redirect.installFetchDispatcher();
const lib = await import(pathToFileURL(path.join(packageDir, "dist", "index.js")).href);

/** The proto tokens the library knows that it accepts at an https:// uri (AID v1's only kind);
 * under later revisions also at a uri of their own kind, less local (the adapter runs nothing). */
function protocols() {
  const uris = ["https://agent.example/", ...(later ? OWN_URIS : [])];
  return Object.keys(lib.PROTOCOL_TOKENS).filter((token) => !(later && token === "local") && uris.some((uri) => {
    try {
      lib.parse(`v=aid1;uri=${uri};proto=${token}`);
      return true;
    } catch {
      return false;
    }
  }));
}

/** What the hello claims (harness features): nothing under v1. */
function features() {
  if (!later) return []; // no manifests (aid.manifest), no local execution (aid.local); v1 has no PKA
  return ["aid.v1.2", "aid.pka", ...(args.fallback ? ["aid.well-known"] : [])];
}

/** What the adapter switched, in one line (the hello's description, the stderr banner). */
function description() {
  return [`judged as AID ${args.revision}`,
    "DNS: dns-query's fixed DoH endpoints replaced by the adapter's loopback forwarder to the step's nameservers"
      + (args.validating ? " (validating DNSSEC with the step's anchors)" : " (no DNSSEC validation)"),
    `.well-known fallback ${args.fallback ? "on" : "off"} (the library's default: on${later ? "" : "; v1 has none"})`,
    "HTTPS (PKA, fallback): undici global dispatcher connecting per connect_to, trusting exactly ca_file; "
      + "other non-loopback connections refused"].join("; ");
}

/** connect.record (v1.2, v2.1): the version and details the library returns, the trust source
 * (its queryName: _agent.<domain> from DNS, the https URL of the fallback), the PKA state (the
 * library returns none: it throws ERR_SECURITY on a failed handshake, so a returned record with
 * pka was verified; aid1 has no domain binding). */
function recordOf(found) {
  const record = found.record;
  const fromDns = String(found.queryName || "").startsWith("_agent.");
  const keyed = Boolean(record.pka);
  const out = { version: record.v, trust_source: fromDns ? "dns" : "well-known-tls",
    pka: keyed ? { performed: true, verified: true } : { performed: false } };
  for (const key of ["auth", "desc", "docs", "dep"]) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

function hello() {
  return {
    type: "hello", protocol: PROTOCOL,
    client: { name: PACKAGE, version, language: `javascript (node ${process.versions.node})`, homepage: HOMEPAGE },
    operations: ["aid.discover"],
    features: features(),
    protocols: protocols(),
    // what the adapter switched (the hello's optional description, never judged)
    description: description(),
    // the library's DoH query goes to the adapter's loopback forwarder, which asks the kit's
    // nameserver on its behalf (the hello's optional `dns`; a kit without it ignores it)
    dns: {
      asked_by: "adapter", adapter: "conformance/adapters/aid_npm/adapter.mjs", client_transport: "http",
      how: "the library's fixed DoH endpoints 1.1.1.1, 8.8.8.8 replaced by the adapter's loopback DoH forwarder "
        + "(ESM loader hook on dns-query), which sends the library's query as it is, UDP then TCP on truncation; "
        + (args.validating ? "the forwarder validates DNSSEC with the step's anchors" : "no DNSSEC validation"),
    },
  };
}

function reply(id, outcome, { errorKind = null, messages = [], connect = null } = {}) {
  const out = { type: "result", id, outcome, error_kind: errorKind, prompts: [], warnings: [], messages };
  if (connect) out.connect = connect;
  return out;
}

async function runStep(message) {
  const { id, params } = message;
  if (message.operation !== "aid.discover") {
    return reply(id, "error", { errorKind: "unsupported-operation", messages: [`not offered: ${message.operation}`] });
  }
  let step;
  try {
    step = redirect.beginStep(params.network || {});
  } catch (error) {
    return reply(id, "error", { errorKind: "unhandled", messages: [`adapter: ${error.message}`] });
  }
  await redirect.installFetchDispatcher(); // fresh connections for each step's network
  try {
    // the step's protocol, when it names one (AID v1.2 2.4: the application's request)
    const asked = params.protocol ? { protocol: params.protocol } : {};
    const found = await lib.discover(params.domain, { wellKnownFallback: args.fallback, timeout: LIFETIME_MS, ...asked });
    const record = found.record;
    const first = String(record.proto || "").split(",").map((p) => p.trim()).filter(Boolean)[0] || null;
    const connect = { uri: String(record.uri), protocol: first, implementation: null, headers: {}, query: {} };
    if (later) connect.record = recordOf(found);
    return reply(id, "connect", {
      connect,
      messages: [`discover returned ${JSON.stringify(record)} (ttl ${found.ttl}, from ${found.queryName})`,
        redirect.evidence(step)],
    });
  } catch (error) {
    if (error instanceof lib.AidError) {
      const code = String(error.errorCode || "AidError");
      return reply(id, (later ? NO_RECORD_LATER : NO_RECORD).has(code) ? "none" : "error",
        { errorKind: code, messages: [String(error.message), redirect.evidence(step)] });
    }
    return reply(id, "error", {
      errorKind: "unhandled",
      messages: [`${error && error.name}: ${error && error.message}`, redirect.evidence(step)],
    });
  } finally {
    redirect.endStep(step);
  }
}

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

process.stderr.write(`adck aid_npm: ${PACKAGE}@${version} from ${packageDir}; dns-query redirected to `
  + `${redirect.state.forwarder.url}${args.validating ? " (validating DNSSEC with the step's anchors)" : " (no DNSSEC validation)"}; `
  + `.well-known fallback ${args.fallback ? "on" : "off"}; judged as AID ${args.revision}\n`);

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of input) {
  if (!line.trim()) continue;
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    process.stderr.write(`adck aid_npm: not JSON: ${line.slice(0, 200)}\n`);
    continue;
  }
  if (message.type === "hello") {
    if (message.protocol !== PROTOCOL) {
      process.stderr.write(`adck aid_npm: the kit speaks ${message.protocol}, this adapter ${PROTOCOL}\n`);
      process.exit(2);
    }
    send(hello());
  } else if (message.type === "stop") {
    break;
  } else if (message.type === "run") {
    send(await runStep(message));
  } else {
    process.stderr.write(`adck aid_npm: unknown message type ${JSON.stringify(message.type)}\n`);
  }
}
process.exit(0);
