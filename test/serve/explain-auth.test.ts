// kubectl explain and kubectl auth can-i against `faultline serve` (issue 29 item 4): explain reads
// the /openapi/v3 documents and prints the real field descriptions; can-i creates
// SelfSubjectAccessReviews (sent as protobuf by kubectl) and SelfSubjectRulesReviews, answered
// truthfully: read verbs yes, every other verb no with the reason, exit 1 for no.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAS_KUBECTL, request, type Served, serveExample } from "./helpers.ts";

let s: Served;
beforeAll(async () => {
  s = await serveExample("node-power-loss.yaml", 70);
}, 120_000);
afterAll(() => s?.stop());

const SSAR = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

/** A length-delimited protobuf field. */
function field(n: number, value: Uint8Array | string): Uint8Array {
  const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
  return new Uint8Array([(n << 3) | 2, bytes.length, ...bytes]);
}
const cat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));

describe("SelfSubjectAccessReview and SelfSubjectRulesReview", () => {
  const post = (path: string, body: string | Uint8Array, type = "application/json") =>
    request(`${s.serving.url}${path}`, { method: "POST", headers: { "content-type": type }, body });

  it("allows get, list and watch on served resources and refuses other verbs, with the reason", async () => {
    const review = (verb: string, resource: string, group = "") =>
      post(
        SSAR,
        JSON.stringify({
          kind: "SelfSubjectAccessReview",
          apiVersion: "authorization.k8s.io/v1",
          spec: { resourceAttributes: { verb, resource, group, namespace: "default" } },
        }),
      );
    const yes = await review("list", "pods");
    expect(yes.status).toBe(201);
    expect(yes.json()).toMatchObject({ kind: "SelfSubjectAccessReview", status: { allowed: true } });
    expect((await review("watch", "deployments", "apps")).json().status.allowed).toBe(true);
    const no = (await review("delete", "pods")).json();
    expect(no.status).toEqual({
      allowed: false,
      denied: true,
      reason:
        "faultline serves a simulated cluster, read-only: delete on pods is refused (only get, list and watch are allowed)",
    });
    expect((await review("get", "ingresses", "networking.k8s.io")).json().status.reason).toBe(
      "faultline serves no resource ingresses.networking.k8s.io",
    );
    expect((await review("get", "deployments")).json().status.allowed).toBe(false);
  });

  it("reads kubectl's protobuf body (runtime.Unknown in the k8s\\0 envelope)", async () => {
    const attrs = cat(field(1, "default"), field(2, "patch"), field(5, "nodes"));
    const raw = cat(field(1, new Uint8Array()), field(2, field(1, attrs)));
    const typeMeta = cat(field(1, "authorization.k8s.io/v1"), field(2, "SelfSubjectAccessReview"));
    const body = cat(new Uint8Array([0x6b, 0x38, 0x73, 0]), field(1, typeMeta), field(2, raw));
    const r = await post(SSAR, body, "application/vnd.kubernetes.protobuf");
    expect(r.status).toBe(201);
    expect(r.json().spec.resourceAttributes).toEqual({
      namespace: "default",
      verb: "patch",
      resource: "nodes",
    });
    expect(r.json().status.allowed).toBe(false);
  });

  it("lists the rules; a GET of a review is 405, a body that is no review 400", async () => {
    const rules = (
      await post("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", '{"spec":{"namespace":"default"}}')
    ).json().status;
    expect(rules.incomplete).toBe(false);
    expect(rules.resourceRules).toContainEqual({
      verbs: ["get", "list", "watch"],
      apiGroups: ["apps"],
      resources: expect.arrayContaining(["deployments", "deployments/status"]),
    });
    expect(rules.resourceRules.flatMap((r: { verbs: string[] }) => r.verbs)).not.toContain("delete");
    expect(rules.nonResourceRules).toContainEqual({
      verbs: ["post"],
      nonResourceURLs: ["/faultline/v1/pause", "/faultline/v1/play", "/faultline/v1/seek"],
    });
    expect((await request(`${s.serving.url}${SSAR}`)).status).toBe(405);
    expect((await post(SSAR, "not json")).status).toBe(400);
    expect((await post(SSAR, '{"kind":"Pod","spec":{}}')).json().message).toBe(
      "the request body is a Pod, not a SelfSubjectAccessReview",
    );
  });

  it("is in discovery, create only", async () => {
    const list = (await request(`${s.serving.url}/apis/authorization.k8s.io/v1`)).json();
    expect(list.resources.map((r: { name: string; verbs: string[] }) => [r.name, r.verbs])).toEqual([
      ["selfsubjectaccessreviews", ["create"]],
      ["selfsubjectrulesreviews", ["create"]],
    ]);
  });
});

describe.skipIf(!HAS_KUBECTL)("kubectl explain and kubectl auth can-i", () => {
  it("kubectl explain pods.spec.containers prints the field's description and its fields", async () => {
    const { code, stdout, stderr } = await s.kubectl("explain", "pods.spec.containers");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^KIND:\s+Pod\nVERSION:\s+v1\n\nFIELD: containers <\[\]Container>/);
    expect(stdout).toContain("List of containers belonging to the pod.");
    expect(stdout).toMatch(/^ {2}name\t<string> -required-$/m);
    expect(stdout).toMatch(/^ {2}readinessProbe\t<Probe>$/m);
  }, 120_000);

  it("kubectl explain deployment.spec.replicas", async () => {
    const { code, stdout } = await s.kubectl("explain", "deployment.spec.replicas");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: replicas <integer>/);
    expect(stdout).toMatch(
      /Number of desired pods\. This is a pointer to distinguish between explicit\n\s+zero/,
    );
  }, 120_000);

  it("kubectl explain statefulsets.spec.replicas, pvc.spec and endpointslices: the other served kinds", async () => {
    const sts = await s.kubectl("explain", "statefulsets.spec.replicas");
    expect(sts.code).toBe(0);
    expect(sts.stdout).toMatch(
      /^GROUP:\s+apps\nKIND:\s+StatefulSet\nVERSION:\s+v1\n\nFIELD: replicas <integer>/,
    );
    expect(sts.stdout).toContain("replicas is the desired number of replicas of the given Template.");
    const pvc = await s.kubectl("explain", "pvc.spec");
    expect(pvc.code).toBe(0);
    expect(pvc.stdout).toMatch(
      /^KIND:\s+PersistentVolumeClaim\nVERSION:\s+v1\n\nFIELD: spec <PersistentVolumeClaimSpec>/,
    );
    expect(pvc.stdout).toContain("spec defines the desired characteristics of a volume requested by a pod");
    expect(pvc.stdout).toMatch(/^ {2}storageClassName\t<string>$/m);
    const eps = await s.kubectl("explain", "endpointslices");
    expect(eps.code).toBe(0);
    expect(eps.stdout).toMatch(/^GROUP:\s+discovery\.k8s\.io\nKIND:\s+EndpointSlice\nVERSION:\s+v1/);
    expect(eps.stdout).toContain(
      "EndpointSlice represents a subset of the endpoints that implement a service.",
    );
    expect(eps.stdout).toMatch(/^ {2}endpoints\t<\[\]Endpoint> -required-$/m);
  }, 120_000);

  it("kubectl auth can-i list pods: yes (exit 0); delete pods: no with the reason (exit 1)", async () => {
    const yes = await s.kubectl("auth", "can-i", "list", "pods");
    expect([yes.code, yes.stdout]).toEqual([0, "yes\n"]);
    const no = await s.kubectl("auth", "can-i", "delete", "pods");
    expect(no.code).toBe(1);
    expect(no.stdout).toBe(
      "no - faultline serves a simulated cluster, read-only: delete on pods is refused (only get, list and watch are allowed)\n",
    );
  }, 120_000);

  it("kubectl auth can-i --list prints the rules", async () => {
    const { code, stdout } = await s.kubectl("auth", "can-i", "--list");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
    expect(stdout).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(stdout).toMatch(/^deployments\.apps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(stdout).toMatch(/^\s+\[\/faultline\/v1\/pause\]\s+\[\]\s+\[post\]$/m);
  }, 120_000);
});
