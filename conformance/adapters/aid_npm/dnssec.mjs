// An opt-in stand-in for what the library's real resolvers do (adapter.mjs --validating-resolver):
// 1.1.1.1 and 8.8.8.8 validate DNSSEC and answer SERVFAIL for a bogus answer. This validator
// lets the loopback forwarder do the same with the step's trust anchors (network.dnssec_anchors,
// DS records): it asks the nameserver again with the DO bit for the RRset and its RRSIGs and for
// the zone's DNSKEYs, checks a DNSKEY against the DS, the DNSKEY RRset's self-signature and the
// answer's signature (algorithms 8, 13, 15; validity against the machine's clock). Positive
// answers only: a negative answer (NXDOMAIN, NODATA) is passed on without proof (no NSEC
// checks). The library itself validates nothing either way.

import crypto from "node:crypto";

const TYPES = { TXT: 16, DNSKEY: 48, RRSIG: 46, DS: 43, CNAME: 5 };

/** `zone. [TTL] [IN] DS keytag alg digesttype HEX` -> {zone, keyTag, alg, digestType, digest}. */
export function parseAnchor(spec) {
  const parts = String(spec).trim().split(/\s+/);
  const zone = parts.shift().toLowerCase().replace(/\.$/, "");
  while (parts.length && parts[0].toUpperCase() !== "DS") parts.shift();
  if (parts.shift()?.toUpperCase() !== "DS" || parts.length < 4) throw new Error(`not a DS record: ${spec}`);
  const [keyTag, alg, digestType, ...hex] = parts;
  return { zone, keyTag: Number(keyTag), alg: Number(alg), digestType: Number(digestType),
    digest: Buffer.from(hex.join(""), "hex") };
}

function readName(buf, offset) {
  const labels = [];
  let i = offset;
  let end = null;
  for (let hops = 0; hops < 64; hops++) {
    const len = buf[i];
    if (len === 0) { i += 1; break; }
    if ((len & 0xc0) === 0xc0) {
      if (end === null) end = i + 2;
      i = ((len & 0x3f) << 8) | buf[i + 1];
      continue;
    }
    labels.push(buf.subarray(i + 1, i + 1 + len).toString("latin1"));
    i += 1 + len;
  }
  return { name: labels.join(".").toLowerCase(), next: end === null ? i : end };
}

/** A DNS message: rcode, flags and every RR of the answer section {name, type, ttl, rdata}. */
export function parseMessage(buf) {
  const qd = buf.readUInt16BE(4);
  const an = buf.readUInt16BE(6);
  let i = 12;
  for (let q = 0; q < qd; q++) i = readName(buf, i).next + 4;
  const answers = [];
  for (let a = 0; a < an; a++) {
    const { name, next } = readName(buf, i);
    const type = buf.readUInt16BE(next);
    const ttl = buf.readUInt32BE(next + 4);
    const len = buf.readUInt16BE(next + 8);
    answers.push({ name, type, ttl, rdata: buf.subarray(next + 10, next + 10 + len) });
    i = next + 10 + len;
  }
  return { rcode: buf[3] & 0x0f, answers };
}

function nameWire(name) {
  const out = [];
  for (const label of name.toLowerCase().split(".").filter(Boolean)) {
    out.push(Buffer.from([label.length]), Buffer.from(label, "latin1"));
  }
  out.push(Buffer.from([0]));
  return Buffer.concat(out);
}

/** A query with EDNS0 and the DO bit set (the library's own has neither). */
export function buildQuery(name, type) {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(crypto.randomInt(0, 65536), 0);
  header.writeUInt16BE(0x0100, 2); // RD
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(1, 10); // one additional: OPT
  const question = Buffer.concat([nameWire(name), Buffer.from([0, type, 0, 1])]);
  const opt = Buffer.from([0, 0, 41, 0x10, 0x00, 0, 0, 0x80, 0x00, 0, 0]); // OPT, 4096, DO
  return Buffer.concat([header, question, opt]);
}

function keyTag(rdata) {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i] : rdata[i] << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

function parseRrsig(rdata) {
  const signer = readName(rdata, 18);
  return { typeCovered: rdata.readUInt16BE(0), alg: rdata[2], labels: rdata[3], originalTtl: rdata.readUInt32BE(4),
    expiration: rdata.readUInt32BE(8), inception: rdata.readUInt32BE(12), keyTag: rdata.readUInt16BE(16),
    signer: signer.name, head: rdata.subarray(0, signer.next), signature: rdata.subarray(signer.next) };
}

function publicKey(alg, key) {
  if (alg === 13) {
    return crypto.createPublicKey({ format: "jwk", key: { kty: "EC", crv: "P-256",
      x: key.subarray(0, 32).toString("base64url"), y: key.subarray(32, 64).toString("base64url") } });
  }
  if (alg === 15) {
    return crypto.createPublicKey({ format: "jwk", key: { kty: "OKP", crv: "Ed25519", x: key.toString("base64url") } });
  }
  if (alg === 8) {
    const long = key[0] === 0;
    const elen = long ? key.readUInt16BE(1) : key[0];
    const start = long ? 3 : 1;
    return crypto.createPublicKey({ format: "jwk", key: { kty: "RSA",
      e: key.subarray(start, start + elen).toString("base64url"), n: key.subarray(start + elen).toString("base64url") } });
  }
  throw new Error(`DNSSEC algorithm ${alg} not supported by the forwarder`);
}

/** Does `sig` (an RRSIG) sign `rrset` (RRs of one name and type) with the DNSKEY rdata `dnskey`? */
function verifies(sig, rrset, dnskey) {
  const now = Math.floor(Date.now() / 1000);
  if (now > sig.expiration || now < sig.inception) return false;
  const owner = nameWire(rrset[0].name);
  const records = rrset.map((rr) => rr.rdata).sort(Buffer.compare).map((rdata) => {
    const fixed = Buffer.alloc(10);
    fixed.writeUInt16BE(rrset[0].type, 0);
    fixed.writeUInt16BE(1, 2);
    fixed.writeUInt32BE(sig.originalTtl, 4);
    fixed.writeUInt16BE(rdata.length, 8);
    return Buffer.concat([owner, fixed, rdata]);
  });
  const data = Buffer.concat([sig.head.subarray(0, 18), nameWire(sig.signer), ...records]);
  const key = publicKey(sig.alg, dnskey.subarray(4));
  if (sig.alg === 13) return crypto.verify("sha256", data, { key, dsaEncoding: "ieee-p1363" }, sig.signature);
  if (sig.alg === 15) return crypto.verify(null, data, key, sig.signature);
  return crypto.verify("sha256", data, key, sig.signature);
}

/** The anchor whose zone holds `name` (the longest), or null. */
export function anchorFor(anchors, name) {
  const n = name.toLowerCase().replace(/\.$/, "");
  return anchors.filter((a) => n === a.zone || n.endsWith(`.${a.zone}`)).sort((a, b) => b.zone.length - a.zone.length)[0] || null;
}

/**
 * Validate the positive answer for (name, type) under `anchor`, asking with `ask(message)`.
 * Returns null when secure (or a negative answer, not checked), else why it is bogus.
 */
export async function bogus(name, type, anchor, ask) {
  const answer = parseMessage(await ask(buildQuery(name, type)));
  const owner = name.toLowerCase().replace(/\.$/, "");
  const rrset = answer.answers.filter((rr) => rr.name === owner && rr.type === type);
  if (answer.rcode !== 0 || rrset.length === 0) return null; // negative: passed on, not proven
  const sigs = answer.answers.filter((rr) => rr.name === owner && rr.type === TYPES.RRSIG)
    .map((rr) => parseRrsig(rr.rdata)).filter((s) => s.typeCovered === type);
  if (sigs.length === 0) return "no RRSIG over the answer in a signed zone";
  const keys = parseMessage(await ask(buildQuery(anchor.zone, TYPES.DNSKEY)));
  const dnskeys = keys.answers.filter((rr) => rr.name === anchor.zone && rr.type === TYPES.DNSKEY);
  const keySigs = keys.answers.filter((rr) => rr.name === anchor.zone && rr.type === TYPES.RRSIG)
    .map((rr) => parseRrsig(rr.rdata)).filter((s) => s.typeCovered === TYPES.DNSKEY);
  const hash = { 1: "sha1", 2: "sha256", 4: "sha384" }[anchor.digestType];
  const trusted = dnskeys.filter((k) => hash && keyTag(k.rdata) === anchor.keyTag && k.rdata[3] === anchor.alg
    && crypto.createHash(hash).update(Buffer.concat([nameWire(anchor.zone), k.rdata])).digest().equals(anchor.digest));
  if (trusted.length === 0) return "no DNSKEY matches the trust anchor";
  const keySetOk = keySigs.some((s) => trusted.some((k) => keyTag(k.rdata) === s.keyTag && verifies(s, dnskeys, k.rdata)));
  if (!keySetOk) return "the DNSKEY RRset's signature fails";
  const ok = sigs.some((s) => dnskeys.some((k) => keyTag(k.rdata) === s.keyTag && s.signer === anchor.zone
    && (() => { try { return verifies(s, rrset, k.rdata); } catch { return false; } })()));
  return ok ? null : "the answer's RRSIG fails (or expired)";
}

/** A SERVFAIL answer to `message`, as a validating resolver gives for a bogus answer. */
export function servfail(message) {
  let i = 12;
  const qd = message.readUInt16BE(4);
  for (let q = 0; q < qd; q++) i = readName(message, i).next + 4;
  const out = Buffer.from(message.subarray(0, i));
  out[2] = 0x80 | (message[2] & 0x79); // QR, opcode and RD kept
  out[3] = 0x80 | 2; // RA, SERVFAIL
  out.writeUInt16BE(0, 6);
  out.writeUInt16BE(0, 8);
  out.writeUInt16BE(0, 10);
  return out;
}
