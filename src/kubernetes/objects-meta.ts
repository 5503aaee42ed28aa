// ObjectMeta and label selectors (k8s.io/apimachinery meta/v1), which every object and selector of
// objects.ts stands on; objects.ts re-exports them. Field names and shapes follow the Kubernetes API.

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  creationTimestamp?: number;
  deletionTimestamp?: number;
  deletionGracePeriodSeconds?: number;
  ownerReferences?: OwnerReference[];
  generateName?: string;
}

export interface OwnerReference {
  kind: string;
  name: string;
  controller?: boolean;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}
