// The JSON the server writes: Kubernetes API objects (k8s.io/api field names), typed as far as the
// table printers and selectors read them; the rest stays open. Times are metav1.Time strings.

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };

export interface ObjectMetaJ {
  name: string;
  generateName?: string;
  namespace?: string;
  uid: string;
  resourceVersion?: string;
  creationTimestamp: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReferenceJ[];
}

export interface OwnerReferenceJ {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Any object the server serves. */
export interface ApiObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMetaJ;
  // biome-ignore lint/suspicious/noExplicitAny: the kinds' own fields; each printer reads its kind's.
  [field: string]: any;
}

export interface ObjectReferenceJ {
  apiVersion?: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  fieldPath?: string;
}

/** core/v1 Event, the form the server stores (events.k8s.io/v1 is converted from it). */
export interface EventJ extends ApiObject {
  involvedObject: ObjectReferenceJ;
  reason: string;
  message: string;
  type: "Normal" | "Warning";
  source: { component?: string; host?: string };
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  count?: number;
  eventTime: string | null;
  reportingComponent: string;
  reportingInstance: string;
  action?: string;
}
