// faultline's version, from package.json (two levels up from src/cli/ or dist/cli/).

import { createRequire } from "node:module";

export function packageVersion(): string {
  const pkg = createRequire(import.meta.url)("../../package.json") as { version: string };
  return pkg.version;
}
