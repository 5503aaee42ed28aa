// How a pod finds its entries in the scenario's `behaviour:` (run/scenario-reads.ts behaviourFor
// reads them): `<workload>` and `<workload>/<container>`, by the workload's name alone.

/** The name a pod's behaviour is keyed by: its workload's (`<Kind>/<namespace>/<name>`), else its own. */
export function behaviourKey(owner: string | undefined, podName: string): string {
  // A name has no "/".
  return owner ? owner.slice(owner.lastIndexOf("/") + 1) : podName;
}

/** The workload an entry's key names: `<workload>` or `<workload>/<container>`. */
export function workloadOfKey(key: string): string {
  const slash = key.indexOf("/");
  return slash < 0 ? key : key.slice(0, slash);
}
