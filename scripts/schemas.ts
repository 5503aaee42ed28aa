// Writes the JSON Schemas of the scenario file and of every JSON output (schemas/*.schema.json,
// shipped in the package) from their TypeScript types, with ts-json-schema-generator:
// `npm run schemas`. test/contracts/schemas.test.ts checks that the committed schemas are these.
//   node --import tsx scripts/schemas.ts          write them
//   node --import tsx scripts/schemas.ts --check  exit 1 if one differs

import { readFileSync, writeFileSync } from "node:fs";
import { createGenerator } from "ts-json-schema-generator";

/** Each schema: its file, its root type and the source file declaring it. */
export const SCHEMAS = [
  { file: "scenario", type: "ScenarioFile", path: "src/scenario/file.ts", title: "faultline scenario file" },
  { file: "simulate", type: "SimulateJson", path: "src/report/json.ts", title: "faultline simulate --json" },
  { file: "audit", type: "AuditJson", path: "src/audit/types.ts", title: "faultline audit --json" },
  { file: "probes", type: "ProbesJson", path: "src/cli/probes.ts", title: "faultline probes --json" },
  {
    file: "vary",
    type: "VaryJson",
    path: "src/whatif/variants.ts",
    title: "faultline simulate --vary --json",
  },
  { file: "shard", type: "ShardOutput", path: "src/audit/shard.ts", title: "faultline audit --shard I/N" },
] as const;

const BASE = "https://unpkg.com/faultline/schemas/";

export function schemaText(s: (typeof SCHEMAS)[number]): string {
  const schema = createGenerator({
    path: s.path,
    type: s.type,
    tsconfig: "scripts/schemas.tsconfig.json",
    skipTypeCheck: true,
    additionalProperties: false,
    sortProps: true,
    topRef: false,
    expose: "export",
    jsDoc: "extended",
  }).createSchema(s.type);
  const out = { ...schema, $id: `${BASE}${s.file}.schema.json`, title: s.title };
  return `${JSON.stringify(out, null, 2)}\n`;
}

if (process.argv[1]?.endsWith("schemas.ts")) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const s of SCHEMAS) {
    const file = `schemas/${s.file}.schema.json`;
    const text = schemaText(s);
    let old = "";
    try {
      old = readFileSync(file, "utf8");
    } catch {
      // a new schema
    }
    if (old === text) continue;
    stale++;
    if (check) console.error(`${file} is not up to date: run npm run schemas`);
    else writeFileSync(file, text);
  }
  if (check && stale > 0) process.exit(1);
}
