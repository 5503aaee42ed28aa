// `npm run build`, last: compiles the audit's process fork (native/fork.c, a Node-API addon) into
// dist/native/fork.node with the machine's C compiler ($CC, else cc) against Node's own headers
// (<node prefix>/include/node, or npm's `nodedir`). Where there is no compiler, no headers or no
// Linux, it says so and the audit forks its runs from a V8 snapshot instead (src/audit/fork.ts).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../native/fork.c", import.meta.url));
const outDir = fileURLToPath(new URL("../dist/native/", import.meta.url));
const prefix = (process.config.variables as { node_prefix?: string }).node_prefix ?? "";
const headers = [
  join(prefix, "include", "node"),
  process.env.npm_config_nodedir ? join(process.env.npm_config_nodedir, "include", "node") : "",
].find((dir) => dir && existsSync(join(dir, "node_api.h")));

function skip(why: string): void {
  console.log(`audit process fork: not built (${why}); the audit forks its runs from a V8 snapshot`);
}

if (process.platform !== "linux") skip(`${process.platform}, not Linux`);
else if (!headers) skip(`no node_api.h under ${join(prefix, "include", "node")}`);
else {
  mkdirSync(outDir, { recursive: true });
  const cc = process.env.CC ?? "cc";
  const args = ["-O2", "-shared", "-fPIC", "-Wall", `-I${headers}`, "-DNODE_GYP_MODULE_NAME=fork"];
  const made = spawnSync(cc, [...args, "-o", join(outDir, "fork.node"), source], { encoding: "utf8" });
  if (made.error) skip(`${cc}: ${made.error.message}`);
  else if (made.status !== 0) skip(`${cc} failed: ${made.stderr.trim()}`);
  else console.log("audit process fork: dist/native/fork.node");
}
