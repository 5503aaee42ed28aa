// hdr-histogram-js (pinned in package.json), loaded at the first histogram, not at import: it costs
// 32–50 ms of a process's start-up on the project's machine class, and a run without callers never
// uses it. Each host provides it its own way (provideHdr): the command's process requires it when
// asked (cli/main.ts), the audit's forks from the path their parent gives (audit/fork-entry.ts), the
// report page and the package's API import it (report/html/page.ts, index.ts). Without a provider
// (the tests, a module imported on its own) it is required through Node's module builtin, if the
// platform has one.

import type { build, initWebAssemblySync } from "hdr-histogram-js";

/** What traffic/latency.ts uses of the library. */
export interface Hdr {
  build: typeof build;
  initWebAssemblySync: typeof initWebAssemblySync;
}

let provider: (() => Hdr) | undefined;
let lib: Hdr | undefined;

/** Where the library comes from when it is first needed (the last provider set wins). */
export function provideHdr(load: () => Hdr): void {
  provider = load;
}

/** The library, loaded on first use. */
export function hdr(): Hdr {
  lib ??= (provider ?? requireHdr)();
  return lib;
}

interface ModuleBuiltin {
  createRequire(from: string): (id: string) => unknown;
}

/** Node.js 20.16 and later: process.getBuiltinModule("node:module"), without an import of it here. */
function requireHdr(): Hdr {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = proc?.getBuiltinModule?.("node:module") as ModuleBuiltin | undefined;
  if (!mod) throw new Error("hdr-histogram-js was not provided (traffic/hdr.ts, provideHdr)");
  return mod.createRequire(import.meta.url)("hdr-histogram-js") as Hdr;
}
