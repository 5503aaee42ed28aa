// What the table printers share (pkg/printers/internalversion/printers.go helpers): column
// definitions, ages against the virtual now, labels.FormatLabels, metav1.FormatLabelSelector,
// layoutContainerCells, listWithMoreString, GetAccessModesAsString.

import type { ApiObject } from "./api-types.ts";
import { ageString, virtualTime } from "./time.ts";

export interface Column {
  name: string;
  type: "string" | "integer" | "boolean";
  format: string;
  description: string;
  priority: number;
}

export type Cell = string | number | boolean;

export interface Printer {
  columns: Column[];
  cells(obj: ApiObject, now: number): Cell[];
}

export function col(
  name: string,
  type: Column["type"],
  description: string,
  priority = 0,
  format = "",
): Column {
  return { name, type, format, description, priority };
}
export const NAME = col("Name", "string", "Name must be unique within a namespace.", 0, "name");
export const AGE = col(
  "Age",
  "string",
  "CreationTimestamp is a timestamp representing the server time when this object was created.",
);
export const CONTAINERS = col("Containers", "string", "Names of each container in the template.", 1);
export const IMAGES = col("Images", "string", "Images referenced by each container in the template.", 1);
export const SELECTOR = col("Selector", "string", "Label selector for pods.", 1);

/** A metav1.Time string back to virtual seconds (undefined for null/absent). */
export function vt(s: string | null | undefined): number | undefined {
  return s ? virtualTime(s) : undefined;
}

export function age(obj: ApiObject, now: number): string {
  return ageString(vt(obj.metadata.creationTimestamp), now);
}

/** labels.FormatLabels: "k=v,k2=v2" sorted by key, "<none>" when empty. */
export function formatLabels(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length === 0 ? "<none>" : keys.map((k) => `${k}=${m![k]}`).join(",");
}

export interface SelectorJ {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** metav1.FormatLabelSelector: the selector's string form, "<none>" when empty. */
export function formatSelector(s: SelectorJ | undefined): string {
  if (!s) return "<none>";
  const parts: string[] = [];
  for (const k of Object.keys(s.matchLabels ?? {}).sort()) parts.push(`${k}=${s.matchLabels![k]}`);
  for (const e of s.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(",");
    if (e.operator === "In") parts.push(`${e.key} in (${values})`);
    else if (e.operator === "NotIn") parts.push(`${e.key} notin (${values})`);
    else if (e.operator === "Exists") parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return parts.length === 0 ? "<none>" : parts.join(",");
}

/** layoutContainerCells: names and images joined with commas. */
export function containerCells(obj: ApiObject): [string, string] {
  const cs: { name: string; image?: string }[] = obj.spec?.template?.spec?.containers ?? [];
  return [cs.map((c) => c.name).join(","), cs.map((c) => c.image ?? "").join(",")];
}

/** formatDiscoveryPorts / formatDiscoveryEndpoints: up to three, then "+ N more...", "<unset>" when empty. */
export function listWithMore(items: string[]): string {
  if (items.length === 0) return "<unset>";
  if (items.length <= 3) return items.join(",");
  return `${items.slice(0, 3).join(",")} + ${items.length - 3} more...`;
}

const ACCESS_MODES: Record<string, string> = {
  ReadWriteOnce: "RWO",
  ReadOnlyMany: "ROX",
  ReadWriteMany: "RWX",
  ReadWriteOncePod: "RWOP",
};

/** helper.GetAccessModesAsString: the short forms in a fixed order. */
export function accessModes(modes: string[] | undefined): string {
  return ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"]
    .filter((m) => (modes ?? []).includes(m))
    .map((m) => ACCESS_MODES[m])
    .join(",");
}
