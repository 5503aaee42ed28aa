# A recording's Lease and Node changes (faultline record) as the kube-apiserver audit log's
# audit.k8s.io/v1 Events would log them (level RequestResponse, stage ResponseComplete): a Lease
# renewal is the kubelet's update, a Node whose Ready is True the kubelet's status patch, the node
# controller's Ready=Unknown its status update, a NoExecute taint its patch of the Node.
def ready: (.object.status.conditions // [] | map(select(.type == "Ready")) | .[0]);
def entry($verb; $sub; $user; $uri; $at):
  {kind: "Event", apiVersion: "audit.k8s.io/v1", level: "RequestResponse",
   auditID: ("\(.object.metadata.uid)-\(.rv)"), stage: "ResponseComplete", requestURI: $uri,
   verb: $verb, user: {username: $user},
   objectRef: ({resource: .resource, name: .object.metadata.name,
     apiVersion: (.object.apiVersion | split("/") | last)}
     + (if .resource == "leases" then {namespace: "kube-node-lease", apiGroup: "coordination.k8s.io"} else {} end)
     + (if $sub then {subresource: $sub} else {} end)),
   responseStatus: {metadata: {}, code: 200},
   requestReceivedTimestamp: $at, stageTimestamp: $at, responseObject: .object};
select(.kind == "change")
| if .resource == "leases" then
    entry("update"; null; "system:node:\(.object.metadata.name)";
      "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/\(.object.metadata.name)"; .object.spec.renewTime)
  elif .resource == "nodes" and (ready.status == "True") then
    entry("patch"; "status"; "system:node:\(.object.metadata.name)";
      "/api/v1/nodes/\(.object.metadata.name)/status"; ready.lastHeartbeatTime)
  elif .resource == "nodes" and ([.object.spec.taints[]? | select(.effect == "NoExecute")] | length > 0) then
    entry("patch"; null; "system:serviceaccount:kube-system:node-controller";
      "/api/v1/nodes/\(.object.metadata.name)"; .serverTime)
  elif .resource == "nodes" then
    entry("update"; "status"; "system:serviceaccount:kube-system:node-controller";
      "/api/v1/nodes/\(.object.metadata.name)/status"; .serverTime)
  else empty end
