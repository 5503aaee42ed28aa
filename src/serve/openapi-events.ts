// The served fields of Event (events.k8s.io/v1), for the OpenAPI documents (openapi.ts); as
// event-objects.ts writes it (the core/v1 Event is in openapi-storage.ts). Descriptions: k8s.io/api
// events/v1 types.go, v1.32, first sentences.

import { type DefSpec, kindFields } from "./openapi-core.ts";

export const EVENTS_DEFS: Record<string, DefSpec> = {
  "events.Event": {
    description:
      "Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.",
    gvk: ["events.k8s.io", "v1", "Event"],
    required: ["eventTime"],
    fields: kindFields({
      eventTime: ["microtime", "eventTime is the time when this Event was first observed. It is required."],
      series: [
        "events.EventSeries",
        "series is data about the Event series this event represents or nil if it's a singleton Event.",
      ],
      reportingController: [
        "string",
        "reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.",
      ],
      reportingInstance: [
        "string",
        "reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.",
      ],
      action: [
        "string",
        "action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.",
      ],
      reason: [
        "string",
        "reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.",
      ],
      regarding: [
        "core.ObjectReference",
        "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object.",
      ],
      note: [
        "string",
        "note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.",
      ],
      type: [
        "string",
        "type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.",
      ],
      deprecatedSource: [
        "core.EventSource",
        "deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.",
      ],
      deprecatedFirstTimestamp: [
        "time",
        "deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.",
      ],
      deprecatedLastTimestamp: [
        "time",
        "deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.",
      ],
      deprecatedCount: [
        "integer",
        "deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.",
      ],
    }),
  },
  "events.EventSeries": {
    description:
      "EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. How often to update the EventSeries is up to the event reporters.",
    required: ["count", "lastObservedTime"],
    fields: {
      count: ["integer", "count is the number of occurrences in this series up to the last heartbeat time."],
      lastObservedTime: [
        "microtime",
        "lastObservedTime is the time when last Event from the series was seen before last heartbeat.",
      ],
    },
  },
};
