// `faultline record` and `faultline compare` on the command line: bad input is one located line and
// exit code 2, never a stack trace; --redact's pseudonyms are stable and consistent.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { Redactor } from "../../src/record/redact.ts";

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join(""), err: err.join("") };
}

const dir = mkdtempSync(join(tmpdir(), "faultline-compare-cli-"));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("faultline record: bad input", () => {
  it.each([
    [["record", "--duration", "10"], /^faultline: --duration: "10" needs a unit/],
    [["record", "--max-bytes", "lots"], /^faultline: --max-bytes: "lots" is not a size/],
    [["record", "--probe", "ftp://x/"], /^faultline: --probe: "ftp:\/\/x\/" is not an http or https URL/],
    [
      ["record", "--probe", "http://x/", "--clients", "2.5"],
      /^faultline: --clients: "2\.5" is not a positive whole number/,
    ],
    [["record", "--in-cluster", "--context", "a"], /^faultline: --in-cluster reads no kubeconfig/],
    [
      ["record", "--kubeconfig", "/nonexistent/kubeconfig", "--duration", "1s"],
      /^faultline: record: .*nonexistent/,
    ],
  ])("%j", async (argv, message) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.split("\n").filter((l) => l !== "")).toHaveLength(1);
  });

  it("names a missing context and the ones there are", async () => {
    const config = file(
      "kubeconfig",
      "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\ncontexts: [{name: here, context: {cluster: c, user: u}}]\nusers: [{name: u, user: {}}]\ncurrent-context: here\n",
    );
    const r = await cli(["record", "--kubeconfig", config, "--context", "there"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe('faultline: record: --context: no context "there" in the kubeconfig (it has: here)\n');
  });
});

describe("faultline compare: bad input", () => {
  it("says a line that is not JSON with its file, line and column", async () => {
    const p = file("broken.jsonl", '{"kind":"header","version":1}\n{"kind": oops}\n');
    const r = await cli(["compare", p]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2:\\d+: not JSON: `));
  });

  it("refuses a file that is not a recording, and an unknown line kind, by field", async () => {
    const none = await cli(["compare", file("none.jsonl", '{"kind":"dump","list":{"items":[]}}\n')]);
    expect(none.err).toMatch(/:1:1: no header line: not a faultline recording\n$/);
    const kind = await cli([
      "compare",
      file("kind.jsonl", '{"kind":"header","version":1}\n{"kind":"other"}\n'),
    ]);
    expect(kind.err).toMatch(/:2:1: kind: expected one of header, dump, change, watch, request, end\n$/);
    const version = await cli(["compare", file("v2.jsonl", '{"kind":"header","version":2}\n')]);
    expect(version.err).toMatch(/:1:1: version: recording version 2 is not 1\n$/);
    expect(none.code + kind.code + version.code).toBe(6);
  });

  it("asks for --fault when no node went NotReady, and checks the flag", async () => {
    const p = file(
      "quiet.jsonl",
      '{"kind":"header","version":1}\n{"kind":"dump","list":{"apiVersion":"v1","kind":"List","items":[{"kind":"Node","metadata":{"name":"a"}}]}}\n',
    );
    const quiet = await cli(["compare", p]);
    expect(quiet.code).toBe(2);
    expect(quiet.err).toMatch(
      /no node went NotReady in the recording; name the fault with --fault power-off:NODE@TIME\n$/,
    );
    const bad = await cli(["compare", p, "--fault", "power-off:a@soon"]);
    expect(bad.err).toMatch(/^faultline: --fault: "power-off:a@soon" is not power-off:NODE@TIME/);
    const unknown = await cli(["compare", p, "--fault", "power-off:b@2025-01-01T00:00:00Z"]);
    expect(unknown.err).toBe('faultline: --fault: the recording\'s dump has no node "b"\n');
    const missing = await cli(["compare", join(dir, "nowhere.jsonl")]);
    expect(missing.err).toMatch(/nowhere\.jsonl: cannot read \(ENOENT\)\n$/);
  });
});

describe("--redact", () => {
  it("gives each name one pseudonym across the dump and later changes, keeping derived names' suffixes", () => {
    const r = new Redactor();
    r.learn([
      { kind: "Namespace", metadata: { name: "shop" } },
      { kind: "Node", metadata: { name: "ip-10-0-1-5" } },
      { kind: "Deployment", metadata: { name: "cart", namespace: "shop" } },
      {
        kind: "Pod",
        metadata: { name: "cart-7d9f-abcde", namespace: "shop" },
        spec: { nodeName: "ip-10-0-1-5" },
      },
    ]);
    const later = r.object({
      kind: "Pod",
      metadata: {
        name: "cart-7d9f-xyz12",
        namespace: "shop",
        ownerReferences: [{ kind: "ReplicaSet", name: "cart-7d9f" }],
      },
      spec: { nodeName: "ip-10-0-1-5" },
      status: { conditions: [{ type: "Ready", status: "False", reason: "NodeLost" }] },
    });
    expect(later).toEqual({
      kind: "Pod",
      metadata: {
        name: "deploy-1-7d9f-xyz12",
        namespace: "ns-1",
        ownerReferences: [{ kind: "ReplicaSet", name: "deploy-1-7d9f" }],
      },
      spec: { nodeName: "node-1" },
      status: { conditions: [{ type: "Ready", status: "False", reason: "NodeLost" }] },
    });
    const lease = r.object({
      kind: "Lease",
      metadata: { name: "ip-10-0-1-5", namespace: "kube-node-lease" },
    });
    expect(lease.metadata).toEqual({ name: "node-1", namespace: "kube-node-lease" });
  });
});
