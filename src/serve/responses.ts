// How the API server answers, apart from routing: content negotiation (JSON, Table,
// PartialObjectMetadata), paging with limit and continue, and writing a reply or a refusal.

import type { ServerResponse } from "node:http";
import type { ApiObject } from "./api-types.ts";
import { ApiError, badRequest, readOnly } from "./status.ts";

export type Output = "object" | "table" | "metadata";

/** Content negotiation: a Table or PartialObjectMetadata(List) when the client asks for it, else JSON. */
export function outputOf(accept: string | undefined): Output {
  if (!accept) return "object";
  let json = false;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.split(";").map((s) => s.trim());
    const p = Object.fromEntries(params.map((x) => x.split("=") as [string, string]));
    if (type !== "application/json" && type !== "*/*" && type !== "application/*") continue;
    if (p.as === "Table" && p.g === "meta.k8s.io" && (p.v === "v1" || p.v === "v1beta1")) return "table";
    if ((p.as === "PartialObjectMetadata" || p.as === "PartialObjectMetadataList") && p.g === "meta.k8s.io")
      return "metadata";
    if (p.as === undefined) json = true;
  }
  if (!json) throw new ApiError(406, "NotAcceptable", `only application/json is served (Accept: ${accept})`);
  return "object";
}

export function partial(o: ApiObject): Record<string, unknown> {
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: o.metadata };
}

/** limit and continue: a page of the list after the continue token's last key. */
export function paginate(
  items: ApiObject[],
  q: URLSearchParams,
): { items: ApiObject[]; next?: string; remaining?: number } {
  const key = (o: ApiObject) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`;
  let start = 0;
  const token = q.get("continue");
  if (token) {
    let after: unknown;
    try {
      after = JSON.parse(Buffer.from(token, "base64url").toString("utf8")).after;
    } catch {
      after = undefined;
    }
    if (typeof after !== "string") throw badRequest("continue key is not valid");
    start = items.findIndex((o) => key(o) > after);
    if (start < 0) start = items.length;
  }
  const limitParam = q.get("limit");
  const limit = limitParam === null || limitParam === "" ? 0 : Number(limitParam);
  if (!Number.isInteger(limit) || limit < 0) throw badRequest(`limit: "${limitParam}" is not a whole number`);
  if (limit === 0 || start + limit >= items.length) return { items: items.slice(start) };
  const page = items.slice(start, start + limit);
  const next = Buffer.from(JSON.stringify({ after: key(page.at(-1)!) })).toString("base64url");
  return { items: page, next, remaining: items.length - start - limit };
}

export function refuse(method: string, path: string): never {
  throw readOnly(method, path);
}

export type Reply = { code: number; body: unknown; type?: string } | { code: number; text: string };

export function ok(code: number, body: unknown, type = "application/json"): Reply {
  return { code, body, type };
}

export function reply(res: ServerResponse, r: Reply): void {
  const [data, type] =
    "text" in r
      ? [r.text, "text/plain; charset=utf-8"]
      : [JSON.stringify(r.body), r.type ?? "application/json"];
  res.writeHead(r.code, {
    "Content-Type": type,
    "Content-Length": Buffer.byteLength(data),
    "Cache-Control": "no-cache, private",
  });
  res.end(data);
}
