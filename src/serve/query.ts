// Query parameters as kube-apiserver decodes them into metav1.ListOptions and friends.

/**
 * A boolean query parameter (`watch`, `allowWatchBookmarks`, ...) as kube-apiserver reads it:
 * k8s.io/apimachinery pkg/runtime/conversion.go `Convert_Slice_string_To_bool` (Kubernetes 1.32):
 * absent is false; "0" or "false" in any case is false; any other value, the empty string
 * included, is true. Every spelling of true that Go's strconv.ParseBool accepts (1, t, T, TRUE,
 * true, True) is true here too, as are its false spellings "0", "false", "FALSE" and "False" false;
 * its "f" and "F" read as true, as they do for kube-apiserver. The Python client sends
 * `watch=True`, client-go and kubectl `watch=true`.
 */
export function queryBool(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  if (v === null) return false;
  return !(v === "0" || v.toLowerCase() === "false");
}
