// `kubectl get events -A -o json` read back for an incident replay: a List
// (kubectl's wrapper) or an EventList (the API's own list) of core/v1 Events or events.k8s.io/v1
// Events, each brought to one shape. A mistake is one LoadError at its file, line, column and field.
//
// The two shapes (k8s.io/api core/v1 types.go Event; events/v1 types.go Event, 1.19+):
// - core/v1: involvedObject, source.component, firstTimestamp/lastTimestamp (metav1.Time: whole
//   seconds), count; events written by the events.k8s.io recorder (kube-scheduler) carry eventTime
//   (metav1.MicroTime) and a series instead.
// - events.k8s.io/v1: regarding, reportingController, note, eventTime, series {count,
//   lastObservedTime}, and the core fields as deprecatedSource/deprecatedFirstTimestamp/….
// An event's first occurrence is eventTime, else firstTimestamp, else metadata.creationTimestamp;
// client-go's EventCorrelator folds repeats into count and lastTimestamp (tools/record
// events_cache.go), so the first occurrence is the one a step's time is read from.

import { isObj } from "../load/check.ts";
import { MAX_DUMP_BYTES } from "../load/cluster/dump.ts";
import { parseJsonDump } from "../load/cluster/json.ts";
import { LoadError } from "../load/errors.ts";
import { type Path, parseYamlFile, type SourceDoc } from "../load/source.ts";
import { seconds } from "./steps.ts";

export interface IncidentEvent {
  reason: string;
  type: string;
  message: string;
  /** the object it is about: kind, namespace ("" for a Node), name */
  kind: string;
  namespace: string;
  name: string;
  /** the recording component (source.component or reportingController) */
  component: string;
  /** first occurrence, seconds since the Unix epoch */
  first: number;
  /** last occurrence (lastTimestamp or series.lastObservedTime) */
  last: number;
  count: number;
  /** the field the first time came from, and whether it carries microseconds */
  from: string;
  micro: boolean;
  /** where it is in the file, for messages */
  path: Path;
}

export interface EventsFile {
  file: string;
  events: IncidentEvent[];
  /** "core/v1", "events.k8s.io/v1" or both */
  shapes: string[];
  src: SourceDoc;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Parse `kubectl get events -A -o json` (or `kubectl get events.events.k8s.io -A -o json`). */
export function parseEvents(text: string, file: string): EventsFile {
  // JSON (kubectl's -o json) through JSON.parse, positions found when a message needs one; YAML else.
  const src = parseJsonDump(text, file) ?? parseYamlFile(text, file, MAX_DUMP_BYTES)[0];
  if (!src)
    throw new LoadError("no-object", file, 0, 0, "", "empty: expected `kubectl get events -A -o json`");
  const list = src.value;
  const kind = isObj(list) ? list.kind : undefined;
  if (!isObj(list) || (kind !== "List" && kind !== "EventList") || !Array.isArray(list.items))
    throw src.error(
      "invalid-value",
      isObj(list) && "kind" in list ? ["kind"] : [],
      `${isObj(list) ? `kind ${JSON.stringify(kind ?? null)}` : "this"} is not an EventList: expected the output of \`kubectl get events -A -o json\` (a List or EventList of Events)`,
    );
  const events: IncidentEvent[] = [];
  const shapes = new Set<string>();
  list.items.forEach((item, i) => {
    const e = eventOf(src, ["items", i], item);
    shapes.add(isObj(item) && item.apiVersion === "events.k8s.io/v1" ? "events.k8s.io/v1" : "core/v1");
    events.push(e);
  });
  if (events.length === 0)
    throw src.error("no-object", ["items"], "the list holds no Event: nothing to replay");
  // Ties in file order (a stable sort): the same list gives the same order on any machine.
  events.sort((a, b) => a.first - b.first);
  return { file, events, shapes: [...shapes].sort(), src };
}

function timeOf(
  src: SourceDoc,
  path: Path,
  o: Record<string, unknown>,
  fields: string[],
): { t: number; from: string } | undefined {
  for (const f of fields) {
    const parts = f.split(".");
    let v: unknown = o;
    for (const p of parts) v = isObj(v) ? v[p] : undefined;
    if (v === undefined || v === null || v === "") continue;
    const t = typeof v === "string" ? seconds(v) : undefined;
    if (t === undefined)
      throw src.error("invalid-value", [...path, ...parts], `${JSON.stringify(v)} is not an RFC 3339 time`);
    return { t, from: f };
  }
  return undefined;
}

function eventOf(src: SourceDoc, path: Path, item: unknown): IncidentEvent {
  if (!isObj(item) || item.kind !== "Event")
    throw src.error(
      "invalid-value",
      isObj(item) ? [...path, "kind"] : path,
      `an item of kind ${JSON.stringify(isObj(item) ? (item.kind ?? null) : null)}: an events list holds only Events`,
    );
  const v1 = item.apiVersion === "events.k8s.io/v1";
  if (!v1 && item.apiVersion !== "v1")
    throw src.error(
      "invalid-value",
      [...path, "apiVersion"],
      `apiVersion ${JSON.stringify(item.apiVersion ?? null)}: expected v1 or events.k8s.io/v1`,
    );
  const refField = v1 ? "regarding" : "involvedObject";
  const ref = item[refField];
  if (!isObj(ref) || typeof ref.kind !== "string" || typeof ref.name !== "string")
    throw src.error(
      "missing-field",
      [...path, refField],
      "an Event without the object it is about (kind, name)",
    );
  const firsts = v1
    ? ["eventTime", "deprecatedFirstTimestamp", "metadata.creationTimestamp"]
    : ["eventTime", "firstTimestamp", "metadata.creationTimestamp"];
  const first = timeOf(src, path, item, firsts);
  if (!first) throw src.error("missing-field", path, `an Event without a time (${firsts.join(", ")})`);
  const last =
    timeOf(
      src,
      path,
      item,
      v1
        ? ["series.lastObservedTime", "deprecatedLastTimestamp"]
        : ["series.lastObservedTime", "lastTimestamp"],
    ) ?? first;
  const series = isObj(item.series) ? item.series : undefined;
  const count = Number(series?.count ?? (v1 ? item.deprecatedCount : item.count) ?? 1) || 1;
  const source = isObj(v1 ? item.deprecatedSource : item.source)
    ? v1
      ? item.deprecatedSource
      : item.source
    : {};
  return {
    reason: str(item.reason),
    type: str(item.type),
    message: str(v1 ? item.note : item.message),
    kind: ref.kind,
    namespace: str(ref.namespace),
    name: ref.name,
    component:
      str(v1 ? item.reportingController : item.reportingComponent) ||
      str((source as Record<string, unknown>).component),
    first: first.t,
    last: Math.max(first.t, last.t),
    count,
    from: first.from,
    micro: first.from === "eventTime",
    path,
  };
}
