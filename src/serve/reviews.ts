// SelfSubjectAccessReview and SelfSubjectRulesReview (authorization.k8s.io/v1), the two reviews a
// client creates to ask what it may do: `kubectl auth can-i VERB RESOURCE` creates the first and
// prints yes or no (exit 1 for no); `kubectl auth can-i --list` creates the second and prints its
// rules. The answers are the truth about this server: get, list and watch on every served resource
// and its status; create on these two reviews; GET on discovery, /version, /openapi and the health
// checks; POST on the clock endpoints; every other verb refused, with the reason.
// Types: k8s.io/api authorization/v1 types.go (SubjectAccessReviewStatus: allowed, denied, reason;
// SubjectRulesReviewStatus: resourceRules, nonResourceRules, incomplete).

import type { IncomingMessage, ServerResponse } from "node:http";
import { PROTOBUF_TYPE, reviewFromProtobuf } from "./protobuf.ts";
import type { ResourceInfo } from "./resources.ts";
import { findResource, hasStatus, RESOURCES, VERBS } from "./resources.ts";
import { reply } from "./responses.ts";
import { ApiError, badRequest } from "./status.ts";

/** The review resources, create only, as kube-apiserver registers them (no get, list or watch: they are not stored). */
export const REVIEW_RESOURCES: readonly ResourceInfo[] = [
  {
    group: "authorization.k8s.io",
    version: "v1",
    resource: "selfsubjectaccessreviews",
    kind: "SelfSubjectAccessReview",
    singular: "selfsubjectaccessreview",
    namespaced: false,
  },
  {
    group: "authorization.k8s.io",
    version: "v1",
    resource: "selfsubjectrulesreviews",
    kind: "SelfSubjectRulesReview",
    singular: "selfsubjectrulesreview",
    namespaced: false,
  },
];

export const REVIEW_VERBS = ["create"] as const;

const READ_URLS = [
  "/api",
  "/api/*",
  "/apis",
  "/apis/*",
  "/healthz",
  "/livez",
  "/readyz",
  "/openapi",
  "/openapi/*",
  "/version",
  "/version/",
  "/faultline/v1/clock",
];
const CLOCK_URLS = ["/faultline/v1/pause", "/faultline/v1/play", "/faultline/v1/seek"];

const READ_ONLY = "faultline serves a simulated cluster, read-only";

/** The review a POST to /apis/authorization.k8s.io/v1/<resource> creates, or undefined for another path. */
export function reviewOf(parts: string[]): ResourceInfo | undefined {
  if (parts.length !== 4 || parts[0] !== "apis") return undefined;
  return REVIEW_RESOURCES.find(
    (r) => r.group === parts[1] && r.version === parts[2] && r.resource === parts[3],
  );
}

type Body = Record<string, unknown>;

function parseBody(bytes: Uint8Array, contentType: string | undefined, kind: string): Body {
  let body: unknown;
  const type = (contentType ?? "application/json").split(";")[0]!.trim();
  if (type === PROTOBUF_TYPE) body = reviewFromProtobuf(bytes);
  else if (type === "application/json")
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw badRequest(`the request body is not a JSON ${kind}`);
    }
  else
    throw new ApiError(
      415,
      "UnsupportedMediaType",
      `Content-Type "${type}": faultline reads application/json and ${PROTOBUF_TYPE}`,
    );
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw badRequest(`the request body is not a ${kind} object`);
  const b = body as Body;
  if (b.kind !== undefined && b.kind !== kind)
    throw badRequest(`the request body is a ${String(b.kind)}, not a ${kind}`);
  if (b.spec === null || typeof b.spec !== "object") throw badRequest(`${kind}: spec is required`);
  return b;
}

interface Decision {
  allowed: boolean;
  reason: string;
}

function resourceDecision(a: Body): Decision {
  const verb = String(a.verb ?? "");
  const group = String(a.group ?? "");
  const resource = String(a.resource ?? "");
  const sub = String(a.subresource ?? "");
  const version = a.version ? String(a.version) : "v1";
  const what = `${resource}${group ? `.${group}` : ""}${sub ? `/${sub}` : ""}`;
  const review = REVIEW_RESOURCES.find((r) => r.group === group && r.resource === resource);
  if (review && sub === "")
    return verb === "create"
      ? { allowed: true, reason: `faultline answers ${resource} for every caller` }
      : { allowed: false, reason: `${READ_ONLY}: ${resource} can only be created` };
  const served =
    findResource(group, version, resource) ??
    RESOURCES.find((r) => r.group === group && r.resource === resource);
  if (!served) return { allowed: false, reason: `faultline serves no resource ${what}` };
  if (sub !== "" && sub !== "status")
    return { allowed: false, reason: `faultline serves no subresource ${what}` };
  if ((VERBS as readonly string[]).includes(verb))
    return {
      allowed: true,
      reason: `${READ_ONLY}: get, list and watch are allowed on every served resource`,
    };
  return {
    allowed: false,
    reason: `${READ_ONLY}: ${verb || "(no verb)"} on ${what} is refused (only get, list and watch are allowed)`,
  };
}

function urlMatches(path: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith("*") ? path.startsWith(p.slice(0, -1)) : path === p));
}

function nonResourceDecision(a: Body): Decision {
  const verb = String(a.verb ?? "");
  const path = String(a.path ?? "");
  if (verb === "get" && urlMatches(path, READ_URLS))
    return { allowed: true, reason: "faultline answers discovery, /version, /openapi and the health checks" };
  if (verb === "post" && urlMatches(path, CLOCK_URLS))
    return { allowed: true, reason: "faultline's clock endpoints take POST" };
  return { allowed: false, reason: `${READ_ONLY}: ${verb || "(no verb)"} ${path || "(no path)"} is refused` };
}

function accessReview(body: Body): Body {
  const spec = body.spec as Body;
  const attrs = spec.resourceAttributes ?? spec.nonResourceAttributes;
  if (attrs === null || typeof attrs !== "object")
    throw badRequest(
      "SelfSubjectAccessReview: exactly one of spec.resourceAttributes and spec.nonResourceAttributes is required",
    );
  const d = spec.resourceAttributes ? resourceDecision(attrs as Body) : nonResourceDecision(attrs as Body);
  return { allowed: d.allowed, ...(d.allowed ? {} : { denied: true }), reason: d.reason };
}

/** The rules every caller has (kubectl auth can-i --list prints them). */
function rulesReview(): Body {
  const byGroup = new Map<string, string[]>();
  for (const r of RESOURCES) {
    const names = byGroup.get(r.group) ?? [];
    for (const n of hasStatus(r) ? [r.resource, `${r.resource}/status`] : [r.resource])
      if (!names.includes(n)) names.push(n);
    byGroup.set(r.group, names);
  }
  return {
    resourceRules: [
      {
        verbs: [...REVIEW_VERBS],
        apiGroups: ["authorization.k8s.io"],
        resources: REVIEW_RESOURCES.map((r) => r.resource),
      },
      ...[...byGroup].map(([group, resources]) => ({ verbs: [...VERBS], apiGroups: [group], resources })),
    ],
    nonResourceRules: [
      { verbs: ["get"], nonResourceURLs: [...READ_URLS] },
      { verbs: ["post"], nonResourceURLs: [...CLOCK_URLS] },
    ],
    incomplete: false,
  };
}

/** The created review: the request's spec and the server's status, as kube-apiserver returns it (201 Created). */
export function answerReview(review: ResourceInfo, bytes: Uint8Array, contentType?: string): Body {
  const body = parseBody(bytes, contentType, review.kind);
  const status = review.kind === "SelfSubjectAccessReview" ? accessReview(body) : rulesReview();
  return {
    kind: review.kind,
    apiVersion: `${review.group}/${review.version}`,
    metadata: { creationTimestamp: null },
    spec: body.spec,
    status,
  };
}

/** A review created with another method: only POST creates. */
export function reviewMethodRefused(method: string, review: ResourceInfo): ApiError {
  return new ApiError(
    405,
    "MethodNotAllowed",
    `${review.resource}: only POST (create) is served, not ${method}`,
  );
}

/** The largest review body read (kube-apiserver's limit for a request body is 3 MiB; a review is a few hundred bytes). */
const MAX_BODY = 1 << 20;

/** Read a POSTed review's body and answer it: 201 with the review, or the Status why not. */
export function serveReview(req: IncomingMessage, res: ServerResponse, review: ResourceInfo): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const fail = (e: ApiError) => {
    if (done) return;
    done = true;
    reply(res, { code: e.code, body: e.toStatus() });
  };
  req.on("data", (d: Buffer) => {
    size += d.length;
    if (size > MAX_BODY) {
      fail(new ApiError(413, "RequestEntityTooLarge", `request body larger than ${MAX_BODY} bytes`));
      req.destroy();
    } else chunks.push(d);
  });
  req.on("end", () => {
    if (done) return;
    try {
      const body = answerReview(review, Buffer.concat(chunks), req.headers["content-type"]);
      done = true;
      reply(res, { code: 201, body });
    } catch (error) {
      if (error instanceof ApiError) fail(error);
      else throw error;
    }
  });
}
