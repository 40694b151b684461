// A format oracle independent of both validators: each format written from
// its RFC's grammar, so that the guard's and ajv-formats' verdicts on real
// strings can be counted against something neither wrote.
//
// date, time, date-time: RFC 3339 section 5.6 (full-date, full-time,
//   date-time), with the calendar's day counts and leap seconds only at the
//   end of a UTC day (23:59:60 once the offset is applied).
// email: RFC 5321 section 4.1.2 Mailbox (Dot-string or Quoted-string, then
//   a Domain or an address literal).
// hostname: RFC 1123 section 2.1 (RFC 952 labels, a leading digit allowed),
//   at most 253 characters, each label at most 63; a label with "--" as its
//   third and fourth characters only as an "xn--" A-label (RFC 5891 4.2.3.1).
// ipv4: RFC 3986 IPv4address (dec-octet: no leading zeros).
// ipv6: RFC 3986 IPv6address (RFC 4291 section 2.2 text forms).
// uri: RFC 3986 section 3 URI (a scheme, then hier-part, query, fragment).
// uuid: RFC 9562 section 4 (8-4-4-4-12 hexadecimal digits).

const DIGIT = "[0-9]";
const HEXDIG = "[0-9A-Fa-f]";
const DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])";
const IPV4 = `(?:${DEC_OCTET}\\.){3}${DEC_OCTET}`;
const H16 = `${HEXDIG}{1,4}`;
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].map((form) => `(?:${form})`).join("|");

// RFC 3986 section 3.
const UNRESERVED = "[A-Za-z0-9\\-._~]";
const PCT = `%${HEXDIG}{2}`;
const SUB_DELIMS = "[!$&'()*+,;=]";
const PCHAR = `(?:${UNRESERVED}|${PCT}|${SUB_DELIMS}|[:@])`;
const SCHEME = "[A-Za-z][A-Za-z0-9+\\-.]*";
const USERINFO = `(?:${UNRESERVED}|${PCT}|${SUB_DELIMS}|:)*`;
const IPVFUTURE = `[vV]${HEXDIG}+\\.(?:${UNRESERVED}|${SUB_DELIMS}|:)+`;
const IP_LITERAL = `\\[(?:${IPV6}|${IPVFUTURE})\\]`;
const REG_NAME = `(?:${UNRESERVED}|${PCT}|${SUB_DELIMS})*`;
const HOST = `(?:${IP_LITERAL}|${IPV4}|${REG_NAME})`;
const AUTHORITY = `(?:${USERINFO}@)?${HOST}(?::${DIGIT}*)?`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const PATH_ABEMPTY = `(?:/${SEGMENT})*`;
const PATH_ABSOLUTE = `/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?`;
const PATH_ROOTLESS = `${SEGMENT_NZ}(?:/${SEGMENT})*`;
const HIER_PART = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_ROOTLESS}|)`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const URI = new RegExp(`^${SCHEME}:${HIER_PART}(?:\\?${QUERY})?(?:#${QUERY})?$`);

const IPV4_RE = new RegExp(`^${IPV4}$`);
const IPV6_RE = new RegExp(`^(?:${IPV6})$`);
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function isDate(text) {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

function isTime(text) {
  const match = TIME.exec(text);
  if (!match) return false;
  const [hour, minute, second] = match.slice(1, 4).map(Number);
  const sign = match[4];
  const offsetHour = Number(match[5] ?? 0);
  const offsetMinute = Number(match[6] ?? 0);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second === 60) {
    // The leap second ends a UTC day.
    const offset = (sign === "-" ? -1 : 1) * (offsetHour * 60 + offsetMinute);
    const utc = (((hour * 60 + minute - offset) % 1440) + 1440) % 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

function isDateTime(text) {
  const at = text.search(/[Tt]/);
  return at === 10 && isDate(text.slice(0, at)) && isTime(text.slice(at + 1));
}

const LDH_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function isHostname(text) {
  if (text.length === 0 || text.length > 253) return false;
  return text.split(".").every((label) => LDH_LABEL.test(label) && (label.slice(2, 4) !== "--" || /^xn--/i.test(label)));
}

const ATEXT = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~]";
const DOT_STRING = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`);
const QUOTED_STRING = /^"(?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\[\x20-\x7E])*"$/;
const GENERAL_LITERAL = /^[A-Za-z0-9-]*[A-Za-z0-9]:[\x21-\x5A\x5E-\x7E]+$/;

function isEmail(text) {
  const at = text.lastIndexOf("@");
  if (at <= 0) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > 64) return false;
  if (!DOT_STRING.test(local) && !QUOTED_STRING.test(local)) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const literal = domain.slice(1, -1);
    if (IPV4_RE.test(literal)) return true;
    if (/^IPv6:/i.test(literal)) return IPV6_RE.test(literal.slice(5));
    return GENERAL_LITERAL.test(literal) && !/^IPv6:/i.test(literal);
  }
  return isHostname(domain);
}

/** Each format the oracle knows, as a predicate on a string. */
export const ORACLE = {
  date: isDate,
  time: isTime,
  "date-time": isDateTime,
  email: isEmail,
  hostname: isHostname,
  ipv4: (text) => IPV4_RE.test(text),
  ipv6: (text) => IPV6_RE.test(text),
  uri: (text) => URI.test(text),
  uuid: (text) => UUID.test(text),
};
