// Pods and pod templates as the API serves them: the model's Pod, with the fields the API server's
// defaulting and admission always set (pkg/apis/core/v1/defaults.go) and, where the model keeps no
// field kubectl reads, the field derived from what the model has: a container's lastState and its
// CrashLoopBackOff message come from the trace (ContainerStarted, ContainerExited, BackOff), the
// QoS class from the requests and limits (pkg/apis/core/helper/qos).

import { PROBE_DEFAULTS } from "../kubernetes/defaults.ts";
import { goDuration } from "../kubernetes/go-duration.ts";
import type { Container, ContainerStatus, Pod, PodSpec, Probe } from "../kubernetes/objects.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { Json } from "./api-types.ts";
import { resourceList } from "./quantity.ts";
import { timeString } from "./time.ts";

/** What the trace says about one container of one pod: its starts, exits and back-offs, in time order. */
interface ContainerRecord {
  starts: number[];
  exits: { t: number; exitCode: number }[];
  backOffs: { t: number; delaySeconds: number }[];
}

/**
 * The trace's container events by pod and container, kept as the trace grows. Keyed by the trace's
 * object name (`Pod/<ns>/<name>`): a StatefulSet pod recreated under the same name is told apart by
 * reading only records after its creationTimestamp.
 */
export class ContainerHistory {
  private readonly byPod = new Map<string, Map<string, ContainerRecord>>();

  add(e: TraceEvent): void {
    if (e.type !== "ContainerStarted" && e.type !== "ContainerExited" && e.type !== "BackOff") return;
    let pod = this.byPod.get(e.object);
    if (!pod) {
      pod = new Map();
      this.byPod.set(e.object, pod);
    }
    let rec = pod.get(e.container);
    if (!rec) {
      rec = { starts: [], exits: [], backOffs: [] };
      pod.set(e.container, rec);
    }
    if (e.type === "ContainerStarted") rec.starts.push(e.t);
    else if (e.type === "ContainerExited") rec.exits.push({ t: e.t, exitCode: e.exitCode });
    else rec.backOffs.push({ t: e.t, delaySeconds: e.delaySeconds });
  }

  get(podRef: string, container: string, since: number): ContainerRecord {
    const rec = this.byPod.get(podRef)?.get(container);
    if (!rec) return { starts: [], exits: [], backOffs: [] };
    return {
      starts: rec.starts.filter((t) => t >= since),
      exits: rec.exits.filter((x) => x.t >= since),
      backOffs: rec.backOffs.filter((x) => x.t >= since),
    };
  }
}

/** imagePullPolicy's default (SetDefaults_Container): Always for a :latest or untagged image, else IfNotPresent. */
function pullPolicy(image: string | undefined): string {
  if (!image) return "IfNotPresent";
  const name = image.split("@")[0]!;
  const tag = /:([^/:]+)$/.exec(name)?.[1];
  return image.includes("@") || (tag !== undefined && tag !== "latest") ? "IfNotPresent" : "Always";
}

/** SetDefaults_Probe (timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3); httpGet scheme HTTP. */
function probeJ(p: Probe): Json {
  const { initialDelaySeconds: _unset, ...defaults } = PROBE_DEFAULTS;
  const out: Record<string, Json | undefined> = { ...defaults, ...(p as unknown as Record<string, Json>) };
  if (p.httpGet)
    out.httpGet = { ...(p.httpGet as unknown as Record<string, Json>), scheme: p.httpGet.scheme ?? "HTTP" };
  return out;
}

function containerJ(c: Container): Json {
  const out: Record<string, Json | undefined> = { ...(c as unknown as Record<string, Json>) };
  const requests = resourceList(c.resources?.requests);
  const limits = resourceList(c.resources?.limits);
  out.resources = {
    ...(Object.keys(requests).length > 0 ? { requests } : {}),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
  };
  if (c.ports) out.ports = c.ports.map((p) => ({ ...p, protocol: p.protocol ?? "TCP" }));
  for (const k of ["startupProbe", "livenessProbe", "readinessProbe"] as const) {
    const p = c[k];
    if (p) out[k] = probeJ(p);
  }
  out.imagePullPolicy = pullPolicy(c.image);
  out.terminationMessagePath = "/dev/termination-log";
  out.terminationMessagePolicy = "File";
  return out;
}

/** A pod spec with the API's defaults: restartPolicy Always, terminationGracePeriodSeconds 30, dnsPolicy ClusterFirst… */
export function podSpecJ(spec: PodSpec, forPod: boolean): Record<string, Json | undefined> {
  const out: Record<string, Json | undefined> = { ...(spec as unknown as Record<string, Json>) };
  out.containers = spec.containers.map(containerJ);
  if (spec.initContainers) out.initContainers = spec.initContainers.map(containerJ);
  out.restartPolicy = spec.restartPolicy ?? "Always";
  out.terminationGracePeriodSeconds = spec.terminationGracePeriodSeconds ?? 30;
  out.dnsPolicy = "ClusterFirst";
  out.schedulerName = "default-scheduler";
  out.securityContext = {};
  if (forPod) {
    // The ServiceAccount admission plugin names "default" when the pod names none
    // (plugin/pkg/admission/serviceaccount/admission.go, DefaultServiceAccountName); the Priority
    // admission plugin sets priority and preemptionPolicy on every pod.
    out.serviceAccountName = spec.serviceAccountName || "default";
    out.priority = spec.priority ?? 0;
    out.enableServiceLinks = true;
    out.preemptionPolicy = spec.preemptionPolicy ?? "PreemptLowerPriority";
  }
  return out;
}

/** GetPodQOS (pkg/apis/core/helper/qos/qos.go), for cpu and memory. */
function qosClass(spec: PodSpec): string {
  const containers = [...spec.containers, ...(spec.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of ["cpu", "memory"] as const) {
      if (req[r] !== undefined || lim[r] !== undefined) any = true;
      // Requests default to limits when only limits are given.
      if (lim[r] === undefined || (req[r] !== undefined && req[r] !== lim[r])) guaranteed = false;
    }
  }
  if (!any) return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}

function terminatedJ(exitCode: number, startedAt: number | undefined, finishedAt: number | undefined): Json {
  return {
    exitCode,
    reason: exitCode === 0 ? "Completed" : "Error",
    ...(startedAt !== undefined ? { startedAt: timeString(startedAt) } : {}),
    ...(finishedAt !== undefined ? { finishedAt: timeString(finishedAt) } : {}),
  };
}

function containerStatusJ(
  pod: Pod,
  podUid: string,
  s: ContainerStatus,
  history: ContainerHistory,
  image: string | undefined,
): Json {
  const rec = history.get(
    `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
    s.name,
    pod.metadata.creationTimestamp ?? 0,
  );
  const startBefore = (t: number) => rec.starts.filter((x) => x <= t).at(-1);
  const lastExit = rec.exits.at(-1);
  let state: Json;
  // The exit the current state shows, if it is terminated; lastState is the one before it.
  let previous = lastExit;
  if (s.state === "running") {
    state = { running: { startedAt: timeString(s.startedAt ?? 0) } };
  } else if (s.state === "terminated") {
    previous = rec.exits.at(-2);
    state = {
      terminated: terminatedJ(s.exitCode ?? lastExit?.exitCode ?? 0, s.startedAt, lastExit?.t),
    };
    if (s.reason) (state.terminated as Record<string, Json>).reason = s.reason;
  } else {
    const waiting: Record<string, Json> = { reason: s.reason ?? "ContainerCreating" };
    const backOff = rec.backOffs.at(-1);
    if (s.reason === "CrashLoopBackOff" && backOff) {
      // kuberuntime_manager.go doBackOff: "back-off %s restarting failed container=%s pod=%s" (format.Pod: name_namespace(uid)).
      waiting.message = `back-off ${goDuration(backOff.delaySeconds)} restarting failed container=${s.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${podUid})`;
    }
    state = { waiting };
  }
  return {
    name: s.name,
    state,
    lastState: previous
      ? { terminated: terminatedJ(previous.exitCode, startBefore(previous.t), previous.t) }
      : {},
    ready: s.ready,
    restartCount: s.restartCount,
    image: image ?? "",
    imageID: "",
    started: s.started,
  };
}

/**
 * The pod's status. `kubeletSyncing`: the pod is bound to a node whose kubelet reaches the API; a
 * pending pod there without container statuses is being started (sandbox, image, container: the
 * model's start-up time), which the kubelet reports as waiting ContainerCreating (kubelet_pods.go
 * convertToAPIContainerStatuses) and kubectl prints as STATUS ContainerCreating.
 */
export function podStatusJ(
  pod: Pod,
  podUid: string,
  history: ContainerHistory,
  kubeletSyncing: boolean,
): Json {
  const st = pod.status;
  const images = new Map(pod.spec.containers.map((c) => [c.name, c.image]));
  const statuses: ContainerStatus[] =
    st.containerStatuses.length === 0 &&
    st.phase === "Pending" &&
    kubeletSyncing &&
    pod.metadata.deletionTimestamp === undefined
      ? pod.spec.containers.map((c) => ({
          name: c.name,
          ready: false,
          started: false,
          restartCount: 0,
          state: "waiting",
          reason: "ContainerCreating",
        }))
      : st.containerStatuses;
  return {
    phase: st.phase,
    conditions: st.conditions.map((c) => ({
      type: c.type,
      status: c.status,
      lastProbeTime: null,
      lastTransitionTime: c.lastTransitionTime !== undefined ? timeString(c.lastTransitionTime) : null,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
    })),
    ...(st.podIP ? { podIP: st.podIP, podIPs: [{ ip: st.podIP }] } : {}),
    containerStatuses: statuses.map((s) => containerStatusJ(pod, podUid, s, history, images.get(s.name))),
    ...(st.initContainerStatuses
      ? {
          initContainerStatuses: st.initContainerStatuses.map((s) =>
            containerStatusJ(
              pod,
              podUid,
              s,
              history,
              pod.spec.initContainers?.find((c) => c.name === s.name)?.image,
            ),
          ),
        }
      : {}),
    qosClass: qosClass(pod.spec),
  };
}
