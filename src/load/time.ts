// RFC 3339 times as Go's time.Parse(time.RFC3339, …) reads them, which is how apimachinery decodes a
// metav1.Time or MicroTime (pkg/apis/meta/v1/time.go, micro_time.go UnmarshalJSON): the field
// ranges are checked (month 01-12, a day the month has, hour < 24, minute and second < 60; Go
// refuses a leap second's :60), where Date.parse would take "2024-02-30" for March 1.

const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/;

/** Milliseconds since the Unix epoch, or NaN when `text` is not an RFC 3339 time. */
export function parseRfc3339(text: string): number {
  const m = RFC3339.exec(text);
  if (!m) return Number.NaN;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days || hour > 23 || minute > 59 || second > 59)
    return Number.NaN;
  const zone = m[8]!;
  if (zone.length > 1 && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return Number.NaN;
  return Date.parse(text.toUpperCase());
}
