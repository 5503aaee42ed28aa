// Kubernetes' string rules, as the API server applies them, each returning its own messages (empty
// when valid), worded as k8s.io/apimachinery words them:
// - staging/src/k8s.io/apimachinery/pkg/api/validate/content/kube.go: IsLabelKey (= IsQualifiedName),
//   IsLabelValue;
// - content/dns.go and pkg/util/validation/validation.go: IsDNS1123Label, IsDNS1123Subdomain,
//   IsDNS1035Label, IsValidPortName;
// - content/errors.go: MaxLenError ("must be no more than N bytes"), RegexError, EmptyError.
// Lengths are in bytes, as Go's len() counts them.

const LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY = new RegExp(`^${LABEL_KEY_FMT}$`);
const LABEL_KEY_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/** UTF-8 length, counted without encoding the string (a dump has 100,000s of names and labels). */
function bytes(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // U+0080–U+07FF take 2 bytes, the rest of the BMP 3, a surrogate pair (2 units) 4.
    if (c >= 0x80) n += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return n;
}

export function maxLenError(n: number): string {
  return `must be no more than ${n} bytes`;
}

/** RegexError: the message, the examples and the pattern, as the API server prints them. */
function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${re}')`;
}

/** IsLabelKey (IsQualifiedName): an optional DNS-subdomain prefix and '/', then a name of at most 63 bytes. */
export function isLabelKey(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a valid label key ${regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (bytes(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!LABEL_KEY.test(name))
    errs.push(`name part ${regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")}`);
  return errs;
}

/** IsLabelValue: empty, or at most 63 bytes of [-A-Za-z0-9_.] starting and ending alphanumeric. */
export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (bytes(value) > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE.test(value))
    errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
  return errs;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (bytes(value) > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL.test(value)) {
    // A valid subdomain that is not a valid label: it has dots.
    if (DNS1123_SUBDOMAIN.test(value)) errs.push("must not contain dots");
    else errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, "my-name", "123-abc"));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (bytes(value) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value))
    errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"));
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (bytes(value) > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value))
    errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, "my-name", "abc-123"));
  return errs;
}

/** IsValidPortName: an IANA service name, at most 15 of [-a-z0-9] with a letter, no "--", no edge '-'. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (bytes(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(port)) errs.push("must contain at least one letter (a-z)");
  if (port.includes("--")) errs.push("must not contain consecutive hyphens");
  if (port.length > 0 && (port.startsWith("-") || port.endsWith("-")))
    errs.push("must not begin or end with a hyphen");
  return errs;
}

/**
 * ValidateAnnotationsSize (apimachinery/pkg/api/validation/objectmeta.go): every key and value
 * together at most TotalAnnotationSizeLimitB, 256 KiB.
 */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export function annotationsSize(annotations: Record<string, string>): number {
  let n = 0;
  for (const [k, v] of Object.entries(annotations)) n += bytes(k) + bytes(v);
  return n;
}
