// `audit merge` takes no figure from a shard it cannot trust: each tampering of a real shard of the
// shop (examples/audit/, power-off, two shards) is refused with one line naming the file and the
// field, exit 2: an edited figure (the digest), a negative, absurd or non-numeric one (the schema),
// a run listed twice and an unknown Service (the request's limits, checked with the digest redone,
// as an editor who knows the format would), a cut-short file, and two shards in one file.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf, shardDigest } from "../../src/audit/shard-check.ts";
import { cli, oneLine } from "../cli/helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-shards-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ARGS = ["examples/audit/", "--faults", "power-off", "--jobs", "1"];
// biome-ignore lint/suspicious/noExplicitAny: a shard edited as freely as a tamperer would
type Json = Record<string, any>;
const files: string[] = [];
const texts: string[] = [];

beforeAll(async () => {
  for (const i of [0, 1]) {
    const r = await cli(["audit", ...ARGS, "--shard", `${i}/2`]);
    expect(r.err).toBe("");
    files.push(join(dir, `shard-${i}.json`));
    texts.push(r.out);
    writeFileSync(files[i]!, r.out);
  }
}, 120_000);

/** Shard 1 changed by `edit` (and its digest redone when `redigest`), merged with shard 0. */
async function merged(name: string, edit: (s: Json) => void, redigest = false) {
  const s = JSON.parse(texts[1]!) as Json;
  edit(s);
  if (redigest) s.digest = shardDigest(s as never);
  const file = join(dir, name);
  writeFileSync(file, `${JSON.stringify(s)}\n`);
  return cli(["audit", "merge", files[0]!, file, "--jobs", "1"]);
}

/** runs[0] of shard 1 is power-off/worker-1: orders-db, its only pod on it, is out 14m50s. */
const ordersDb = (s: Json) => s.runs[0].services["shop/orders-db"];

function refused(r: { code: number; err: string; out: string }, pattern: RegExp) {
  expect(r.code).toBe(2);
  expect(r.out).toBe("");
  expect(oneLine(r.err), r.err).toBe(true);
  expect(r.err).toMatch(pattern);
}

describe("audit merge refuses a shard that does not hold", () => {
  it("merges the shards as written (the 14m50s outage of shop/orders-db in the result)", async () => {
    expect(ordersDb(JSON.parse(texts[1]!)).outage).toBe(890);
    expect(JSON.parse(texts[1]!).digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const r = await cli(["audit", "merge", ...files, "--json", "--jobs", "1"]);
    expect(r.err).toBe("");
    const runs = (JSON.parse(r.out) as Json).runs as Json[];
    expect(runs.find((m) => m.id === "power-off/worker-1")!.services["shop/orders-db"].outage).toBe(890);
  }, 120_000);

  it("an outage edited from 14m50s to 0s: the digest no longer holds", async () => {
    const r = await merged("zero.json", (s) => {
      ordersDb(s).outage = 0;
    });
    refused(r, /zero\.json: digest: the shard's request or runs are not those it was written with/);
  });

  it.each([
    ["-5s", -5, /runs\[0\]\.services\["shop\/orders-db"\]\.outage: must be >= 0/],
    ['"lots"', "lots", /runs\[0\]\.services\["shop\/orders-db"\]\.outage: must be number/],
  ])("an outage of %s: the schema's line", async (_name, value, pattern) => {
    refused(
      await merged("typed.json", (s) => {
        ordersDb(s).outage = value;
      }),
      pattern,
    );
  });

  it("an outage of 1e308: refused by the digest, and by the run's length with the digest redone", async () => {
    const edit = (s: Json) => {
      ordersDb(s).outage = 1e308;
    };
    refused(await merged("huge.json", edit), /huge\.json: digest:/);
    refused(
      await merged("huge.json", edit, true),
      /huge\.json: runs\[0\]\.services\["shop\/orders-db"\]\.outage: 1e\+308s is more than the 890s from the fault to the run's end/,
    );
  });

  it("a run listed twice", async () => {
    const edit = (s: Json) => s.runs.push(structuredClone(s.runs[0]));
    refused(await merged("twice.json", edit), /twice\.json: digest:/);
    refused(
      await merged("twice.json", edit, true),
      /twice\.json: runs\[2\]\.id: run power-off\/worker-1 again \(also runs\[0\]\)/,
    );
  });

  it("a run of the other shard, and a run left out", async () => {
    const other = JSON.parse(texts[0]!).runs[0];
    refused(
      await merged("stray.json", (s) => s.runs.push(other), true),
      /stray\.json: runs\[2\]\.id: run none is not one of shard 1\/2's runs of this request/,
    );
    refused(
      await merged("short.json", (s) => s.runs.pop(), true),
      /short\.json: runs: no run power-off\/worker-3 of shard 1\/2/,
    );
  });

  it("an unknown Service", async () => {
    const edit = (s: Json) => {
      const services = s.runs[0].services;
      services["shop/ghost"] = services["shop/orders-db"];
      delete services["shop/orders-db"];
    };
    refused(await merged("ghost.json", edit), /ghost\.json: digest:/);
    refused(
      await merged("ghost.json", edit, true),
      /ghost\.json: runs\[0\]\.services\["shop\/ghost"\]: shop\/ghost is not one of the request's services/,
    );
  });

  it("a field the format does not have, a figure of a time before the fault, lost over sent", async () => {
    refused(
      await merged("extra.json", (s) => {
        s.runs[0].note = "trust me";
      }),
      /extra\.json: runs\[0\]: unknown field "note"/,
    );
    refused(
      await merged(
        "early.json",
        (s) => {
          s.runs[0].workloads["StatefulSet/shop/orders-db"].firstReplacedAt = 3;
        },
        true,
      ),
      /early\.json: runs\[0\]\.workloads\["StatefulSet\/shop\/orders-db"\]\.firstReplacedAt: t=3s is not between the fault \(10s\) and the run's end \(900s\)/,
    );
    refused(
      await merged("lost.json", (s) => Object.assign(ordersDb(s), { lost: 5, sent: 2 }), true),
      /lost\.json: runs\[0\]\.services\["shop\/orders-db"\]\.lost: 5 requests lost of 2 sent/,
    );
  });

  it("a shard of the format before the digest, or without one", async () => {
    refused(
      await merged("v1.json", (s) => {
        s.version = 1;
        delete s.digest;
      }),
      /v1\.json: shard format version 1; this faultline reads version 2/,
    );
    refused(
      await merged("nodigest.json", (s) => {
        delete s.digest;
      }),
      /nodigest\.json: \(the shard\): missing field "digest"/,
    );
  });

  it("a file cut short, as a pod's log can be", async () => {
    const cut = join(dir, "cut.json");
    const text = texts[1]!.slice(0, 5000);
    writeFileSync(cut, text);
    // Located just after its last character (blanks aside): where the rest is missing.
    const col = text.trimEnd().length + 1;
    const r = await cli(["audit", "merge", files[0]!, cut]);
    refused(r, /the shard ends before its JSON does \(cut short\?\)/);
    expect(r.err).toContain(`cut.json:1:${col}: `);
  });

  it("two shards' lines interleaved in one file", async () => {
    const both = join(dir, "both.json");
    writeFileSync(both, `${texts[1]}${texts[0]}`);
    refused(await cli(["audit", "merge", both]), /both\.json:2:1: more after the shard's JSON/);
    const mixed = join(dir, "mixed.json");
    writeFileSync(mixed, `${texts[1]!.slice(0, 3000)}\n${texts[0]!.slice(3000)}`);
    refused(await cli(["audit", "merge", files[0]!, mixed]), /mixed\.json:1:3001: not JSON/);
    expect(readFileSync(files[1]!, "utf8")).toBe(texts[1]);
  });
});

describe("pathOf", () => {
  it("writes a JSON Pointer as the path a reader types", () => {
    expect(pathOf("")).toBe("(the shard)");
    expect(pathOf("/runs/3/services/shop~1orders-db/outage")).toBe(
      'runs[3].services["shop/orders-db"].outage',
    );
    expect(pathOf("/request/input/cluster/a~0b")).toBe('request.input.cluster["a~b"]');
  });
});
