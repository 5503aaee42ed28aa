// metav1.Status, the body of every API error, and the errors the handlers throw.

export interface StatusJ {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string };
  code: number;
}

/** An API error: the HTTP code, the StatusReason and one line of message. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusJ["details"],
  ) {
    super(message);
  }

  toStatus(): StatusJ {
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

export const notFoundPath = () =>
  new ApiError(404, "NotFound", "the server could not find the requested resource");

export function notFound(resource: string, group: string, name: string): ApiError {
  const what = group ? `${resource}.${group}` : resource;
  return new ApiError(404, "NotFound", `${what} "${name}" not found`, {
    name,
    ...(group ? { group } : {}),
    kind: resource,
  });
}

export const badRequest = (message: string) => new ApiError(400, "BadRequest", message);

/**
 * The answer to every write: 405 MethodNotAllowed, the status kube-apiserver gives a verb a resource
 * does not support, with a message that says why.
 */
export function readOnly(method: string, what: string): ApiError {
  return new ApiError(
    405,
    "MethodNotAllowed",
    `faultline serves a simulated cluster, read-only: ${method} ${what} is refused and nothing changed (change the scenario's timeline instead)`,
  );
}
