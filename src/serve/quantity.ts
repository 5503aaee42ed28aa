// Quantities as the API prints them. The loader keeps resources as numbers (cores, bytes); the API
// serializes a resource.Quantity in canonical form ("100m", "4", "128Mi"). The original suffix is
// not kept, so a byte count divisible by 1024 is written in binary SI (Ki, Mi, Gi…), else by 1000
// in decimal SI (k, M, G…), else as a plain number: the same value, maybe another spelling.

const BINARY = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
const DECIMAL = ["", "k", "M", "G", "T", "P", "E"];

/** A CPU quantity: whole cores as "4", else millicores "500m". */
export function cpuQuantity(cores: number): string {
  if (Number.isInteger(cores)) return String(cores);
  return `${Math.round(cores * 1000)}m`;
}

/** A byte quantity in canonical form. */
export function byteQuantity(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes === 0) return String(bytes);
  for (const [base, suffixes] of [
    [1024, BINARY],
    [1000, DECIMAL],
  ] as const) {
    let v = bytes;
    let i = 0;
    while (v % base === 0 && i < suffixes.length - 1) {
      v /= base;
      i++;
    }
    if (i > 0) return `${v}${suffixes[i]}`;
  }
  return String(bytes);
}

/**
 * A ResourceList (cpu in cores, memory in bytes, pods as a count, the other resources by name: bytes
 * for ephemeral-storage and hugepages-<size>, else a count) as the API writes it.
 */
export function resourceList(
  r: { cpu?: number; memory?: number; pods?: number; scalar?: Record<string, number> } | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!r) return out;
  if (r.cpu !== undefined) out.cpu = cpuQuantity(r.cpu);
  if (r.memory !== undefined) out.memory = byteQuantity(r.memory);
  if (r.pods !== undefined) out.pods = String(r.pods);
  for (const [name, v] of Object.entries(r.scalar ?? {}))
    out[name] = name === "ephemeral-storage" || name.startsWith("hugepages-") ? byteQuantity(v) : String(v);
  return out;
}
