// The server without kubectl: bound to 127.0.0.1 only, discovery, content negotiation, selectors,
// pagination, watches (resource versions, selectors, a client that disconnects), malformed requests,
// writes refused, and seeking (back in time re-runs the deterministic model).

import { readdirSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { createSimulation } from "../../src/run/simulate.ts";
import type { ApiObject } from "../../src/serve/api-types.ts";
import { startServe } from "../../src/serve/index.ts";
import { findResource, RESOURCES } from "../../src/serve/resources.ts";
import { ServedCluster } from "../../src/serve/served.ts";
import { request, type Served, serveExample, trust, waitFor } from "./helpers.ts";

const pods = findResource("", "v1", "pods")!;
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

let s: Served;
let url: string;
beforeAll(async () => {
  s = await serveExample("node-power-loss.yaml", 70);
  url = s.serving.url;
}, 120_000);
afterAll(() => s?.stop());

describe("listening", () => {
  it("binds 127.0.0.1 only: another interface of this machine refuses the connection", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === "IPv4" && !a.internal)
      .map((a) => a!.address);
    for (const address of others) {
      const refused = await new Promise<boolean>((resolve) => {
        const sock = net.connect({ host: address, port: s.serving.port });
        sock.on("connect", () => {
          sock.destroy();
          resolve(false);
        });
        sock.on("error", () => resolve(true));
      });
      expect(refused, `connect to ${address}:${s.serving.port}`).toBe(true);
    }
  });
});

describe("discovery", () => {
  it("/version carries the scenario's Kubernetes version", async () => {
    const v = (await request(`${url}/version`)).json();
    expect(v).toMatchObject({ major: "1", minor: "32", gitVersion: "v1.32.0" });
  });

  it("/api, /api/v1, /apis and each group list what is served, read-only", async () => {
    expect((await request(`${url}/api`)).json()).toMatchObject({ kind: "APIVersions", versions: ["v1"] });
    const core = (await request(`${url}/api/v1`)).json();
    expect(core.resources.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining([
        "pods",
        "nodes",
        "services",
        "events",
        "namespaces",
        "persistentvolumeclaims",
        "persistentvolumes",
      ]),
    );
    expect(core.resources.find((r: { name: string }) => r.name === "pods")).toMatchObject({
      kind: "Pod",
      namespaced: true,
      verbs: ["get", "list", "watch"],
      shortNames: ["po"],
      categories: ["all"],
    });
    const groups = (await request(`${url}/apis`)).json().groups.map((g: { name: string }) => g.name);
    expect(groups).toEqual(
      expect.arrayContaining([
        "apps",
        "policy",
        "coordination.k8s.io",
        "discovery.k8s.io",
        "events.k8s.io",
        "storage.k8s.io",
      ]),
    );
    const apps = (await request(`${url}/apis/apps/v1`)).json();
    expect(apps.resources.map((r: { name: string }) => r.name).sort()).toEqual([
      "daemonsets",
      "deployments",
      "replicasets",
      "statefulsets",
    ]);
  });
});

describe("reading", () => {
  it("a pod as JSON has the fields describe reads: owner with UID, conditions in virtual time, container state", async () => {
    const list = (await request(`${url}/api/v1/namespaces/default/pods?labelSelector=app%3Ddb`)).json();
    expect(list.kind).toBe("PodList");
    expect(list.items).toHaveLength(1);
    const db = list.items[0];
    expect(db.metadata.ownerReferences).toEqual([
      expect.objectContaining({ apiVersion: "apps/v1", kind: "StatefulSet", name: "db", controller: true }),
    ]);
    expect(db.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(db.status.conditions).toContainEqual(
      expect.objectContaining({
        type: "Ready",
        status: "False",
        reason: "NodeNotReady",
        lastTransitionTime: "2025-01-01T00:00:57Z",
      }),
    );
    expect(db.status.containerStatuses[0]).toMatchObject({
      name: "postgres",
      ready: true,
      restartCount: 0,
      state: { running: {} },
    });
    expect(Number(db.metadata.resourceVersion)).toBeGreaterThan(0);
  });

  it("a node's taints carry timeAdded (SwapNodeControllerTaint sets it) and its conditions the controller's reason and message", async () => {
    const node = (await request(`${url}/api/v1/nodes/worker-2`)).json();
    expect(node.spec.taints).toEqual([
      { key: "node.kubernetes.io/unreachable", effect: "NoSchedule", timeAdded: "2025-01-01T00:00:57Z" },
      { key: "node.kubernetes.io/unreachable", effect: "NoExecute", timeAdded: "2025-01-01T00:01:02Z" },
    ]);
    expect(node.status.conditions.find((c: { type: string }) => c.type === "Ready")).toMatchObject({
      status: "Unknown",
      reason: "NodeStatusUnknown",
      message: "Kubelet stopped posting node status.",
    });
  });

  it("field selectors kubectl uses: spec.nodeName, metadata.name, status.phase!=; an unsupported one is a 400", async () => {
    const on2 = (
      await request(`${url}/api/v1/pods?fieldSelector=spec.nodeName%3Dworker-2%2Cstatus.phase!%3DFailed`)
    ).json();
    expect(on2.items.map((p: { spec: { nodeName: string } }) => p.spec.nodeName)).toEqual([
      "worker-2",
      "worker-2",
      "worker-2",
    ]);
    const byName = (
      await request(`${url}/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Ddb-0`)
    ).json();
    expect(byName.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(["db-0"]);
    const bad = await request(`${url}/api/v1/pods?fieldSelector=spec.colour%3Dblue`);
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({
      kind: "Status",
      reason: "BadRequest",
      message: "field label not supported: spec.colour",
    });
  });

  it("label selectors: set-based and negated; a malformed one is a 400", async () => {
    const web = (await request(`${url}/api/v1/pods?labelSelector=app%20in%20(web)`)).json();
    expect(web.items).toHaveLength(3);
    const notWeb = (await request(`${url}/api/v1/pods?labelSelector=app!%3Dweb,app`)).json();
    expect(
      notWeb.items.map((p: { metadata: { labels: { app: string } } }) => p.metadata.labels.app).sort(),
    ).toEqual(["db", "node-exporter", "node-exporter", "node-exporter"]);
    expect((await request(`${url}/api/v1/pods?labelSelector=app%20in%20(`)).status).toBe(400);
  });

  it("as=Table: the server-side columns with their priorities, one row per object, PartialObjectMetadata rows", async () => {
    const t = (await request(`${url}/api/v1/namespaces/default/pods`, { headers: { accept: TABLE } })).json();
    expect(t.kind).toBe("Table");
    expect(
      t.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}:${c.priority}`),
    ).toEqual([
      "Name:0",
      "Ready:0",
      "Status:0",
      "Restarts:0",
      "Age:0",
      "IP:1",
      "Node:1",
      "Nominated Node:1",
      "Readiness Gates:1",
    ]);
    expect(t.rows[0].object.kind).toBe("PartialObjectMetadata");
    expect(t.rows.find((r: { cells: string[] }) => r.cells[0] === "db-0").cells).toEqual([
      "db-0",
      "1/1",
      "Running",
      "0",
      "11m",
      "10.244.2.3",
      "worker-2",
      "<none>",
      "<none>",
    ]);
  });

  it("limit and continue page through a list", async () => {
    const first = (await request(`${url}/api/v1/pods?limit=2`)).json();
    expect(first.items).toHaveLength(2);
    expect(first.metadata.remainingItemCount).toBe(5);
    const rest = (await request(`${url}/api/v1/pods?limit=10&continue=${first.metadata.continue}`)).json();
    expect(rest.items).toHaveLength(5);
    expect(rest.metadata.continue).toBeUndefined();
    expect((await request(`${url}/api/v1/pods?limit=2&continue=garbage`)).status).toBe(400);
  });

  it("events.k8s.io/v1 events print the same table as core Events", async () => {
    const t = (
      await request(`${url}/apis/events.k8s.io/v1/namespaces/default/events`, { headers: { accept: TABLE } })
    ).json();
    expect(t.columnDefinitions.map((c: { name: string }) => c.name).slice(0, 4)).toEqual([
      "Last Seen",
      "Type",
      "Reason",
      "Object",
    ]);
    expect(t.rows.map((r: { cells: string[] }) => `${r.cells[2]} ${r.cells[3]}`)).toContain(
      "NodeNotReady node/worker-2",
    );
  });

  it("events.k8s.io/v1 serves the same Events in its own form", async () => {
    const list = (await request(`${url}/apis/events.k8s.io/v1/namespaces/default/events`)).json();
    const e = list.items.find(
      (x: { reason: string; regarding: { kind: string } }) =>
        x.reason === "NodeNotReady" && x.regarding.kind === "Node",
    );
    expect(e).toMatchObject({
      apiVersion: "events.k8s.io/v1",
      note: "Node worker-2 status is now: NodeNotReady",
      regarding: { kind: "Node", name: "worker-2" },
      reportingController: "node-controller",
      deprecatedCount: 1,
    });
  });
});

describe("bad requests", () => {
  it("writes answer 405 with a Status that says the cluster is simulated", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const r = await request(`${url}/api/v1/namespaces/default/pods/db-0`, { method });
      expect(r.status).toBe(405);
      expect(r.json()).toMatchObject({ kind: "Status", code: 405, reason: "MethodNotAllowed" });
      expect(r.json().message).toContain("simulated cluster");
    }
  });

  it("an unknown path or resource is a 404 Status; a bad escape is a 400; protobuf only is a 406", async () => {
    expect((await request(`${url}/api/v1/widgets`)).json()).toMatchObject({ kind: "Status", code: 404 });
    expect((await request(`${url}/api/v1/namespaces/default/pods/nope`)).json()).toMatchObject({
      code: 404,
      message: 'pods "nope" not found',
    });
    expect((await request(`${url}/api/v1/namespaces/%E0%A4%A/pods`)).status).toBe(400);
    expect(
      (await request(`${url}/api/v1/pods`, { headers: { accept: "application/vnd.kubernetes.protobuf" } }))
        .status,
    ).toBe(406);
  });

  it("a request the HTTP parser rejects gets a 400 and the server keeps answering", async () => {
    const answer = await new Promise<string>((resolve) => {
      const sock = net.connect({ host: "127.0.0.1", port: s.serving.port }, () =>
        sock.write("\u0001\u0002 NOT HTTP\r\n\r\n"),
      );
      let got = "";
      sock.on("data", (d) => {
        got += d;
      });
      sock.on("close", () => resolve(got));
      sock.on("error", () => resolve(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await request(`${url}/version`)).status).toBe(200);
  });
});

describe("watching", () => {
  it("a watch from a list's resourceVersion gets each change once, in order, with growing resourceVersions", async () => {
    const w = await serveExample("node-power-loss.yaml", 350);
    try {
      const list = (await request(`${w.serving.url}/api/v1/namespaces/default/pods`)).json();
      const events: { type: string; object: { metadata: { name: string; resourceVersion: string } } }[] = [];
      const req = http.get(
        `${w.serving.url}/api/v1/namespaces/default/pods?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
        (res) => {
          let buf = "";
          res.setEncoding("utf8");
          res.on("data", (d) => {
            buf += d;
            let i = buf.indexOf("\n");
            while (i >= 0) {
              events.push(JSON.parse(buf.slice(0, i)));
              buf = buf.slice(i + 1);
              i = buf.indexOf("\n");
            }
          });
        },
      );
      await waitFor(() => w.serving.cluster.watchers === 1, "the watch to start");
      w.serving.cluster.advanceTo(365);
      await waitFor(
        () => events.some((e) => e.object.metadata.name === "db-0" && e.type === "MODIFIED"),
        "db-0's eviction",
      );
      const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
      expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
      expect(rvs[0]).toBeGreaterThan(Number(list.metadata.resourceVersion));
      expect(events.some((e) => e.type === "ADDED" && e.object.metadata.name.startsWith("web-"))).toBe(true);
      req.destroy();
    } finally {
      await w.stop();
    }
  });

  it("a client that disconnects mid-watch is forgotten; the run goes on and the server keeps answering", async () => {
    const w = await serveExample("node-power-loss.yaml", 350);
    try {
      let got = false;
      const req = http.get(`${w.serving.url}/api/v1/pods?watch=true`, (res) => {
        res.once("data", () => {
          got = true;
          req.destroy();
        });
      });
      req.on("error", () => {});
      await waitFor(() => got, "the first watch event");
      await waitFor(() => w.serving.cluster.watchers === 0, "the server to notice the disconnect");
      w.serving.cluster.advanceTo(400);
      expect((await request(`${w.serving.url}/api/v1/pods`)).json().items.length).toBeGreaterThan(0);
    } finally {
      await w.stop();
    }
  });
});

describe("seeking", () => {
  it("seeking back re-runs the model: the same objects as a fresh server at that time, resourceVersions still growing", async () => {
    const scenario = loadScenarioFile("examples/node-power-loss.yaml");
    const a = trust(await startServe(scenario, { at: 390, port: 0 }));
    const b = trust(await startServe(scenario, { at: 70, port: 0 }));
    try {
      const rvBefore = Number(a.cluster.resourceVersion);
      const strip = (o: ApiObject) => ({
        ...o,
        metadata: { ...o.metadata, resourceVersion: undefined },
      });
      a.cluster.seek(70);
      expect(a.cluster.now).toBe(70);
      expect(Number(a.cluster.resourceVersion)).toBeGreaterThan(rvBefore);
      for (const r of ["pods", "nodes", "events"]) {
        const res = findResource("", "v1", r)!;
        expect(a.cluster.list(res, undefined).map(strip)).toEqual(b.cluster.list(res, undefined).map(strip));
      }
      // A watch cannot resume from before the seek: 410 Gone, as from a compacted watch cache.
      const old = await request(`${a.url}/api/v1/pods?watch=true&resourceVersion=${rvBefore}`);
      expect(JSON.parse(old.body.trim())).toMatchObject({
        type: "ERROR",
        object: { code: 410, reason: "Expired" },
      });
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it.each(readdirSync("examples").filter((f) => f.endsWith(".yaml")))(
    "%s: seeking back from the end to the middle serves what a fresh run to the middle serves",
    (file) => {
      const scenario = loadScenarioFile(`examples/${file}`);
      const a = new ServedCluster(scenario, undefined);
      a.advanceTo(scenario.duration);
      a.seek(scenario.duration / 2);
      const b = new ServedCluster(scenario, undefined);
      b.advanceTo(scenario.duration / 2);
      const strip = (o: ApiObject) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
      for (const r of RESOURCES.filter((x) => x.group !== "events.k8s.io")) {
        expect(a.list(r, undefined).map(strip), r.resource).toEqual(b.list(r, undefined).map(strip));
      }
    },
  );

  it("a run that goes past its event budget while playing stops there and says so; a seek back starts a new run", async () => {
    const scenario = loadScenarioFile("examples/node-power-loss.yaml");
    const probe = createSimulation(scenario);
    probe.runUntil(70);
    const c = new ServedCluster(scenario, { maxEvents: probe.engine.processed + 20 });
    try {
      c.advanceTo(70);
      c.play(100_000);
      await waitFor(() => c.stopped !== undefined, "the budget to stop the run");
      expect(c.stopped).toMatch(/went past its budget of \d+ engine events/);
      expect(c.playing).toBe(false);
      expect(c.now).toBeLessThan(scenario.duration);
      c.seek(10);
      expect([c.now, c.stopped]).toEqual([10, undefined]);
    } finally {
      c.close();
    }
  });

  it("the clock endpoint pauses, plays and seeks; a bad time is a 400", async () => {
    const c = await request(`${url}/faultline/v1/clock`);
    expect(c.json()).toMatchObject({ t: 70, playing: false, duration: 900 });
    expect((await request(`${url}/faultline/v1/seek?t=1m20s`, { method: "POST" })).json()).toMatchObject({
      t: 80,
    });
    expect(s.serving.cluster.list(pods, "default").length).toBe(7);
    expect((await request(`${url}/faultline/v1/seek?t=soon`, { method: "POST" })).status).toBe(400);
    expect((await request(`${url}/faultline/v1/play?speed=2`, { method: "POST" })).json()).toMatchObject({
      playing: true,
      speed: 2,
    });
    expect((await request(`${url}/faultline/v1/pause`, { method: "POST" })).json()).toMatchObject({
      playing: false,
    });
    expect((await request(`${url}/faultline/v1/seek?t=70s`, { method: "POST" })).json()).toMatchObject({
      t: 70,
    });
  });
});
