// Container (core/v1): ports, resources, probes and lifecycle hooks, with the API server's
// validation of each (pkg/apis/core/validation) and its defaulting of requests from limits.

import type {
  Container,
  ContainerPort,
  ContainerRestartRule,
  HTTPGetAction,
  LifecycleHandler,
  Probe,
  ResourceList,
} from "../../kubernetes/objects.ts";
import { isScalarResourceName } from "../../kubernetes/pod-resources.ts";
import {
  fail,
  int,
  knownFields,
  list,
  type Obj,
  obj,
  oneOf,
  optInt,
  optOneOf,
  optStr,
  quantity,
  required,
  show,
  str,
} from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import * as F from "./fields.ts";
import { check, dnsLabel } from "./meta.ts";
import { isValidPortName } from "./names.ts";

export function container(src: SourceDoc, path: Path, v: unknown): Container {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.CONTAINER_FIELDS, "Container");
  const c: Container = {
    name: dnsLabel(src, [...path, "name"], required(src, path, o, "name", "Container")),
  };
  const image = optStr(src, [...path, "image"], o.image);
  if (image !== undefined) c.image = image;
  if (o.ports != null) {
    const pp = [...path, "ports"];
    const names = new Set<string>();
    c.ports = list(src, pp, o.ports).map((p, i) => {
      const ip = [...pp, i];
      const po = obj(src, ip, p);
      knownFields(src, ip, po, F.CONTAINER_PORT_FIELDS, "ContainerPort");
      const port: ContainerPort = {
        containerPort: int(
          src,
          [...ip, "containerPort"],
          required(src, ip, po, "containerPort", "ContainerPort"),
          {
            min: 1,
            max: 65535,
          },
        ),
      };
      // validateContainerPorts: a name is an IANA service name, unique in the container.
      const name = optStr(src, [...ip, "name"], po.name);
      if (name) {
        check(src, [...ip, "name"], name, isValidPortName, "port name");
        if (names.has(name)) fail(src, [...ip, "name"], "invalid-value", `Duplicate value: ${show(name)}`);
        names.add(name);
      }
      if (name !== undefined) port.name = name;
      const protocol = optOneOf(src, [...ip, "protocol"], po.protocol, ["TCP", "UDP", "SCTP"] as const);
      if (protocol) port.protocol = protocol;
      // validateContainerPorts: a hostPort, when not 0, is a port number; 0 is none.
      const hostPort =
        po.hostPort == null ? 0 : int(src, [...ip, "hostPort"], po.hostPort, { min: 0, max: 65535 });
      if (hostPort > 0) port.hostPort = hostPort;
      const hostIP = optStr(src, [...ip, "hostIP"], po.hostIP);
      if (hostIP) port.hostIP = hostIP;
      return port;
    });
  }
  if (o.resources != null) c.resources = resources(src, [...path, "resources"], o.resources);
  for (const kind of ["startupProbe", "livenessProbe", "readinessProbe"] as const) {
    if (o[kind] != null) c[kind] = probe(src, [...path, kind], o[kind], kind);
  }
  if (o.lifecycle != null) {
    const lp = [...path, "lifecycle"];
    const l = obj(src, lp, o.lifecycle);
    knownFields(src, lp, l, F.LIFECYCLE_FIELDS, "Lifecycle");
    if (l.postStart != null) lifecycleHandler(src, [...lp, "postStart"], l.postStart);
    if (l.preStop != null) c.lifecycle = { preStop: lifecycleHandler(src, [...lp, "preStop"], l.preStop) };
  }
  // core/v1 ContainerRestartPolicy: only Always on an init container (a sidecar) before KEP-5307;
  // pod-spec.ts checks where each value may be set.
  const restartPolicy = optOneOf(src, [...path, "restartPolicy"], o.restartPolicy, [
    "Always",
    "OnFailure",
    "Never",
  ] as const);
  if (restartPolicy) c.restartPolicy = restartPolicy;
  if (o.restartPolicyRules != null)
    c.restartPolicyRules = restartRules(src, [...path, "restartPolicyRules"], o.restartPolicyRules);
  return c;
}

/** core/v1 ContainerRestartRule list (KEP-5307): action Restart, exitCodes {operator In|NotIn, values}. */
function restartRules(src: SourceDoc, path: Path, v: unknown): ContainerRestartRule[] {
  return list(src, path, v).map((r, i) => {
    const rp = [...path, i];
    const ro = obj(src, rp, r);
    knownFields(src, rp, ro, ["action", "exitCodes"], "ContainerRestartRule");
    const rule: ContainerRestartRule = {
      action: oneOf(src, [...rp, "action"], required(src, rp, ro, "action", "ContainerRestartRule"), [
        "Restart",
      ] as const),
    };
    if (ro.exitCodes != null) {
      const ep = [...rp, "exitCodes"];
      const eo = obj(src, ep, ro.exitCodes);
      knownFields(src, ep, eo, ["operator", "values"], "ContainerRestartRuleOnExitCodes");
      const operator = oneOf(
        src,
        [...ep, "operator"],
        required(src, ep, eo, "operator", "ContainerRestartRuleOnExitCodes"),
        ["In", "NotIn"] as const,
      );
      const values =
        eo.values == null
          ? []
          : list(src, [...ep, "values"], eo.values).map((x, j) =>
              int(src, [...ep, "values", j], x, { min: 0, max: 255 }),
            );
      rule.exitCodes = { operator, values };
    }
    return rule;
  });
}

function lifecycleHandler(src: SourceDoc, path: Path, v: unknown): LifecycleHandler {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.LIFECYCLE_HANDLERS, "LifecycleHandler");
  const handlers = F.LIFECYCLE_HANDLERS.filter((h) => o[h] != null);
  if (handlers.length === 0) {
    fail(
      src,
      path,
      "missing-field",
      `must specify a handler type: one of ${F.LIFECYCLE_HANDLERS.join(", ")}`,
    );
  }
  if (handlers.length > 1) {
    fail(
      src,
      [...path, handlers[1]!],
      "invalid-value",
      `may not specify more than 1 handler type (found ${handlers.join(" and ")})`,
      "key",
    );
  }
  const out: LifecycleHandler = {};
  if (o.sleep != null) {
    const sp = [...path, "sleep"];
    const so = obj(src, sp, o.sleep);
    knownFields(src, sp, so, F.SLEEP_ACTION_FIELDS, "SleepAction");
    out.sleep = {
      seconds: int(src, [...sp, "seconds"], required(src, sp, so, "seconds", "SleepAction"), { min: 0 }),
    };
  }
  if (o.exec != null) out.exec = execAction(src, [...path, "exec"], o.exec);
  if (o.httpGet != null) out.httpGet = httpGetAction(src, [...path, "httpGet"], o.httpGet);
  if (o.tcpSocket != null) out.tcpSocket = tcpSocketAction(src, [...path, "tcpSocket"], o.tcpSocket);
  return out;
}

function resources(
  src: SourceDoc,
  path: Path,
  v: unknown,
): { requests?: ResourceList; limits?: ResourceList } {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.RESOURCE_REQUIREMENTS_FIELDS, "ResourceRequirements");
  const limits = o.limits == null ? undefined : resourceList(src, [...path, "limits"], o.limits);
  let requests = o.requests == null ? undefined : resourceList(src, [...path, "requests"], o.requests);
  if (limits) {
    // API defaulting (core/v1 SetDefaults_Pod): a limit without a request sets the request.
    const scalar = limits.scalar || requests?.scalar ? { ...limits.scalar, ...requests?.scalar } : undefined;
    requests = { ...limits, ...requests };
    if (scalar) requests.scalar = scalar;
    for (const key of ["cpu", "memory"] as const) {
      const r = requests[key];
      const l = limits[key];
      if (r !== undefined && l !== undefined && r > l) {
        fail(
          src,
          [...path, "requests", key],
          "invalid-value",
          `request ${show((o.requests as Obj)[key])} is more than the ${key} limit ${show((o.limits as Obj)[key])}: must be less than or equal to ${key} limit`,
        );
      }
    }
  }
  const out: { requests?: ResourceList; limits?: ResourceList } = {};
  if (requests) out.requests = requests;
  if (limits) out.limits = limits;
  return out;
}

/**
 * cpu in cores, memory in bytes; ephemeral-storage, hugepages-<size> and extended resources
 * (nvidia.com/gpu) by name, as the scheduler counts them (kubernetes/pod-resources.ts
 * isScalarResourceName); other resources are checked as quantities and not kept.
 */
export function resourceList(src: SourceDoc, path: Path, v: unknown): ResourceList {
  const o = obj(src, path, v);
  const out: ResourceList = {};
  for (const [key, value] of Object.entries(o)) {
    const n = quantity(src, [...path, key], value);
    if (key === "cpu" || key === "memory") out[key] = n;
    else if (key === "pods") out.pods = int(src, [...path, key], n, { min: 0 });
    else if (isScalarResourceName(key)) out.scalar = { ...out.scalar, [key]: n };
  }
  return out;
}

type ProbeKind = "startupProbe" | "livenessProbe" | "readinessProbe";

function probe(src: SourceDoc, path: Path, v: unknown, kind: ProbeKind): Probe {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.PROBE_FIELDS, "Probe");
  const handlers = F.PROBE_HANDLERS.filter((h) => o[h] != null);
  if (handlers.length === 0) {
    fail(
      src,
      path,
      "missing-field",
      `a probe needs exactly one handler: exec, grpc, httpGet or tcpSocket (${kind} has none)`,
    );
  }
  if (handlers.length > 1) {
    fail(
      src,
      [...path, handlers[1]!],
      "invalid-value",
      `may not specify more than 1 handler type (found ${handlers.join(" and ")}); a probe has exactly one`,
      "key",
    );
  }
  const p: Probe = {};
  if (o.exec != null) p.exec = execAction(src, [...path, "exec"], o.exec);
  if (o.httpGet != null) p.httpGet = httpGetAction(src, [...path, "httpGet"], o.httpGet);
  if (o.tcpSocket != null) p.tcpSocket = tcpSocketAction(src, [...path, "tcpSocket"], o.tcpSocket);
  if (o.grpc != null) {
    const gp = [...path, "grpc"];
    const g = obj(src, gp, o.grpc);
    knownFields(src, gp, g, F.GRPC_ACTION_FIELDS, "GRPCAction");
    p.grpc = {
      port: int(src, [...gp, "port"], required(src, gp, g, "port", "GRPCAction"), { min: 1, max: 65535 }),
    };
    const service = optStr(src, [...gp, "service"], g.service);
    if (service !== undefined) p.grpc.service = service;
  }
  // validateProbe (pkg/apis/core/validation) requires each field to be non-negative, and
  // SetDefaults_Probe (pkg/apis/core/v1/defaults.go) runs first and turns a 0 into the default:
  // timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3. So 0 is the default
  // and the effective minimum is 1 (the API reference's "Minimum value is 1"); the code is followed.
  for (const field of [
    "initialDelaySeconds",
    "periodSeconds",
    "timeoutSeconds",
    "successThreshold",
    "failureThreshold",
  ] as const) {
    const n = optInt(src, [...path, field], o[field], { min: 0 });
    if (n !== undefined && (n > 0 || field === "initialDelaySeconds")) p[field] = n;
  }
  if (kind !== "readinessProbe" && p.successThreshold !== undefined && p.successThreshold !== 1) {
    fail(
      src,
      [...path, "successThreshold"],
      "invalid-value",
      `${p.successThreshold} is invalid: must be 1 for ${kind}s (only a readiness probe may require several successes)`,
    );
  }
  if (o.terminationGracePeriodSeconds != null) {
    if (kind === "readinessProbe") {
      fail(
        src,
        [...path, "terminationGracePeriodSeconds"],
        "invalid-value",
        "must not be set for readinessProbes (a readiness failure never kills the container)",
        "key",
      );
    }
    p.terminationGracePeriodSeconds = int(
      src,
      [...path, "terminationGracePeriodSeconds"],
      o.terminationGracePeriodSeconds,
      {
        min: 1,
      },
    );
  }
  return p;
}

function execAction(src: SourceDoc, path: Path, v: unknown): { command: string[] } {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.EXEC_ACTION_FIELDS, "ExecAction");
  const cp = [...path, "command"];
  const command = list(src, cp, required(src, path, o, "command", "ExecAction")).map((x, i) =>
    str(src, [...cp, i], x),
  );
  if (command.length === 0) fail(src, cp, "missing-field", "exec needs a command");
  return { command };
}

function httpGetAction(src: SourceDoc, path: Path, v: unknown): HTTPGetAction {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.HTTP_GET_ACTION_FIELDS, "HTTPGetAction");
  const h: HTTPGetAction = {
    port: port(src, [...path, "port"], required(src, path, o, "port", "HTTPGetAction")),
  };
  const p = optStr(src, [...path, "path"], o.path);
  if (p !== undefined) h.path = p;
  const scheme = optOneOf(src, [...path, "scheme"], o.scheme, ["HTTP", "HTTPS"] as const);
  if (scheme) h.scheme = scheme;
  optStr(src, [...path, "host"], o.host);
  if (o.httpHeaders != null) list(src, [...path, "httpHeaders"], o.httpHeaders);
  return h;
}

function tcpSocketAction(src: SourceDoc, path: Path, v: unknown): { port: number | string } {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.TCP_SOCKET_ACTION_FIELDS, "TCPSocketAction");
  optStr(src, [...path, "host"], o.host);
  return { port: port(src, [...path, "port"], required(src, path, o, "port", "TCPSocketAction")) };
}

/** A port number (1–65535) or a named container port (an IANA service name). */
export function port(src: SourceDoc, path: Path, v: unknown): number | string {
  if (typeof v === "string") {
    // ValidatePortNumOrName: a name is IsValidPortName's.
    check(src, path, v, isValidPortName, "port name");
    return v;
  }
  return int(src, path, v, { min: 1, max: 65535 });
}
