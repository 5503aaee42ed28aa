// Fuzzing `faultline simulate --cluster` over mutated cluster dumps: a small dump as kubectl prints
// it (Nodes with conditions, pod CIDRs and Leases, a Deployment, its ReplicaSet and pods with owner
// references and restart counts, a Service) has values changed to what broke readers before, keys
// deleted, duplicated or added, and its text cut, spliced, given a byte order mark, a repeated key
// or thousands of levels of nesting; then it is run through main(argv, io) with a small budget.
// Whatever the dump, the command ends with exit 0, or exit 2 and one located line; never an
// internal error, an uncaught exception, a stack trace or a hang. A fixed seed keeps it reproducible.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { cli } from "../cli/helpers.ts";

/** FAULTLINE_FUZZ_SEED and FAULTLINE_FUZZ_RUNS fuzz deeper by hand (FAULTLINE_FUZZ_LOG=1 prints each refusal). */
const SEED = Number(process.env.FAULTLINE_FUZZ_SEED ?? 30);
const RUNS = Number(process.env.FAULTLINE_FUZZ_RUNS ?? 120);
const BUDGET = ["--max-events", "30000", "--max-requests", "200000"];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const T = "2024-11-02T10:00:00Z";
const node = (i: number): Json => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: {
    name: `n${i}`,
    uid: `node-${i}`,
    creationTimestamp: "2024-10-01T00:00:00Z",
    labels: { "kubernetes.io/hostname": `n${i}`, "topology.kubernetes.io/zone": `z${i % 2}` },
  },
  spec: { podCIDR: `10.244.${i}.0/24`, podCIDRs: [`10.244.${i}.0/24`] },
  status: {
    capacity: { cpu: "4", memory: "16Gi", pods: "110" },
    allocatable: { cpu: "3920m", memory: "15Gi", pods: "110" },
    conditions: [
      { type: "MemoryPressure", status: "False", lastHeartbeatTime: T },
      {
        type: "Ready",
        status: i === 2 ? "Unknown" : "True",
        reason: i === 2 ? "NodeStatusUnknown" : "KubeletReady",
        lastHeartbeatTime: i === 2 ? "2024-11-02T09:58:00Z" : T,
        lastTransitionTime: "2024-10-01T00:00:00Z",
      },
    ],
    nodeInfo: { kubeletVersion: "v1.31.4" },
  },
});
const lease = (i: number): Json => ({
  apiVersion: "coordination.k8s.io/v1",
  kind: "Lease",
  metadata: { name: `n${i}`, namespace: "kube-node-lease" },
  spec: { holderIdentity: `n${i}`, leaseDurationSeconds: 40, renewTime: `2024-11-02T10:00:0${i}.000000Z` },
});
const labels = { app: "web", "pod-template-hash": "7d9f8b6c5" };
const template = {
  metadata: { labels },
  spec: {
    containers: [
      {
        name: "web",
        image: "nginx:1.27",
        ports: [{ containerPort: 8080 }],
        resources: { requests: { cpu: "100m", memory: "128Mi" } },
        readinessProbe: { httpGet: { path: "/", port: 8080 }, periodSeconds: 5 },
      },
    ],
  },
};
const pod = (i: number): Json => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    name: `web-7d9f8b6c5-p${i}`,
    namespace: "shop",
    uid: `pod-${i}`,
    creationTimestamp: "2024-10-02T00:00:00Z",
    labels,
    ownerReferences: [
      { apiVersion: "apps/v1", kind: "ReplicaSet", name: "web-7d9f8b6c5", uid: "rs-1", controller: true },
    ],
  },
  spec: { ...template.spec, nodeName: `n${i % 3}` },
  status: {
    phase: "Running",
    podIP: `10.244.${i % 3}.${10 + i}`,
    conditions: [{ type: "PodScheduled", status: "True" }],
    containerStatuses: [{ name: "web", ready: true, restartCount: i, started: true }],
  },
});
const DUMP: Json = {
  apiVersion: "v1",
  items: [
    node(0),
    node(1),
    node(2),
    lease(0),
    lease(1),
    lease(2),
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "shop", uid: "deploy-1" },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "web" } },
        template: { ...template, metadata: { labels: { app: "web" } } },
      },
    },
    {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: {
        name: "web-7d9f8b6c5",
        namespace: "shop",
        uid: "rs-1",
        ownerReferences: [
          { apiVersion: "apps/v1", kind: "Deployment", name: "web", uid: "deploy-1", controller: true },
        ],
      },
      spec: { replicas: 3, selector: { matchLabels: labels }, template },
    },
    pod(0),
    pod(1),
    pod(2),
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web", namespace: "shop" },
      spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }] },
    },
  ],
  kind: "List",
  metadata: { resourceVersion: "" },
};

/** Values that have broken readers before, the dump's own among them. */
const nasty = fc.constantFrom<Json>(
  0,
  -1,
  -40,
  2 ** 31,
  1e308,
  0.5,
  "",
  "yesterday",
  "9999-01-01T00:00:00.000000Z",
  "2024-02-30T00:00:00Z",
  "Maybe",
  "Exploded",
  "1e100",
  "-1",
  "10.9.9.9/32",
  "0.0.0.0/0",
  "fe80::/64",
  "n9",
  "web",
  "ReplicaSet",
  "rs-1",
  "pod-1",
  "\u001b[31mred\u001b[0m",
  "x".repeat(300),
  true,
  null,
  [],
  {},
);

interface Mutation {
  /** which place of the dump: an index into every key and item of it, depth first (modulo their number) */
  at: number;
  kind: "set" | "delete" | "duplicate" | "add-key";
  value: Json;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(100_000),
  kind: fc.constantFrom("set", "set", "set", "delete", "duplicate", "add-key"),
  value: fc.oneof(nasty, fc.integer({ min: -10, max: 10_000 }), fc.string({ maxLength: 8 })),
}) as fc.Arbitrary<Mutation>;

/** Every place of a value, depth first: each its parent and key, so that each field is as likely as any. */
function places(root: Json): { parent: Json[] | { [k: string]: Json }; key: string | number }[] {
  const out: { parent: Json[] | { [k: string]: Json }; key: string | number }[] = [];
  const stack: Json[] = [root];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const keys: (string | number)[] = Array.isArray(v) ? v.map((_, j) => j) : Object.keys(v);
    for (const key of keys) {
      out.push({ parent: v, key });
      stack.push((v as Record<string | number, Json>)[key]!);
    }
  }
  return out;
}

function mutate(root: Json, m: Mutation): Json {
  const copy = structuredClone(root);
  const all = places(copy);
  if (all.length === 0) return copy;
  const { parent, key } = all[m.at % all.length]!;
  const p = parent as Record<string | number, Json>;
  const child = p[key]!;
  if (m.kind === "set") p[key] = m.value;
  else if (m.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete p[key];
  } else if (m.kind === "duplicate") {
    if (Array.isArray(parent)) parent.push(structuredClone(child));
    else p[`${key}Copy`] = structuredClone(child);
  } else if (!Array.isArray(parent)) p.unknownField = m.value;
  return copy;
}

/** What happens to the text: nothing, or a cut, a stray character, a BOM, a repeated key, deep nesting. */
const textChange = fc.record({
  kind: fc.constantFrom("none", "none", "cut", "splice", "bom", "duplicate-key", "deep"),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  char: fc.constantFrom("NaN", "\u0000", "}", ",", '"', "\uFEFF", "\t", "\\x", "\ud800"),
});

function changeText(text: string, c: { kind: string; at: number; char: string }): string {
  const i = Math.floor(c.at * text.length);
  if (c.kind === "cut") return text.slice(0, i);
  if (c.kind === "splice") return text.slice(0, i) + c.char + text.slice(i);
  if (c.kind === "bom") return `\uFEFF${text}`;
  if (c.kind === "duplicate-key") return text.replace('"namespace":', '"namespace":"x","namespace":');
  if (c.kind === "deep") {
    const depth = 2000 + Math.floor(c.at * 5000);
    return text.replace('"spec":', `"deep":${"[".repeat(depth)}${"]".repeat(depth)},"spec":`);
  }
  return text;
}

describe("fuzzing `faultline simulate --cluster` over mutated dumps", () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-fuzz-dumps-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the unmutated dump runs", async () => {
    const file = join(dir, "dump.json");
    writeFileSync(file, JSON.stringify(DUMP, null, 4));
    const r = await cli(["simulate", "--cluster", file, ...BUDGET]);
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toContain("3 pods on their nodes");
  });

  it("ends every run with exit 0, or exit 2 and one located line; never an internal error", async () => {
    let n = 0;
    const outcomes = { ok: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 0, maxLength: 3 }),
        textChange,
        fc.constantFrom("json", "json-minified", "yaml"),
        async (mutations, change, form) => {
          const dump = mutations.reduce(mutate, DUMP);
          const base =
            form === "yaml" ? stringify(dump) : JSON.stringify(dump, null, form === "json" ? 4 : undefined);
          const text = form === "yaml" && change.kind !== "bom" ? base : changeText(base, change);
          const file = join(dir, `case-${n++}.${form === "yaml" ? "yaml" : "json"}`);
          writeFileSync(file, text);
          const r = await cli(["simulate", "--cluster", file, ...BUDGET]);
          const context = `${file}\n${text.slice(0, 1500)}\nstderr: ${r.err}`;
          expect([0, 2], context).toContain(r.code);
          expect(r.err, context).not.toMatch(/internal error|^\s+at /m);
          if (r.code === 2) {
            const lines = r.err.trim().split("\n");
            expect(lines, context).toHaveLength(1);
            // Located: in the dump (file:line:col), or on the flag when the dump as a whole is wrong
            // ("--cluster:…: the dump holds no Node").
            expect(lines[0]!.startsWith(`${file}:`) || lines[0]!.startsWith("--cluster"), context).toBe(true);
            outcomes.refused++;
            if (process.env.FAULTLINE_FUZZ_LOG) console.log(`refused: ${lines[0]}`);
          } else outcomes.ok++;
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (process.env.FAULTLINE_FUZZ_LOG)
      console.log(`fuzz: ${n} runs, ${outcomes.ok} ran, ${outcomes.refused} refused`);
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 300_000);
});
