// ESM loader hooks (module.register): give @agentcommunity/aid, and only it, a `dns-query`
// whose `query` goes to the adapter's loopback DNS-over-HTTPS forwarder (redirect.mjs). The
// installed package files are not touched: the substitution happens at module resolution.

const VIRTUAL = "adck-aid-npm:dns-query";
let libraryURL = null;
let redirectURL = null;

export async function initialize(data) {
  libraryURL = data.libraryURL; // file:///.../node_modules/@agentcommunity/aid/
  redirectURL = data.redirectURL; // file:///.../conformance/adapters/aid_npm/redirect.mjs
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === "dns-query" && context.parentURL && libraryURL && context.parentURL.startsWith(libraryURL)) {
    const real = await nextResolve(specifier, context);
    return { url: `${VIRTUAL}?real=${encodeURIComponent(real.url)}`, format: "module", shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (url.startsWith(`${VIRTUAL}?`)) {
    const real = new URL(url).searchParams.get("real");
    const source = [
      `export * from ${JSON.stringify(real)};`,
      `import * as real from ${JSON.stringify(real)};`,
      `import { wrapQuery } from ${JSON.stringify(redirectURL)};`,
      "export const query = wrapQuery(real);",
      "",
    ].join("\n");
    return { format: "module", source, shortCircuit: true };
  }
  return nextLoad(url, context);
}
