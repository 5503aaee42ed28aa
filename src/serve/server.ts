// The read-only Kubernetes API over the served cluster, on Node's own http module, bound to
// 127.0.0.1 only. Routes as kube-apiserver's: discovery, /version, get and list (JSON, Table and
// PartialObjectMetadataList), watch streams, label and field selectors, limit/continue; every
// write is refused with 405 and a Status that says why; a small clock endpoint under /faultline/v1
// pauses, plays and seeks. A request that cannot be understood gets a Status, never a crash.

import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { parseDuration, UnitError } from "../load/units.ts";
import type { ApiObject, EventJ } from "./api-types.ts";
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from "./discovery.ts";
import { toEventsV1 } from "./event-objects.ts";
import { guard } from "./guard.ts";
import { openApiReply } from "./openapi.ts";
import { queryBool } from "./query.ts";
import { findResource, hasStatus, type ResourceInfo } from "./resources.ts";
import { type Output, ok, outputOf, paginate, partial, type Reply, refuse, reply } from "./responses.ts";
import { reviewMethodRefused, reviewOf, serveReview } from "./reviews.ts";
import { fieldMatcher, matchesLabels, parseLabelSelector, SelectorError } from "./selectors.ts";
import { ExpiredError, type ServedCluster } from "./served.ts";
import { ApiError, badRequest, notFound, notFoundPath, readOnly } from "./status.ts";
import { PRINTERS } from "./tables.ts";

/** The only interface the server listens on. */
export const HOST = "127.0.0.1";

const TABLE_TYPE = "application/json;as=Table;v=v1;g=meta.k8s.io";

/** What the server is started with beyond the cluster: TLS, and what it tells its owner. */
export interface ServerHooks {
  /** serve HTTPS with this key and certificate (PEM); without: plain HTTP */
  tls?: { key: string; cert: string };
  /** every request's method and path, before it is answered (a log of verbs) */
  onRequest?: (method: string, url: string) => void;
  /** a watch stream has started (`serve --speed` starts its clock at the first one) */
  onWatch?: () => void;
  /** the bearer token every request must carry (src/serve/guard.ts); without: none is checked */
  token?: string;
}

interface Query {
  get(name: string): string | null;
}

export class ApiServer {
  private readonly server: http.Server | https.Server;
  private readonly streams = new Set<ServerResponse>();
  private address = "";
  private port = 0;

  constructor(
    private readonly cluster: ServedCluster,
    private readonly hooks: ServerHooks = {},
  ) {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.hooks.onRequest?.(req.method ?? "GET", req.url ?? "/");
      const { token } = this.hooks;
      const config = { address: HOST, port: this.port, tls: !!hooks.tls, ...(token ? { token } : {}) };
      const refusal = guard(req.method ?? "GET", req.url ?? "/", req.headers, config);
      if (refusal) reply(res, { code: refusal.code, body: refusal.toStatus() });
      else this.handle(req, res);
    };
    this.server = hooks.tls ? https.createServer(hooks.tls, handler) : http.createServer(handler);
    // A request line or header the parser rejects: a 400 and the connection closed, nothing else.
    this.server.on("clientError", (_err, socket) => {
      if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      else socket.destroy();
    });
  }

  /** Listen on 127.0.0.1 (port 0: any free port); resolves to the port. */
  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen({ host: HOST, port, exclusive: true }, () => {
        this.server.off("error", reject);
        const a = this.server.address() as AddressInfo;
        this.address = `${a.address}:${a.port}`;
        this.port = a.port;
        resolve(a.port);
      });
    });
  }

  /** Stop: no new connections, every watch ended, every connection closed. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const res of this.streams) res.end();
      this.streams.clear();
      this.server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    try {
      const review = reviewOf(pathParts(req.url));
      if (review) {
        if (req.method !== "POST") throw reviewMethodRefused(req.method ?? "GET", review);
        serveReview(req, res, review);
        return;
      }
      const r = this.route(req, res);
      if (r) reply(res, r);
    } catch (error) {
      const e =
        error instanceof ApiError
          ? error
          : error instanceof SelectorError
            ? badRequest(error.message)
            : new ApiError(
                500,
                "InternalError",
                `internal error: ${error instanceof Error ? error.message : String(error)}`,
              );
      if (res.headersSent) res.end();
      else reply(res, { code: e.code, body: e.toStatus() });
    }
  }

  private route(req: IncomingMessage, res: ServerResponse): Reply | undefined {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const parts = pathParts(req.url);
    const method = req.method ?? "GET";
    const q = url.searchParams;
    if (parts[0] === "faultline") return this.control(method, parts, q);
    const read = method === "GET" || method === "HEAD";
    const [first, second, third] = parts;
    if (parts.length === 0)
      return read
        ? ok(200, { paths: ["/api", "/api/v1", "/apis", "/version", "/faultline/v1/clock"] })
        : refuse(method, "/");
    if (["healthz", "livez", "readyz"].includes(first!) && parts.length === 1)
      return { code: 200, text: "ok" };
    if (first === "version" && parts.length === 1)
      return read ? ok(200, versionInfo(this.cluster.kubernetesVersion)) : refuse(method, "/version");
    if (first === "api") {
      if (parts.length === 1) return read ? ok(200, apiVersions(this.address)) : refuse(method, "/api");
      if (second !== "v1") throw notFoundPath();
      if (parts.length === 2) return read ? ok(200, apiResourceList("", "v1")) : refuse(method, "/api/v1");
      return this.resource(req, res, "", "v1", parts.slice(2), q);
    }
    if (first === "apis") {
      if (parts.length === 1) return read ? ok(200, apiGroupList()) : refuse(method, "/apis");
      if (parts.length === 2) {
        const g = apiGroup(second!);
        if (!g) throw notFoundPath();
        return read ? ok(200, g) : refuse(method, `/apis/${second}`);
      }
      if (parts.length === 3) {
        const list = apiResourceList(second!, third!);
        if (!list) throw notFoundPath();
        return read ? ok(200, list) : refuse(method, `/apis/${second}/${third}`);
      }
      return this.resource(req, res, second!, third!, parts.slice(3), q);
    }
    if (first === "openapi")
      return read
        ? openApiReply(parts, req.headers.accept, this.cluster.kubernetesVersion)
        : refuse(method, "/openapi");
    throw notFoundPath();
  }

  private resource(
    req: IncomingMessage,
    res: ServerResponse,
    group: string,
    version: string,
    path: string[],
    q: URLSearchParams,
  ): Reply | undefined {
    let watch = queryBool(q, "watch");
    let rest = path;
    if (rest[0] === "watch") {
      watch = true;
      rest = rest.slice(1);
    }
    let namespace: string | undefined;
    let resourceName: string;
    let name: string | undefined;
    let sub: string | undefined;
    if (
      rest[0] === "namespaces" &&
      rest.length >= 3 &&
      !(rest.length === 3 && ["status", "finalize"].includes(rest[2]!))
    ) {
      [, namespace, resourceName, name, sub] = rest as [string, string, string, string?, string?];
    } else {
      [resourceName, name, sub] = rest as [string, string?, string?];
    }
    if (rest.length > (namespace !== undefined ? 5 : 3)) throw notFoundPath();
    const resource = findResource(group, version, resourceName);
    if (!resource || (namespace !== undefined && !resource.namespaced)) throw notFoundPath();
    const method = req.method ?? "GET";
    const what = `${resource.resource}${name ? ` "${name}"` : ""}${namespace ? ` in namespace ${namespace}` : ""}`;
    if (method !== "GET" && method !== "HEAD") throw readOnly(method, what);
    if (sub === "log") throw badRequest(`${what}: a simulated container writes no logs`);
    if (sub !== undefined && (sub !== "status" || !hasStatus(resource))) throw notFoundPath();
    const output = outputOf(req.headers.accept);
    const out = (o: ApiObject) =>
      resource.group === "events.k8s.io" ? (toEventsV1(o as EventJ) as ApiObject) : o;
    if (name !== undefined && !watch) {
      if (resource.namespaced && namespace === undefined) throw notFoundPath();
      const storage = storageResource(resource);
      const obj = this.cluster.get(storage, resource.namespaced ? namespace : undefined, name);
      if (!obj) throw notFound(resource.resource, resource.group, name);
      if (output === "table")
        return ok(200, this.table(resource, [obj], out, q, obj.metadata.resourceVersion), TABLE_TYPE);
      if (output === "metadata") return ok(200, partial(out(obj)));
      return ok(200, out(obj));
    }
    const labels = parseLabelSelector(q.get("labelSelector") ?? "");
    const fieldText = [q.get("fieldSelector") ?? "", name !== undefined ? `metadata.name=${name}` : ""]
      .filter((s) => s !== "")
      .join(",");
    const fields = fieldMatcher(resource.resource, fieldText);
    const match = (o: ApiObject) => matchesLabels(labels, o.metadata.labels) && fields(o);
    if (watch) {
      this.watch(res, resource, namespace, match, q, output, out);
      return undefined;
    }
    let items = this.cluster.list(storageResource(resource), namespace).filter(match);
    const page = paginate(items, q);
    items = page.items;
    const metadata = {
      resourceVersion: this.cluster.resourceVersion,
      ...(page.next ? { continue: page.next, remainingItemCount: page.remaining } : {}),
    };
    if (output === "table") {
      const table = this.table(resource, items, out, q, this.cluster.resourceVersion);
      return ok(200, { ...table, metadata }, TABLE_TYPE);
    }
    if (output === "metadata") {
      return ok(200, {
        kind: "PartialObjectMetadataList",
        apiVersion: "meta.k8s.io/v1",
        metadata,
        items: items.map((o) => partial(out(o))),
      });
    }
    const apiVersion = group === "" ? version : `${group}/${version}`;
    return ok(200, { kind: `${resource.kind}List`, apiVersion, metadata, items: items.map(out) });
  }

  /**
   * A Table of stored objects: cells printed from the stored form (core/v1 for Events, as the
   * internal type kube-apiserver prints), the row's object in the requested version.
   */
  private table(
    resource: ResourceInfo,
    objects: ApiObject[],
    out: (o: ApiObject) => ApiObject,
    q: Query,
    rv: string | undefined,
    noHeaders = false,
  ): Record<string, unknown> {
    const printer = PRINTERS[resource.resource]!;
    const include = q.get("includeObject") ?? "Metadata";
    if (!["None", "Metadata", "Object"].includes(include))
      throw badRequest(`includeObject: unsupported value "${include}"`);
    const now = this.cluster.now;
    return {
      kind: "Table",
      apiVersion: "meta.k8s.io/v1",
      metadata: { ...(rv ? { resourceVersion: rv } : {}) },
      ...(noHeaders ? {} : { columnDefinitions: printer.columns }),
      rows: objects.map((o) => ({
        cells: printer.cells(o, now),
        ...(include === "Object" ? { object: out(o) } : include === "Metadata" ? { object: partial(o) } : {}),
      })),
    };
  }

  private watch(
    res: ServerResponse,
    resource: ResourceInfo,
    namespace: string | undefined,
    match: (o: ApiObject) => boolean,
    q: URLSearchParams,
    output: Output,
    out: (o: ApiObject) => ApiObject,
  ): void {
    const rvParam = q.get("resourceVersion");
    let fromRv: number | undefined;
    if (rvParam !== null && rvParam !== "" && rvParam !== "0") {
      if (!/^\d+$/.test(rvParam)) throw badRequest(`resourceVersion: "${rvParam}" is not a resource version`);
      fromRv = Number(rvParam);
    }
    const include = q.get("includeObject");
    if (include !== null && !["None", "Metadata", "Object"].includes(include)) {
      throw badRequest(`includeObject: unsupported value "${include}"`);
    }
    const timeoutParam = q.get("timeoutSeconds");
    if (timeoutParam !== null && !/^\d+$/.test(timeoutParam))
      throw badRequest(`timeoutSeconds: "${timeoutParam}" is not a whole number`);
    res.writeHead(200, {
      "Content-Type": output === "table" ? TABLE_TYPE : "application/json",
      "Cache-Control": "no-cache, private",
    });
    res.flushHeaders();
    this.streams.add(res);
    let headers = true;
    const write = (type: string, object: unknown) => {
      if (!res.destroyed && !res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
    };
    const send = (type: string, o: ApiObject) => {
      if (output === "table") {
        // The column definitions come with the first event only, as kube-apiserver's watch encoder sends them.
        write(type, this.table(resource, [o], out, q, o.metadata.resourceVersion, !headers));
        headers = false;
      } else write(type, output === "metadata" ? partial(out(o)) : out(o));
    };
    let stop = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = () => {
      stop();
      if (timer) clearTimeout(timer);
      this.streams.delete(res);
      if (!res.writableEnded) res.end();
    };
    // The response closes when the client goes away (or when it ends): the watch ends with it.
    res.on("close", end);
    try {
      stop = this.cluster.watch({ resource: storageResource(resource), namespace, match, send }, fromRv);
    } catch (error) {
      if (!(error instanceof ExpiredError)) throw error;
      write("ERROR", new ApiError(410, "Expired", error.message).toStatus());
      end();
      return;
    }
    if (timeoutParam !== null) timer = setTimeout(end, Number(timeoutParam) * 1000);
    this.hooks.onWatch?.();
  }

  /** GET /faultline/v1/clock; POST /faultline/v1/pause, /play?speed=N, /seek?t=6m. */
  private control(method: string, parts: string[], q: URLSearchParams): Reply {
    const [, version, action] = parts;
    if (version !== "v1" || parts.length !== 3) throw notFoundPath();
    const c = this.cluster;
    if (action === "clock") {
      if (method !== "GET" && method !== "HEAD")
        throw new ApiError(
          405,
          "MethodNotAllowed",
          "GET /faultline/v1/clock; POST /faultline/v1/pause, /play, /seek",
        );
    } else if (["pause", "play", "seek"].includes(action!)) {
      if (method !== "POST") throw new ApiError(405, "MethodNotAllowed", `POST /faultline/v1/${action}`);
      if (action === "pause") c.pause();
      if (action === "play") {
        const speed = Number(q.get("speed") ?? (c.playSpeed || 1));
        if (!Number.isFinite(speed) || speed <= 0)
          throw badRequest(`speed: "${q.get("speed")}" is not a positive number`);
        c.play(speed);
      }
      if (action === "seek") {
        const t = q.get("t");
        let seconds: number;
        try {
          seconds = parseDuration(t ?? "");
        } catch (error) {
          if (error instanceof UnitError) throw badRequest(`t: "${t}" is not a duration (e.g. 6m, 70s)`);
          throw error;
        }
        c.seek(seconds);
      }
    } else throw notFoundPath();
    return ok(200, {
      t: c.now,
      playing: c.playing,
      speed: c.playSpeed,
      duration: c.duration,
      resourceVersion: c.resourceVersion,
      ...(c.stopped ? { stopped: c.stopped } : {}),
    });
  }
}

/** The request path's segments, decoded; a path that cannot be read is a 400. */
function pathParts(target: string | undefined): string[] {
  try {
    return new URL(target ?? "/", "http://127.0.0.1").pathname
      .split("/")
      .filter((p) => p !== "")
      .map(decodeURIComponent);
  } catch {
    throw badRequest(`malformed request path: ${JSON.stringify(target)}`);
  }
}

/** Events of events.k8s.io are stored as core Events. */
function storageResource(r: ResourceInfo): ResourceInfo {
  return r.group === "events.k8s.io" ? findResource("", "v1", "events")! : r;
}
