// What the aid_npm adapter changes around @agentcommunity/aid, and nothing else (README.md).
//
// DNS: the library calls `query(q, {endpoints: ["1.1.1.1", "8.8.8.8"]})` of the `dns-query`
// package (DNS-over-HTTPS to Cloudflare and Google). hooks.mjs substitutes, for the library's
// import only, a module that re-exports dns-query with `query` replaced by wrapQuery(): the
// endpoints the library asked for are recorded and replaced by one loopback DoH endpoint,
// http://127.0.0.1:PORT/dns-query, served by the forwarder below inside this process. The
// forwarder sends the library's DNS message, byte for byte, to the step's nameservers (the
// kit's mock) over UDP, and over TCP when the UDP answer is truncated, and returns the answer as
// DoH. dns-query still encodes the query and decodes the answer: the library's real code path,
// only the endpoint moved. wrapQuery() refuses any endpoint that is not loopback. The forwarder
// validates no DNSSEC unless state.validating (adapter.mjs --validating-resolver, dnssec.mjs).
//
// HTTPS (global fetch: the library's .well-known fallback and PKA handshake): Node's built-in
// undici global dispatcher is replaced by an Agent whose `connect` opens the TCP connection
// where the step's connect_to says, keeps the original name for SNI and the certificate check,
// and trusts exactly the step's CA (ca_file). A name that is neither mapped nor loopback is
// refused, never resolved.
//
// Guard: net.Socket#connect refuses (and records) any TCP connection to a host that is not
// loopback, whoever opens it (http, https, tls, fetch): nothing this process does leaves the
// machine, and the adapter reports what it refused.

import dgram from "node:dgram";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import tls from "node:tls";

import * as dnssec from "./dnssec.mjs";

/** Per-try seconds of the forwarder towards a nameserver (the kit's reference client's). */
export const TRY_TIMEOUT_MS = 2000;

export const state = {
  /** The step in progress: {nameservers, connectTo, caPem, queries, asked, redirected, abort}. */
  step: null,
  /** The loopback DoH forwarder: {server, url}. */
  forwarder: null,
  /** Non-loopback connections the guard refused, over the whole process. */
  refused: [],
  /** --validating-resolver: the forwarder validates DNSSEC with the step's anchors (dnssec.mjs). */
  validating: false,
};

export function isLoopback(host) {
  if (host === undefined || host === null || host === "") return true; // net's default: localhost
  let h = String(host).toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  if (h.startsWith("::ffff:")) h = h.slice(7);
  return net.isIPv4(h) && h.startsWith("127.");
}

// ---------------------------------------------------------------- the guard

let guarded = false;

/** Refuse every TCP connection to a host that is not loopback (recorded in state.refused). */
export function installGuard() {
  if (guarded) return;
  guarded = true;
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    let first = args[0];
    if (Array.isArray(first)) first = first[0]; // net's internal normalized [options, cb]
    let host;
    let pipe = false;
    if (first !== null && typeof first === "object") {
      host = first.host;
      pipe = typeof first.path === "string" && first.path !== "";
    } else if (typeof first === "string" && !/^\d+$/.test(first)) {
      pipe = true; // a Unix socket path
    } else {
      host = typeof args[1] === "string" ? args[1] : undefined;
    }
    if (!pipe && !isLoopback(host)) {
      const port = first !== null && typeof first === "object" ? first.port : first;
      const what = `${host}:${port}`;
      state.refused.push(what);
      const error = Object.assign(new Error(`adck aid_npm guard: refused a connection to ${what} (not loopback)`),
        { code: "EADCKREFUSED" });
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return original.apply(this, args);
  };
}

// ---------------------------------------------------------------- DNS wire helpers

function questionOf(buf) {
  try {
    let i = 12;
    const labels = [];
    while (buf[i] !== 0) {
      const len = buf[i];
      labels.push(buf.subarray(i + 1, i + 1 + len).toString("latin1"));
      i += len + 1;
    }
    const type = buf.readUInt16BE(i + 1);
    const names = { 1: "A", 16: "TXT", 28: "AAAA", 64: "SVCB", 65: "HTTPS", 43: "DS", 48: "DNSKEY" };
    return { name: labels.join("."), type: names[type] || String(type), code: type };
  } catch {
    return { name: "?", type: "?", code: 0 };
  }
}

const RCODES = ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"];

function udpAsk(message, host, port) {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(host) ? "udp6" : "udp4");
    const timer = setTimeout(() => finish(new Error(`no answer in ${TRY_TIMEOUT_MS} ms`)), TRY_TIMEOUT_MS);
    const step = state.step;
    const onAbort = () => finish(new Error("step ended"));
    step?.abort.signal.addEventListener("abort", onAbort);
    function finish(error, answer) {
      clearTimeout(timer);
      step?.abort.signal.removeEventListener("abort", onAbort);
      try { socket.close(); } catch { /* closed */ }
      if (error) reject(error); else resolve(answer);
    }
    socket.on("error", (error) => finish(error));
    socket.on("message", (answer) => {
      if (answer.length >= 2 && answer.readUInt16BE(0) === message.readUInt16BE(0)) finish(null, answer);
    });
    socket.send(message, port, host);
  });
}

function tcpAsk(message, host, port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const chunks = [];
    const timer = setTimeout(() => finish(new Error(`no TCP answer in ${TRY_TIMEOUT_MS} ms`)), TRY_TIMEOUT_MS);
    function finish(error, answer) {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error); else resolve(answer);
    }
    socket.on("error", (error) => finish(error));
    socket.on("connect", () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length);
      socket.write(Buffer.concat([length, message]));
    });
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      if (all.length >= 2 && all.length >= 2 + all.readUInt16BE(0)) finish(null, all.subarray(2, 2 + all.readUInt16BE(0)));
    });
    socket.on("end", () => finish(new Error("TCP connection closed before a whole answer")));
  });
}

/** One nameserver: UDP, then TCP when the answer is truncated; [answer, transport]. */
async function askServer(message, host, port) {
  const answer = await udpAsk(message, host, port);
  if (answer.length > 2 && (answer[2] & 0x02)) return [await tcpAsk(message, host, port), "udp+tcp"];
  return [answer, "udp"];
}

/** Ask the step's nameservers, in order; with --validating-resolver, SERVFAIL a bogus answer. */
async function forward(message, step) {
  const errors = [];
  for (const [host, port] of step.nameservers) {
    const question = questionOf(message);
    const entry = { ...question, upstream: `${host}:${port}`, transport: "udp", rcode: null };
    step.queries.push(entry);
    let answer;
    try {
      [answer, entry.transport] = await askServer(message, host, port);
      entry.rcode = RCODES[answer[3] & 0x0f] || String(answer[3] & 0x0f);
    } catch (error) {
      entry.rcode = `no answer (${error.message})`;
      errors.push(`${host}:${port}: ${error.message}`);
      continue;
    }
    const anchor = state.validating ? dnssec.anchorFor(step.anchors, question.name) : null;
    if (anchor) {
      let why;
      try {
        why = await dnssec.bogus(question.name, question.code, anchor, async (m) => (await askServer(m, host, port))[0]);
      } catch (error) {
        why = `validation failed: ${error.message}`;
      }
      entry.dnssec = why ? "bogus" : "secure-or-negative";
      if (why) {
        entry.rcode = `SERVFAIL (the forwarder's DNSSEC validation: ${why})`;
        return dnssec.servfail(message);
      }
    }
    return answer;
  }
  throw new Error(errors.join("; ") || "no nameserver given");
}

/** Start the loopback DoH forwarder (RFC 8484 GET ?dns= and POST application/dns-message). */
export function startForwarder() {
  if (state.forwarder) return Promise.resolve(state.forwarder);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url, "http://127.0.0.1");
      const step = state.step;
      let message;
      if (req.method === "GET" && url.searchParams.has("dns")) message = Buffer.from(url.searchParams.get("dns"), "base64url");
      else if (req.method === "POST") message = Buffer.concat(chunks);
      if (url.pathname !== "/dns-query" || !message || message.length < 12) {
        res.writeHead(400).end();
        return;
      }
      if (!step) {
        res.writeHead(503).end();
        return;
      }
      try {
        const answer = await forward(message, step);
        res.writeHead(200, { "content-type": "application/dns-message", "content-length": answer.length });
        res.end(answer);
      } catch (error) {
        res.writeHead(504, { "content-type": "text/plain" }).end(String(error.message));
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      state.forwarder = { server, url: `http://127.0.0.1:${server.address().port}/dns-query` };
      resolve(state.forwarder);
    });
  });
}

/** dns-query's `query`, with the endpoints replaced by the loopback forwarder (hooks.mjs). */
export function wrapQuery(real) {
  return function query(q, opts = {}) {
    const step = state.step;
    return Promise.resolve(opts.endpoints).then((asked) => {
      if (!step || !state.forwarder) throw new Error("adck aid_npm: a DNS query outside a step; refused");
      for (const e of Array.isArray(asked) ? asked : [asked]) step.asked.add(String(e));
      const endpoints = [state.forwarder.url];
      for (const e of endpoints) {
        const endpoint = real.toEndpoint(e);
        const host = endpoint.ipv4 || endpoint.ipv6 || endpoint.host;
        if (!isLoopback(host)) throw new Error(`adck aid_npm: refused the DNS endpoint ${endpoint} (not loopback)`);
      }
      step.redirected += 1;
      const signal = opts.signal ? AbortSignal.any([opts.signal, step.abort.signal]) : step.abort.signal;
      return real.query(q, { ...opts, endpoints, signal });
    });
  };
}

// ---------------------------------------------------------------- HTTPS: connect_to and the CA

/** `HOST1:PORT1:HOST2:PORT2` (curl's --connect-to; IPv6 in brackets). */
export function parseConnectTo(spec) {
  const m = /^(\[[^\]]*\]|[^:]*):(\d*):(\[[^\]]*\]|[^:]*):(\d*)$/.exec(spec);
  if (!m) return null;
  const unbracket = (h) => (h.startsWith("[") ? h.slice(1, -1) : h);
  return { host: unbracket(m[1]).toLowerCase(), port: m[2], toHost: unbracket(m[3]), toPort: m[4] };
}

export function mapConnect(mappings, host, port) {
  const h = String(host).toLowerCase().replace(/^\[|\]$/g, "");
  for (const m of mappings) {
    if ((m.host === "" || m.host === h) && (m.port === "" || Number(m.port) === Number(port))) {
      return [m.toHost || h, Number(m.toPort || port)];
    }
  }
  return null;
}

function connectMapped(opts, callback) {
  const step = state.step;
  const host = opts.hostname;
  const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
  const target = mapConnect(step ? step.connectTo : [], host, port);
  if (!target && !isLoopback(host)) {
    state.refused.push(`${host}:${port}`);
    callback(Object.assign(new Error(`adck aid_npm: refused ${host}:${port}: not in the step's connect_to`),
      { code: "EADCKREFUSED" }));
    return;
  }
  const [toHost, toPort] = target || [host, port];
  let socket;
  let done = false;
  const finish = (error) => {
    if (done) return;
    done = true;
    if (error) { socket.destroy(); callback(error); } else callback(null, socket);
  };
  if (opts.protocol === "https:") {
    const name = String(host).replace(/^\[|\]$/g, "");
    socket = tls.connect({
      host: toHost, port: toPort, servername: net.isIP(name) ? undefined : name,
      ca: step && step.caPem ? [step.caPem] : undefined, rejectUnauthorized: true, ALPNProtocols: ["http/1.1"],
      checkServerIdentity: (_, cert) => tls.checkServerIdentity(name, cert),
    });
    socket.once("secureConnect", () => finish());
  } else {
    socket = net.connect({ host: toHost, port: toPort });
    socket.once("connect", () => finish());
  }
  socket.once("error", (error) => finish(error));
}

let Agent = null;
const DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/** Replace fetch's global dispatcher by one that follows the step's network. */
export async function installFetchDispatcher() {
  if (!Agent) {
    await fetch("data:,"); // loads Node's bundled undici, which installs its global Agent
    Agent = globalThis[DISPATCHER].constructor;
  }
  const previous = globalThis[DISPATCHER];
  globalThis[DISPATCHER] = new Agent({ connect: connectMapped });
  if (previous && typeof previous.destroy === "function") previous.destroy().catch(() => {});
}

// ---------------------------------------------------------------- steps

export function beginStep(network) {
  const nameservers = (network.nameservers || []).map((spec) => {
    const text = String(spec).trim();
    let m = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
    if (m) return [m[1], Number(m[2] || 53)];
    m = /^([^:]+)(?::(\d+))?$/.exec(text);
    if (m) return [m[1], Number(m[2] || 53)];
    return [text, 53];
  });
  let caPem = network.ca_pem || null;
  if (network.ca_file) caPem = fs.readFileSync(network.ca_file, "utf8");
  state.step = {
    nameservers: nameservers.filter(([h]) => isLoopback(h)),
    ignored: nameservers.filter(([h]) => !isLoopback(h)).map(([h, p]) => `${h}:${p}`),
    connectTo: (network.connect_to || []).map(parseConnectTo).filter(Boolean),
    anchors: (network.dnssec_anchors || []).map(dnssec.parseAnchor),
    caPem, queries: [], asked: new Set(), redirected: 0, refusedBefore: state.refused.length,
    abort: new AbortController(),
  };
  return state.step;
}

export function endStep(step) {
  step.abort.abort();
  if (state.step === step) state.step = null;
}

/** One line of evidence for the report: what the library asked and where it went. */
export function evidence(step) {
  const asked = [...step.asked].join(", ") || "none";
  const queries = step.queries.map((q) => `${q.type} ${q.name} -> ${q.upstream} ${q.transport} ${q.rcode ?? "pending"}`
    + (q.dnssec ? ` dnssec ${q.dnssec}` : ""));
  const refused = state.refused.slice(step.refusedBefore);
  return `adck aid_npm: dns-query endpoints asked by the library: [${asked}], replaced by `
    + `${state.forwarder ? state.forwarder.url : "-"} (${step.redirected} queries); forwarded `
    + `${step.queries.length}: [${queries.join("; ")}]`
    + (step.ignored.length ? `; non-loopback nameservers ignored: [${step.ignored.join(", ")}]` : "")
    + `; non-loopback connections refused: [${refused.join(", ")}]`;
}
