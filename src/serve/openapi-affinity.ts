// A pod spec's affinity and readiness gates as the served pods carry them (the model's PodSpec,
// src/kubernetes/objects-affinity.ts), for the OpenAPI documents (openapi.ts). Descriptions:
// k8s.io/api core/v1 types.go, v1.32, first sentences. NodeSelector, NodeSelectorTerm and
// NodeSelectorRequirement are in openapi-storage.ts (a PersistentVolume's nodeAffinity uses them too).

import type { DefSpec, FieldSpec } from "./openapi-core.ts";

const TERMS: FieldSpec = [
  "[]core.PodAffinityTerm",
  "If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.",
];
const WEIGHTED: FieldSpec = [
  "[]core.WeightedPodAffinityTerm",
  "The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.",
];

export const AFFINITY_DEFS: Record<string, DefSpec> = {
  "core.Affinity": {
    description: "Affinity is a group of affinity scheduling rules.",
    fields: {
      nodeAffinity: ["core.NodeAffinity", "Describes node affinity scheduling rules for the pod."],
      podAffinity: [
        "core.PodAffinity",
        "Describes pod affinity scheduling rules (e.g. co-locate this pod in the same node, zone, etc. as some other pod(s)).",
      ],
      podAntiAffinity: [
        "core.PodAntiAffinity",
        "Describes pod anti-affinity scheduling rules (e.g. avoid putting this pod in the same node, zone, etc. as some other pod(s)).",
      ],
    },
  },
  "core.NodeAffinity": {
    description: "Node affinity is a group of node affinity scheduling rules.",
    fields: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        "core.NodeSelector",
        "If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.",
      ],
      preferredDuringSchedulingIgnoredDuringExecution: [
        "[]core.PreferredSchedulingTerm",
        "The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.",
      ],
    },
  },
  "core.PreferredSchedulingTerm": {
    description:
      "An empty preferred scheduling term matches all objects with implicit weight 0 (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).",
    required: ["weight", "preference"],
    fields: {
      weight: [
        "integer",
        "Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.",
      ],
      preference: [
        "core.NodeSelectorTerm",
        "A node selector term, associated with the corresponding weight.",
      ],
    },
  },
  "core.PodAffinity": {
    description: "Pod affinity is a group of inter pod affinity scheduling rules.",
    fields: {
      requiredDuringSchedulingIgnoredDuringExecution: TERMS,
      preferredDuringSchedulingIgnoredDuringExecution: WEIGHTED,
    },
  },
  "core.PodAntiAffinity": {
    description: "Pod anti affinity is a group of inter pod anti affinity scheduling rules.",
    fields: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        "[]core.PodAffinityTerm",
        "If the anti-affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.",
      ],
      preferredDuringSchedulingIgnoredDuringExecution: [
        "[]core.WeightedPodAffinityTerm",
        "The scheduler will prefer to schedule pods to nodes that satisfy the anti-affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.",
      ],
    },
  },
  "core.WeightedPodAffinityTerm": {
    description:
      "The weights of all of the matched WeightedPodAffinityTerm fields are added per-node to find the most preferred node(s)",
    required: ["weight", "podAffinityTerm"],
    fields: {
      weight: [
        "integer",
        "weight associated with matching the corresponding podAffinityTerm, in the range 1-100.",
      ],
      podAffinityTerm: [
        "core.PodAffinityTerm",
        "Required. A pod affinity term, associated with the corresponding weight.",
      ],
    },
  },
  "core.PodAffinityTerm": {
    description:
      "Defines a set of pods (namely those matching the labelSelector relative to the given namespace(s)) that this pod should be co-located (affinity) or not co-located (anti-affinity) with, where co-located is defined as running on a node whose value of the label with key <topologyKey> matches that of any node on which a pod of the set of pods is running",
    required: ["topologyKey"],
    fields: {
      labelSelector: ["meta.LabelSelector", "A label query over a set of resources, in this case pods."],
      namespaces: [
        "[]string",
        "namespaces specifies a static list of namespace names that the term applies to. The term is applied to the union of the namespaces listed in this field and the ones selected by namespaceSelector.",
      ],
      namespaceSelector: [
        "meta.LabelSelector",
        "A label query over the set of namespaces that the term applies to. The term is applied to the union of the namespaces selected by this field and the ones listed in the namespaces field.",
      ],
      topologyKey: [
        "string",
        "This pod should be co-located (affinity) or not co-located (anti-affinity) with the pods matching the labelSelector in the specified namespaces, where co-located is defined as running on a node whose value of the label with key topologyKey matches that of any node on which any of the selected pods is running.",
      ],
    },
  },
  "core.PodReadinessGate": {
    description: "PodReadinessGate contains the reference to a pod condition",
    required: ["conditionType"],
    fields: {
      conditionType: [
        "string",
        "ConditionType refers to a condition in the pod's condition list with matching type.",
      ],
    },
  },
};
