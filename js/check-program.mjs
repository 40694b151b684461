// Check programs (src/check_program.rs): a compiled schema's keywords as the
// core writes them out, checked here on a value JSON.parse already built, so
// that an accepted response costs no crossing for its keywords and no second
// parse. The core decides what a program says and keeps what it cannot say;
// this module only runs it, three ways: as closures made from the program
// (first, and where the runtime allows no functions made from source), as
// JavaScript written from it at run time (once a schema's checks have done
// much work), and by an interpreter of the same program. All share every
// helper below, so they differ only in how they walk the program.
//
// A run answers true (the value passes), false (it does not: the program
// then lists the issues as the core would, see `collector`, or leaves that
// to the core) or throws BAIL where the program cannot
// answer exactly as the core would (a number JSON.parse made infinite, a
// value nested deeper than the core reads, a `$ref` loop that never reaches
// a value, a pattern budget spent): the caller then asks the core.
import { callRaw, encodeInput, inputOf } from "./wasm-instance.mjs";
import { INPUT_STATUS } from "./generated/contract.mjs";
import { functionFrom } from "./functions-from-source.mjs";

/** Thrown where a program cannot answer as the core would. */
export const BAIL = Object.freeze({ bail: true });
function bail() {
  throw BAIL;
}

/** The deepest nesting the core reads, in containers (`MAX_SCHEMA_DEPTH`). */
const MAX_DEPTH = 127;
/**
 * References a run follows before it leaves the value to the core, which
 * follows up to 10,000,000 (`REFERENCES_PER_BUDGET`) and then refuses the
 * check: a schema whose references fan out so is the core's to judge, and
 * the run should not spend the time first.
 */
const REFERENCES = 1_000_000;
/** Nested references a run follows before it leaves the value to the core (a loop that never descends). */
const REFERENCE_NESTING = 4096;

// --- the helpers both executors use -------------------------------------------

const hasOwn = Object.hasOwn;

function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Whether a value JSON.parse built is within what the core reads: numbers
 * finite (a literal past the double range parses to Infinity, which the
 * core refuses), containers at most MAX_DEPTH deep. `z` is the nesting
 * level `v` would have as a container (the root's is 1).
 */
function probe(v, z) {
  if (typeof v === "number") {
    if (v - v !== 0) bail();
    return;
  }
  if (typeof v !== "object" || v === null) return;
  if (z > MAX_DEPTH) bail();
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === "object" || typeof x === "number") probe(x, z + 1);
    }
  } else {
    for (const k in v) {
      const x = v[k];
      if (typeof x === "object" || typeof x === "number") probe(x, z + 1);
    }
  }
}

/** JSON equality as the core compares values (numbers by value, objects by members). */
function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (!hasOwn(b, k) || !equal(a[k], b[k])) return false;
  return true;
}

/** Whether `v` is one of `values` (a Set of the primitives among them, and the containers). */
function oneOf(v, primitives, containers) {
  if (typeof v !== "object" || v === null) return primitives.has(v);
  for (let i = 0; i < containers.length; i++) if (equal(v, containers[i])) return true;
  return false;
}

/** A key for uniqueness: equal JSON values, and only they, share it. */
function uniqueKey(v) {
  if (typeof v === "string") return `s${v}`;
  if (typeof v === "number") return v;
  if (typeof v !== "object" || v === null) return v;
  return `o${canonical(v)}`;
}

function canonical(v) {
  if (typeof v !== "object" || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
}

function unique(v) {
  const length = v.length;
  if (length < 2) return true;
  // A short array by pairs (what `equal` says of two values is what their
  // keys say), without a key made per item.
  if (length <= 8) {
    for (let i = 1; i < length; i++) {
      const x = v[i];
      for (let j = 0; j < i; j++) if (equal(x, v[j])) return false;
    }
    return true;
  }
  const seen = new Set();
  for (let i = 0; i < v.length; i++) {
    const key = uniqueKey(v[i]);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/** Code points of `s` (a surrogate pair is one), as the core counts a string's length. */
function codePoints(s) {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function minLength(s, n) {
  if (s.length >= 2 * n) return true;
  if (s.length < n) return false;
  return codePoints(s) >= n;
}

function maxLength(s, n) {
  if (s.length <= n) return true;
  if (s.length > 2 * n) return false;
  return codePoints(s) <= n;
}

/**
 * `multipleOf` as the core decides it for a double `v` (jsonschema's
 * `is_multiple_of_integer` and `is_multiple_of_float`): a whole divisor
 * divides a whole double exactly; a fraction divides `v` when the decimal
 * `v` prints as, divided by the decimal the divisor prints as, is whole.
 * A power-of-two fraction (0.5, 0.25, ...) is decided on the double itself
 * where the decimal is that double exactly (of a magnitude below `exact`,
 * which `exactBelow(m)` gives); a decimal fraction (0.01, 2.675, ...) on
 * the whole number `v` times 10^k makes, below 2^50 (`decimalOf(m)` gives
 * 10^k and the divisor's digits); otherwise both decimals are compared
 * exactly, and a pair past the core's exact range is left to the core, as
 * is a number JSON.parse made infinite (the core refuses it).
 */
function multipleOf(v, m, exact, scale, units) {
  if (Number.isInteger(m) && m <= 9007199254740992) return Number.isInteger(v) && v % m === 0;
  if (v === 0) return true;
  if (v - v !== 0) bail();
  const magnitude = Math.abs(v);
  if (magnitude < m) return false;
  if (magnitude < exact) return Number.isInteger(v / m);
  if (scale !== 0) {
    // The divisor is `units` / `scale` (scale = 10^k, k its decimals). Below
    // 2^50, `v * scale` lands within 1/4 of the whole number the decimal of
    // `v` times 10^k is, when that decimal has at most k decimals; and then
    // it is the only decimal of k decimals that reads as `v` (the doubles
    // there are closer than 10^-k), so the decimal `v` prints as has at
    // most k decimals exactly when the nearest whole `n` reads back as `v`.
    // With more decimals, `v` / the divisor is not whole.
    const s = v * scale;
    if (s < 1125899906842624 && s > -1125899906842624) {
      const n = Math.round(s);
      return n / scale === v && n % units === 0;
    }
  }
  return decimalMultiple(v, m);
}

/**
 * A fractional divisor's decimal as [10^k, its k-decimal digits as a whole
 * number], for `multipleOf`'s shortcut; [0, 0] where the digits or 10^k are
 * not exact doubles (the shortcut is not taken). Worked out once per check.
 */
function decimalOf(m) {
  if (Number.isInteger(m) || !(m > 0)) return [0, 0];
  const [digits, decimals] = decimalParts(m);
  if (decimals < 1 || decimals > 22 || digits > 9007199254740991n) return [0, 0];
  return [Number(`1e${decimals}`), Number(digits)];
}

/**
 * For a divisor 2^-k (k from 1 to 10), 10^(15-k): a double of smaller
 * magnitude prints as a decimal of at most 15 significant digits that is
 * the double exactly, so `v / m` decides it; 0 for any other divisor.
 * Worked out once per check, not per value.
 */
function exactBelow(m) {
  const k = POWER_OF_TWO.get(m);
  return k === undefined ? 0 : 10 ** (15 - k);
}

/** 2^-k → k, for the fractions `multipleOf` decides on the double itself. */
const POWER_OF_TWO = new Map(Array.from({ length: 10 }, (_, i) => [2 ** -(i + 1), i + 1]));

/** The decimal a double prints as: [mantissa as a BigInt, decimals], the value being mantissa / 10^decimals. */
function decimalParts(x) {
  const text = String(x);
  const e = text.indexOf("e");
  const body = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = body.indexOf(".");
  const digits = dot < 0 ? body : body.slice(0, dot) + body.slice(dot + 1);
  const decimals = (dot < 0 ? 0 : body.length - dot - 1) - exponent;
  return [BigInt(digits), decimals];
}

const I128 = 1n << 127n;

function decimalMultiple(v, m) {
  const [vm, vd] = decimalParts(v);
  const [mm, md] = decimalParts(m);
  const shared = Math.min(vd, md);
  const a = vm * 10n ** BigInt(md - shared);
  const b = mm * 10n ** BigInt(vd - shared);
  // The core answers past i128 on a rounded fraction; the core decides those.
  if (a >= I128 || a <= -I128 || b >= I128 || b <= -I128) bail();
  return a % b === 0n;
}

// The formats checked here, each exactly as the core's (jsonschema's
// `is_valid_date` and the rest), proven equal by tests/js/checking/check-program.test.mjs.

/** The decimal digit at `i`, or -1. */
function digit(s, i) {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** The two-digit number at `i`, or -1. */
function twoDigits(s, i) {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function isDate(s) {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const century = twoDigits(s, 0);
  const years = twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (century < 0 || years < 0 || month < 1 || month > 12 || day < 1) return false;
  const year = century * 100 + years;
  if (month === 2) return day <= ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28);
  return day <= (month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
}

function isTime(s) {
  const len = s.length;
  if (len < 9 || s.charCodeAt(2) !== 58 || s.charCodeAt(5) !== 58) return false;
  const hour = twoDigits(s, 0);
  const minute = twoDigits(s, 3);
  const second = twoDigits(s, 6);
  if (hour < 0 || minute < 0 || second < 0 || hour > 23 || minute > 59 || second > 60) return false;
  let i = 8;
  if (s.charCodeAt(i) === 46) {
    i++;
    const start = i;
    while (i < len && digit(s, i) >= 0) i++;
    if (i === start) return false;
  }
  if (i === len) return false;
  const c = s.charCodeAt(i);
  if (c === 90 || c === 122) return i === len - 1 && (second !== 60 || (hour === 23 && minute === 59));
  if (c !== 43 && c !== 45) return false;
  if (len - i !== 6 || s.charCodeAt(i + 3) !== 58) return false;
  const offsetHour = twoDigits(s, i + 1);
  const offsetMinute = twoDigits(s, i + 4);
  if (offsetHour < 0 || offsetMinute < 0 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second !== 60) return true;
  // A leap second is 23:59:60 in UTC.
  const sign = c === 43 ? -1 : 1;
  let utcHour = hour + sign * offsetHour;
  let utcMinute = minute + sign * offsetMinute;
  utcHour += Math.trunc(utcMinute / 60);
  utcMinute %= 60;
  if (utcMinute < 0) {
    utcMinute += 60;
    utcHour -= 1;
  }
  utcHour = (((utcHour + 24) % 24) + 24) % 24;
  return utcHour === 23 && utcMinute === 59;
}

function isDateTime(s) {
  let t = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 84 || c === 116) {
      t = i;
      break;
    }
  }
  return t >= 0 && isDate(s.slice(0, t)) && isTime(s.slice(t + 1));
}

function hex(c) {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/**
 * A UUID as the core reads it: 36 characters, hyphens at 8, 13, 18 and 23,
 * hex digits elsewhere. A fixed expression of our own (no schema's), matched
 * by the engine's compiled code in about half the time of a loop over the
 * characters.
 */
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function isUuid(s) {
  return s.length === 36 && UUID.test(s);
}

/**
 * A dotted IPv4 address as the core reads it: four decimal parts of at
 * most 255, without leading zeros, nothing else; a fixed expression of our
 * own, as `UUID`.
 */
const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;

function isIpv4(s) {
  return s.length <= 15 && IPV4.test(s);
}

/** The reference tokens of a JSON Pointer from `i` on: `~` only as `~0` or `~1`. */
function pointerTokens(s, i) {
  for (; i < s.length; i++) {
    if (s.charCodeAt(i) === 126) {
      const next = s.charCodeAt(i + 1);
      if (next !== 48 && next !== 49) return false;
      i++;
    }
  }
  return true;
}

function isJsonPointer(s) {
  return s.length === 0 || (s.charCodeAt(0) === 47 && pointerTokens(s, 1));
}

function isRelativeJsonPointer(s) {
  const first = digit(s, 0);
  if (first < 0) return false;
  let i = 1;
  if (first > 0) while (digit(s, i) >= 0) i++;
  if (i === s.length) return true;
  const c = s.charCodeAt(i);
  if (c === 35) return i === s.length - 1;
  return c === 47 && pointerTokens(s, i + 1);
}

/**
 * RFC 3339's `duration` as the core reads it: `P`, date units in the order
 * Y, M, W, D (weeks alone), then optionally `T` and time units in the order
 * H, M, S, each unit once and after digits; Y with D needs M, H with S
 * needs M.
 */
function isDuration(s) {
  const len = s.length;
  if (len < 2 || s.charCodeAt(0) !== 80) return false;
  let i = 1;
  let time = false;
  let weeks = false;
  let any = false;
  let anyTime = false;
  let lastDate = 0;
  let lastTime = 0;
  let seen = 0;
  while (i < len) {
    if (s.charCodeAt(i) === 84) {
      if (time || weeks) return false;
      time = true;
      i++;
      continue;
    }
    const start = i;
    while (i < len && digit(s, i) >= 0) i++;
    if (i === start || i === len) return false;
    const unit = s.charCodeAt(i);
    if (!time) {
      // Y M W D
      const index = unit === 89 ? 0 : unit === 77 ? 1 : unit === 87 ? 2 : unit === 68 ? 3 : -1;
      if (index < 0) return false;
      if (index === 2) {
        if (any) return false;
        weeks = true;
      } else if (weeks) return false;
      if (index < lastDate || (seen & (1 << index)) !== 0) return false;
      seen |= 1 << index;
      lastDate = index;
    } else {
      // H M S
      const index = unit === 72 ? 0 : unit === 77 ? 1 : unit === 83 ? 2 : -1;
      if (index < 0 || index < lastTime || (seen & (1 << (index + 4))) !== 0) return false;
      seen |= 1 << (index + 4);
      lastTime = index;
      anyTime = true;
    }
    any = true;
    i++;
  }
  if (!any || (time && !anyTime)) return false;
  if ((seen & 0b1011) === 0b1001) return false;
  return (seen & 0b1110000) !== 0b1010000;
}

/**
 * RFC 6570 URI Template as the core reads it (jsonschema's
 * `is_valid_uri_template`, on UTF-8 bytes: a character past ASCII is a
 * literal, never part of a variable name).
 */
function isUriTemplate(s) {
  const len = s.length;
  let i = 0;
  while (i < len) {
    const c = s.charCodeAt(i);
    if (c === 123) {
      i++;
      if (i >= len) return false;
      if (OPERATORS.has(s.charCodeAt(i))) {
        i++;
        if (i >= len) return false;
      }
      i = varspec(s, i);
      if (i < 0) return false;
      while (i < len && s.charCodeAt(i) === 44) {
        i = varspec(s, i + 1);
        if (i < 0) return false;
      }
      if (i >= len || s.charCodeAt(i) !== 125) return false;
      i++;
    } else if (c === 125) return false;
    else if (c === 37) {
      if (i + 2 >= len || !hex(s.charCodeAt(i + 1)) || !hex(s.charCodeAt(i + 2))) return false;
      i += 3;
    } else if (c <= 0x20 || c === 0x7f || c === 34 || c === 60 || c === 62 || c === 92 || c === 94 || c === 96 || c === 124) return false;
    else i++;
  }
  return true;
}

/** RFC 6570's operators, by character code. */
const OPERATORS = new Set([..."+#./;?&=,!@|"].map((c) => c.charCodeAt(0)));

/** A varspec (varname and an optional `:1`-`:9999` or `*`) from `i`: the index after it, or -1. */
function varspec(s, i) {
  i = varname(s, i);
  if (i < 0 || i >= s.length) return i;
  const c = s.charCodeAt(i);
  if (c === 58) {
    i++;
    const first = digit(s, i);
    if (first < 1) return -1;
    i++;
    let digits = 1;
    while (digits < 4 && digit(s, i) >= 0) {
      i++;
      digits++;
    }
  } else if (c === 42) i++;
  return i;
}

/** A varname (varchars, single dots between them) from `i`: the index after it, or -1. */
function varname(s, i) {
  i = varchars(s, i);
  while (i >= 0 && i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 46) i = varchars(s, i + 1);
    else if (varchar(c) || c === 37) i = varchars(s, i);
    else break;
  }
  return i;
}

/** One or more varchars (letters, digits, `_`, `%` and two hex digits) from `i`: the index after them, or -1. */
function varchars(s, i) {
  const len = s.length;
  const start = i;
  while (i < len) {
    const c = s.charCodeAt(i);
    if (varchar(c)) i++;
    else if (c === 37) {
      if (i + 2 >= len || !hex(s.charCodeAt(i + 1)) || !hex(s.charCodeAt(i + 2))) return -1;
      i += 3;
    } else break;
  }
  return i > start ? i : -1;
}

function varchar(c) {
  return alphanumeric(c) || c === 95;
}

export const FORMATS = {
  date: isDate,
  time: isTime,
  "date-time": isDateTime,
  uuid: isUuid,
  ipv4: isIpv4,
  duration: isDuration,
  "json-pointer": isJsonPointer,
  "relative-json-pointer": isRelativeJsonPointer,
  "uri-template": isUriTemplate,
};

/**
 * `hostname` (every draft) and `idn-hostname` as the core decides an ASCII
 * name of no label with `--` as its third and fourth characters (where the
 * drafts and the A-label rules differ): 1 when its dot-separated labels are
 * 1 to 63 letters, digits and hyphens, no hyphen first or last, at most 253
 * characters in all; 0 when it is ASCII and not so; -1 (the core judges)
 * for a character past ASCII or a label with `--` third and fourth.
 */
function asciiHostname(s) {
  const length = s.length;
  let verdict = length === 0 || length > 253 ? 0 : 1;
  let start = 0;
  for (let i = 0; i <= length; i++) {
    const c = i === length ? 46 : s.charCodeAt(i);
    if (c > 127) return -1;
    if (c === 46) {
      const size = i - start;
      if (size < 1 || size > 63 || s.charCodeAt(start) === 45 || s.charCodeAt(i - 1) === 45) verdict = 0;
      else if (size >= 4 && s.charCodeAt(start + 2) === 45 && s.charCodeAt(start + 3) === 45) return -1;
      start = i + 1;
    } else if (c !== 45 && !alphanumeric(c)) verdict = 0;
  }
  return verdict;
}

/** RFC 5322 `atext`, ASCII, by character code. */
const ATEXT = Array.from({ length: 128 }, (_, c) => /[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]/.test(String.fromCharCode(c)));

/** A letter or digit, by character code. */
function alphanumeric(c) {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Whether the core's `email` accepts `s` on its shortcut without reading
 * it further (jsonschema's `plain_email_domain`, whose answer is then
 * `true`): an ASCII dot-atom local part of 1 to 64 characters, one `@`, and
 * a domain of at most 253 characters whose dot-separated labels are 1 to 63
 * letters, digits and hyphens with a letter or digit at both ends, none
 * with `--` as its third and fourth characters. False says only that the
 * core must judge `s`.
 */
function plainEmail(s) {
  const at = s.indexOf("@");
  const length = s.length;
  if (at < 1 || at > 64 || length - at - 1 < 1 || length - at - 1 > 253) return false;
  let dot = true;
  for (let i = 0; i < at; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (dot) return false;
      dot = true;
    } else if (c < 128 && ATEXT[c]) dot = false;
    else return false;
  }
  if (dot) return false;
  let start = at + 1;
  for (let i = start; i <= length; i++) {
    const c = i === length ? 46 : s.charCodeAt(i);
    if (c === 46) {
      const size = i - start;
      if (size < 1 || size > 63 || !alphanumeric(s.charCodeAt(start)) || !alphanumeric(s.charCodeAt(i - 1))) return false;
      if (size >= 4 && s.charCodeAt(start + 2) === 45 && s.charCodeAt(start + 3) === 45) return false;
      start = i + 1;
    } else if (c !== 45 && !alphanumeric(c)) return false;
  }
  return true;
}

/**
 * A pattern the core matches as an anchored sequence of classes
 * (jsonschema-regex's `Sequence::is_match`, whose form the program gives:
 * see `sequence_of` in src/check_program.rs): 1 when it matches, 0 when
 * not, decided on ASCII characters; -1 where a character past ASCII comes
 * before the answer is known, and the core matches the string.
 */
function sequenceMatch(sequence, s) {
  const length = s.length;
  // One pass: what the ASCII characters before a character past ASCII
  // decide is final (the sequence is anchored at the start); past that
  // character, the core decides. Members read by index, not destructured.
  if (sequence[0] === 1) {
    const members = sequence[1];
    const max = sequence[3];
    if (length < sequence[2]) return 0;
    for (let i = 0; i < length; i++) {
      const c = s.charCodeAt(i);
      if (c > 127) return -1;
      if ((members[c >>> 5] & (1 << (c & 31))) === 0) return 0;
    }
    return max < 0 || length <= max ? 1 : 0;
  }
  const table = sequence[1];
  const star = sequence[2];
  const skippable = sequence[3];
  const skipRun = sequence[4];
  const accept = sequence[5];
  const anchoredEnd = sequence[6];
  let state = skipRun === 0 ? 1 : close(1, skippable, skipRun);
  for (let i = 0; i < length; i++) {
    if (anchoredEnd === 0 && (state & accept) !== 0) return 1;
    const c = s.charCodeAt(i);
    if (c > 127) return -1;
    const hit = state & table[c];
    state = ((hit & ~star) << 1) | (hit & star);
    if (skipRun !== 0) state = close(state, skippable, skipRun);
    if (state === 0) return 0;
  }
  return (state & accept) !== 0 ? 1 : 0;
}
/**
 * Whether a `patternProperties` pattern (its sequence) matches a member's
 * name; a name the sequence leaves to the core sends the value there.
 */
function namesMatch(sequence, name) {
  const matched = sequenceMatch(sequence, name);
  if (matched < 0) bail();
  return matched === 1;
}

function close(state, skippable, skipRun) {
  for (let i = 0; i < skipRun; i++) state |= (state & skippable) << 1;
  return state;
}

// --- string checks the core judges, in one crossing -----------------------------

/** The strings a run set aside for the core, with their check indices, in the order met. */
const pendingChecks = [];
const pendingStrings = [];

function pend(check, s) {
  pendingChecks.push(check);
  pendingStrings.push(s);
}

/** The core's verdict on string checks, one a string (true: passes); BAIL when it cannot judge them. */
function judge(handle, checks, strings) {
  const batch = new Array(checks.length * 2);
  for (let i = 0; i < checks.length; i++) {
    batch[2 * i] = checks[i];
    batch[2 * i + 1] = strings[i];
  }
  const text = JSON.stringify(batch);
  const failed = callRaw(() => handle.judgeStrings(encodeInput(text)));
  if (failed === INPUT_STATUS.notJudged) bail();
  if (failed === 0) return null;
  return inputOf(checks.length).slice(0, checks.length);
}

// --- the program, compiled -------------------------------------------------------

/**
 * How a run reads its value. TEXT: a value JSON.parse built from text (its
 * numbers may be infinite and its nesting deep, where the text was; the
 * members and items no keyword reaches are probed for that). VALUE: a
 * JS value the run reads where the schema reads it (the value path gives it
 * the snapshot `valueSnapshot` made of a caller's value, see
 * js/arguments.mjs, or, with a plan, the caller's value itself, see
 * `inPlacePlan`); what it reads must be JSON (a finite number, a string,
 * a boolean, null, an array, an object of no class, without toJSON), and
 * anything else, like every value the program rejects, goes to the exact
 * path, which says what is wrong where.
 */
export const TEXT = 0;
export const VALUE = 1;

/** Off for the tests that compare a verdict with the core's own (see js/testing.mjs). */
let programsOn = true;

/** Turns the check programs on or off (off: every check is the core's), for the tests. */
export function useCheckPrograms(on) {
  programsOn = on;
}

/** Runs `fn` with every check left to the core, and gives what it returns. */
export function withoutPrograms(fn) {
  const was = programsOn;
  programsOn = false;
  try {
    return fn();
  } finally {
    programsOn = was;
  }
}

/**
 * Checks of a schema the core answers before its program is made: making
 * one (the core writes it, then it is written as JavaScript and compiled)
 * costs more than compiling the schema, and repays it only over many
 * checks, so a schema compiled, checked once or twice and dropped (a
 * request's own tool schemas, the cold path) never pays it.
 */
const CHECKS_BEFORE_PROGRAM = 2;

/**
 * A handle's program, or null where the core checks (alone, or until the
 * schema has been checked CHECKS_BEFORE_PROGRAM times). It is kept on the
 * handle itself (a fresh instance after a trap has fresh handles).
 */
export function programOf(handle) {
  if (!programsOn) return null;
  let program = handle.checkProgramMade;
  if (program === undefined) {
    const checks = (handle.checksWithoutProgram ?? 0) + 1;
    handle.checksWithoutProgram = checks;
    if (checks <= CHECKS_BEFORE_PROGRAM) return null;
    program = null;
    try {
      const text = handle.checkProgram();
      if (text !== undefined) {
        const spec = JSON.parse(text);
        if (!judgesUnderBranches(spec)) program = makeProgram(handle, spec);
      }
    } catch {
      program = null;
    }
    handle.checkProgramMade = program;
  }
  return program;
}

/**
 * The nodes a check of a node runs, as [node, under a branch]: a branch
 * (anyOf, oneOf, not, contains, if's condition) must know at once whether
 * its subschema passes, so the string checks the core judges there cost a
 * crossing each instead of one for the whole run.
 */
function children(check) {
  switch (check[0]) {
    case "properties":
    case "patternProperties":
      return check[1].map(([, n]) => [n, false]);
    case "additionalProperties":
    case "unevaluatedProperties":
      return [[check[2], false]];
    case "propertyNames":
    case "ref":
      return [[check[1], false]];
    case "items":
    case "unevaluatedItems":
      return [[check[1], false]];
    case "prefixItems":
    case "allOf":
      return check[1].map((n) => [n, false]);
    case "dependencies":
      return check[2].map(([, n]) => [n, false]);
    case "contains":
    case "not":
      return [[check[1], true]];
    case "anyOf":
    case "oneOf":
      return check[1].map((n) => [n, true]);
    case "if":
      return [[check[1], true], [check[2], false], [check[3], false]];
    default:
      return [];
  }
}

/**
 * Whether a string check only the core makes can run under a branch (see
 * `children`): such a program would cross once a string there, and the
 * core checks the whole value for less (a `oneOf` of channels whose
 * pattern the program cannot match, one crossing a contact); the core
 * keeps that schema.
 */
function judgesUnderBranches(spec) {
  // The nodes reached outside any branch, and the branches met on the way.
  const outside = new Set([0]);
  const branches = [];
  const todo = [0];
  while (todo.length > 0) {
    const node = spec.nodes[todo.pop()];
    if (!Array.isArray(node)) continue;
    for (const check of node) {
      for (const [child, branch] of children(check)) {
        if (child < 0) continue;
        if (branch) branches.push(child);
        else if (!outside.has(child)) {
          outside.add(child);
          todo.push(child);
        }
      }
    }
  }
  // Every node at or below a branch, searched for such a check.
  const seen = new Set(branches);
  const stack = [...seen];
  while (stack.length > 0) {
    const node = spec.nodes[stack.pop()];
    if (!Array.isArray(node)) continue;
    for (const check of node) {
      if (check[0] === "string") return true;
      for (const [child] of children(check)) {
        if (child >= 0 && !seen.has(child)) {
          seen.add(child);
          stack.push(child);
        }
      }
    }
  }
  return false;
}

/**
 * Nodes a program's closures (see `closures`) visit in one mode before the
 * program is written as JavaScript: writing and compiling a function costs
 * more than many runs of the closures, and a function written for one
 * schema runs fast only once the engine has seen it run very often (in a
 * catalogue of a thousand tools, a function written for each ran three
 * times slower than the closures after a thousand checks of each), while
 * a schema checked all the time runs up to twice as fast written. So a
 * schema is written once its checks have done that much work: a document
 * schema checked for a few milliseconds, a tool called some thousands of
 * times.
 */
const VISITS_BEFORE_WRITTEN = 20_000;

/**
 * The program `spec` for the handle: `{ textSafe, run(value, mode) }`,
 * each mode's executor made on its first run. `how` chooses the executor:
 * by default its closures (see `closures`), then, once they have visited
 * VISITS_BEFORE_WRITTEN nodes, JavaScript written from it (unless the
 * runtime refuses functions made from source); `"written"` (or `false`)
 * the written function from the first run (the closures where the runtime
 * refuses it), `"closures"` the closures only, `true` the interpreter.
 */
export function makeProgram(handle, spec, how) {
  // One string judged at once, where a run cannot set it aside (under
  // anyOf, oneOf, not, if, contains, a failure decides what else runs).
  const judgeNow = (check, s) => {
    if (crossingsLeft === Infinity) return judge(handle, [check], [s]) === null;
    // Listing a rejected value's issues asks about a few strings at most,
    // each once; more, and the core lists them in one crossing.
    const key = `${check}\u0000${s}`;
    let passes = judgedWhileCollecting.get(key);
    if (passes === undefined) {
      if (--crossingsLeft < 0) bail();
      passes = judge(handle, [check], [s]) === null;
      judgedWhileCollecting.set(key, passes);
    }
    return passes;
  };
  const valueSafe = valueModeSafe(spec);
  // The strings a run set aside, judged once it passes.
  const judgePending = () => judge(handle, pendingChecks, pendingStrings) === null;
  // How a caller's value is read where it lies, where it can be (see `inPlacePlan`).
  const plan = valueSafe ? inPlacePlan(spec) : undefined;
  const write = (mode, p) => written(spec, judgeNow, judgePending, mode, p);
  const make = (mode, p) => {
    if (how === true) return only(interpreted(spec, judgeNow, judgePending, mode, p));
    if (how === "closures") return only(closures(spec, judgeNow, judgePending, mode, undefined, p));
    if (how === "written" || how === false) return only(write(mode, p) ?? closures(spec, judgeNow, judgePending, mode, undefined, p));
    const work = { visits: 0 };
    return tiered(closures(spec, judgeNow, judgePending, mode, work, p), work, () => write(mode, p));
  };
  let text;
  let value;
  let inPlace;
  let collect;
  return {
    textSafe: spec.textSafe === true,
    /**
     * The issues of a value the program rejected, as the core lists them
     * (see `collector`): `{ errors, moreErrors }`; throws BAIL where the
     * core must list them.
     */
    collect(v, mode, maxErrors) {
      if (!programsOn || spec.says === undefined || spec.pointers === undefined || (mode === VALUE && !valueSafe)) bail();
      // The run of this mode tells which subschemas pass (a string only
      // the core judges, which a run would set aside, it judges at once,
      // as the interpreter would while visiting).
      const made = mode === VALUE ? value : text;
      collect ??= collector(spec, interpreted(spec, judgeNow, judgePending, VALUE));
      crossingsLeft = COLLECTOR_CROSSINGS;
      try {
        return collect(v, mode, maxErrors, made?.fn);
      } finally {
        crossingsLeft = Infinity;
        if (judgedWhileCollecting.size !== 0) judgedWhileCollecting.clear();
      }
    },
    /** What the program reads of a caller's value (see `reachOf`); undefined where it never reads one. */
    reach: valueSafe ? reachOf(spec) : undefined,
    /** true / false for `v` read in `mode`; throws BAIL where the core must answer. */
    run(v, mode) {
      if (mode === VALUE) return this.runValue(v);
      text ??= make(TEXT);
      return text.run(v);
    },
    /** `run` for a caller's value. */
    runValue(v) {
      if (!valueSafe) bail();
      value ??= make(VALUE);
      return value.run(v);
    },
    /** Whether the program can check a caller's value where it lies (see `inPlacePlan`). */
    inPlace: plan !== undefined,
    /**
     * `runValue` on a caller's value itself, each location read once (see
     * `inPlacePlan`): true only where `runValue` would accept the copy
     * `valueSnapshot` makes of it (made without a problem); false, or a
     * throw (BAIL, or whatever a read threw), where the copy path must answer.
     */
    runInPlace(v) {
      if (!programsOn || plan === undefined || plan.running) bail();
      inPlace ??= make(VALUE, plan);
      plan.running = true;
      try {
        return inPlace.run(v);
      } finally {
        plan.running = false;
      }
    },
    interpreted: () => how === true || write(TEXT) === undefined,
  };
}

/**
 * The strings a program's collector may ask the core to judge, one
 * crossing each, before it leaves the whole list to the core; and what is
 * left of them while one collects (no bound outside, where no answer is
 * kept).
 */
const COLLECTOR_CROSSINGS = 8;
let crossingsLeft = Infinity;
/** What the core said of each string asked about while one collects, by check and string. */
const judgedWhileCollecting = new Map();

/**
 * An executor that runs `first` until its runs have visited
 * VISITS_BEFORE_WRITTEN nodes (`work.visits`, counted by `first`), then
 * what `later()` makes (when it makes one).
 */
function tiered(first, work, later) {
  const executor = {
    fn: first,
    run(v) {
      if (work.visits > VISITS_BEFORE_WRITTEN) {
        executor.fn = later() ?? first;
        executor.run = executor.fn;
        return executor.run(v);
      }
      return first(v);
    },
  };
  return executor;
}

/**
 * An executor of one run function: `run` to check with, and `fn`, the
 * function with its `passes`, `firstFailing` and `reset` that the
 * collector asks (see `collector`), the same function for a tiered
 * executor's current tier.
 */
function only(fn) {
  return { run: fn, fn };
}

/**
 * What a program can read of a caller's value, for the copy the value path
 * makes of it (`valueSnapshot` in js/arguments.mjs): for the subschemas
 * that apply to one value (a node and those its `allOf`, `anyOf`, `oneOf`,
 * `not`, `if`, `$ref` and `dependencies` apply to the same value), whether
 * an object there is read whole (`whole`: `additionalProperties` reads
 * every member, an `enum` or `const` of objects compares them whole, and
 * so does any check not known here) and, by `member(name)`, the reach of a
 * member some `properties` entry applies a subschema to (undefined for a
 * member none does: the program never reads into it). Arrays are always
 * copied whole. Each set of nodes gets one reach, made when first asked.
 */
export function reachOf(spec) {
  const made = new Map();
  const reach = (roots) => {
    const nodes = sameValue(spec, roots);
    const key = nodes.join(",");
    let found = made.get(key);
    if (found !== undefined) return found;
    let whole = false;
    const named = new Map();
    for (const index of nodes) {
      const node = spec.nodes[index];
      if (!Array.isArray(node)) continue;
      for (const check of node) {
        switch (check[0]) {
          case "properties":
            for (const [name, child] of check[1]) {
              const list = named.get(name);
              if (list === undefined) named.set(name, [child]);
              else list.push(child);
            }
            break;
          case "const":
            if (typeof check[1] === "object" && check[1] !== null) whole = true;
            break;
          case "enum":
            if (check[1].some((x) => typeof x === "object" && x !== null)) whole = true;
            break;
          default:
            if (!OBJECT_UNREAD.has(check[0])) whole = true;
        }
      }
    }
    const below = new Map();
    found = {
      whole,
      member(name) {
        let r = below.get(name);
        if (r === undefined) {
          const list = named.get(name);
          if (list === undefined) return undefined;
          below.set(name, (r = reach(list)));
        }
        return r;
      },
    };
    made.set(key, found);
    return found;
  };
  return reach([0]);
}

/**
 * The checks that read no member of an object below it (they look at the
 * object itself, its keys, or another kind of value), or that apply
 * subschemas to the same value (`sameValue` follows them).
 */
const OBJECT_UNREAD = new Set([
  "type", "min", "max", "xmin", "xmax", "mul", "minLength", "maxLength", "format", "string", "email", "hostname", "pattern",
  "minItems", "maxItems", "unique", "items", "unevaluatedItems", "prefixItems", "contains", "required", "dependentRequired",
  "minProperties", "maxProperties", "propertyNames", "allOf", "anyOf", "oneOf", "not", "if", "ref", "dependencies",
]);

/** The nodes that apply to the value `roots` apply to, sorted: the roots and the subschemas their applicators give that value. */
function sameValue(spec, roots) {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length > 0) {
    const index = todo.pop();
    if (index < 0 || seen.has(index)) continue;
    seen.add(index);
    const node = spec.nodes[index];
    if (!Array.isArray(node)) continue;
    for (const check of node) {
      switch (check[0]) {
        case "allOf":
        case "anyOf":
        case "oneOf":
          todo.push(...check[1]);
          break;
        case "not":
        case "ref":
          todo.push(check[1]);
          break;
        case "if":
          todo.push(check[1], check[2], check[3]);
          break;
        case "dependencies":
          for (const [, child] of check[2]) todo.push(child);
          break;
      }
    }
  }
  return [...seen].sort((a, b) => a - b);
}

/** An empty object: anything `for in` finds on it was added to Object.prototype. */
const POLLUTION_PROBE = {};

/**
 * Whether a caller's value can be read by the program as the core reads
 * its JSON: not where the schema names a member or compares a string with
 * U+FFFD (a lone surrogate, which the core reads as U+FFFD, would compare
 * differently here).
 */
function valueModeSafe(spec) {
  return !JSON.stringify(spec.nodes).includes("\ufffd");
}

// --- the value read in place ----------------------------------------------------------

/** The checks a program read in place may hold (see `inPlacePlan`). */
const IN_PLACE_CHECKS = new Set([
  "type", "const", "enum", "min", "max", "xmin", "xmax", "mul", "minLength", "maxLength", "format", "string", "email", "hostname", "pattern",
  "minItems", "maxItems", "required", "properties", "additionalProperties", "items", "prefixItems", "allOf", "anyOf", "oneOf", "not", "if", "ref",
]);

/** The checks that read an object's members or an array's items. */
const MEMBER_READS = new Set(["required", "properties", "additionalProperties", "items", "prefixItems"]);

/** Subschemas applied to one value, over all its locations, past which a program is not read in place. */
const IN_PLACE_WORK = 100_000;

/**
 * Whether, and how, the program can check a caller's value where it lies,
 * without the copy `valueSnapshot` makes (see `run` in VALUE mode with a
 * plan): undefined where it cannot, else `{ duty, whole, covers, ancestors }`.
 * It can where every location is read once by construction: of the
 * subschemas that apply to one value (a node and those its `allOf`,
 * `$ref`, `anyOf`, `oneOf`, `not` and `if` apply to it), at most one reads
 * its members or items (`properties`, `required` of names it has
 * properties for, `additionalProperties` without patterns, `items`,
 * `prefixItems`), and that one is applied once and whatever the others
 * decide (not under a branch); checks that read a value's members another
 * way (`patternProperties`, `propertyNames`, `contains`, `uniqueItems`,
 * `min`/`maxProperties`, dependencies, `unevaluated*`, an `enum` of
 * objects) keep the copy. That subschema, or the one the value was handed
 * to where none reads into it, has the value's `duty`: once the value
 * passes, it reads what no subschema was handed (`inPlaceCover`), as the
 * copy would have read it: an object's other members (inside, when the
 * value is under an array or an object read whole, `whole`; else only
 * checked not to be one of the objects it is in, `ancestors`), an array's
 * other items, whole. An array whose length more than one check reads is
 * read once where it is handed on (`held`, `copies`), so that its length
 * and items are what every subschema sees; each subschema reads an
 * array's length once.
 */
export function inPlacePlan(spec) {
  const nodes = spec.nodes;
  for (const node of nodes) {
    if (!Array.isArray(node)) continue;
    const props = node.find((c) => c[0] === "properties");
    const named = new Set(props === undefined ? [] : props[1].map(([name]) => name));
    const seen = new Set();
    for (const check of node) {
      const [op] = check;
      if (!IN_PLACE_CHECKS.has(op)) return undefined;
      if (MEMBER_READS.has(op)) {
        if (seen.has(op)) return undefined;
        seen.add(op);
      }
      if (op === "const" && typeof check[1] === "object" && check[1] !== null) return undefined;
      if (op === "enum" && check[1].some((x) => typeof x === "object" && x !== null)) return undefined;
      // The written function reads a long list's names a second time (see
      // `hasAll`); `additionalProperties` reads a name it has no property for.
      if (op === "required" && (check[1].length > WRITTEN_NAMES || (node.some((c) => c[0] === "additionalProperties") && !check[1].every((name) => named.has(name))))) return undefined;
      if (op === "additionalProperties" && ((check[3] ?? []).length > 0 || !check[1].every((name) => named.has(name)))) return undefined;
    }
  }
  const reads = (n) => Array.isArray(nodes[n]) && nodes[n].some((c) => MEMBER_READS.has(c[0]));
  const duty = new Array(nodes.length).fill(undefined);
  const whole = new Array(nodes.length).fill(false);
  const copies = new Array(nodes.length).fill(false);
  const done = new Set();
  const entries = [[0, false]];
  let work = 0;
  while (entries.length > 0) {
    const [entry, wholeHere] = entries.pop();
    const key = entry * 2 + (wholeHere ? 1 : 0);
    if (entry < 0 || done.has(key)) continue;
    done.add(key);
    // The subschemas applied to the value handed to `entry`, each time it is
    // applied, and whether under a branch.
    const met = [];
    const path = [];
    const walk = (n, branch) => {
      if (n < 0) return true;
      if (path.includes(n) || ++work > IN_PLACE_WORK) return false;
      met.push([n, branch]);
      const node = nodes[n];
      if (!Array.isArray(node)) return true;
      path.push(n);
      let ok = true;
      for (const check of node) {
        switch (check[0]) {
          case "allOf":
            for (const child of check[1]) ok &&= walk(child, branch);
            break;
          case "ref":
            ok &&= walk(check[1], branch);
            break;
          case "anyOf":
          case "oneOf":
            for (const child of check[1]) ok &&= walk(child, true);
            break;
          case "not":
            ok &&= walk(check[1], true);
            break;
          case "if":
            ok &&= walk(check[1], true) && walk(check[2], true) && walk(check[3], true);
            break;
        }
      }
      path.pop();
      return ok;
    };
    if (!walk(entry, false)) return undefined;
    const readers = met.filter(([n]) => reads(n));
    if (readers.length > 1 || (readers.length === 1 && readers[0][1])) return undefined;
    const reader = readers.length === 1 ? readers[0][0] : entry;
    if (met.filter(([n]) => n === reader).length > 1) return undefined;
    for (const [n] of met) {
      const has = n === reader;
      if (duty[n] !== undefined && duty[n] !== has) return undefined;
      duty[n] = has;
    }
    if (wholeHere) whole[reader] = true;
    // An array's length read by more than one subschema (each reads it
    // once; the cover of what none was handed reads it, unless `items` was
    // handed all): the array is read once, into a copy of its items, where
    // it is handed on.
    const { prefix, itemsFrom } = coverage(Array.isArray(nodes[reader]) ? nodes[reader] : []);
    let lengths = 0;
    for (const [n] of met) {
      const checks = Array.isArray(nodes[n]) ? nodes[n] : [];
      if (checks.some((c) => c[0] === "minItems" || c[0] === "maxItems" || c[0] === "items" || c[0] === "prefixItems") || (n === reader && !(itemsFrom >= 0 && itemsFrom <= prefix))) lengths++;
    }
    if (lengths > 1) copies[entry] = true;
    const node = nodes[reader];
    if (!Array.isArray(node)) continue;
    const everyMember = node.some((c) => c[0] === "additionalProperties");
    for (const check of node) {
      switch (check[0]) {
        case "properties":
          for (const [, child] of check[1]) entries.push([child, wholeHere || everyMember]);
          break;
        case "additionalProperties":
          entries.push([check[2], true]);
          break;
        case "items":
          entries.push([check[1], true]);
          break;
        case "prefixItems":
          for (const child of check[1]) entries.push([child, true]);
          break;
      }
    }
  }
  const covers = nodes.map((node, n) => {
    if (duty[n] !== true) return undefined;
    const { named, everyMember, prefix, itemsFrom } = typeof node === "boolean" ? coverage([]) : coverage(node);
    // The names `required` lists that no `properties` entry has: read by it, their values are checked where they are read.
    const listed = typeof node === "boolean" ? undefined : node.find((c) => c[0] === "required");
    const loose = listed === undefined ? [] : listed[1].filter((name) => !(named ?? []).includes(name));
    return { named: new Set([...(named ?? []), ...loose]), loose, everyMember, prefix, itemsFrom, whole: whole[n] };
  });
  return { duty: duty.map((x) => x === true), covers, copies, ancestors: new Array(MAX_DEPTH + 2), running: false };
}

/** Array.prototype.slice, as `held` calls it. */
const arraySlice = Array.prototype.slice;

/**
 * A value handed to a subschema of a program read in place (see
 * `inPlacePlan`): an array read once, into an array of its items (an
 * array of another kind, another realm's, or longer than any the engines
 * copy at once, goes to the copy path); anything else as it is.
 */
function held(x) {
  if (!Array.isArray(x)) return x;
  if (Object.getPrototypeOf(x) !== Array.prototype) bail();
  const length = x.length;
  if (length > 16) return arraySlice.call(x);
  // A short array is copied faster item by item than by slice.
  const out = new Array(length);
  for (let i = 0; i < length; i++) out[i] = x[i];
  return out;
}

/**
 * What the subschema with a value's duty (see `inPlacePlan`) reads once the
 * value passed: the value is JSON where it lies (as `classify`), and so is
 * what no subschema was handed, as the copy reads it: an array's other
 * items whole (`jsonWhole`); an object's other own enumerable members
 * (one JSON leaves out left out), inside when `whole`, else a container
 * only checked not to be one of the objects it is in.
 */
function inPlaceCover(plan, n, v, z, L) {
  if (typeof v === "object") {
    if (v === null) return;
    if (z > MAX_DEPTH) bail();
    const { named, everyMember, prefix, itemsFrom, whole } = plan.covers[n];
    if (Array.isArray(v)) {
      if (itemsFrom >= 0 && itemsFrom <= prefix) return;
      const length = L === undefined ? v.length : L;
      const end = itemsFrom < 0 ? length : Math.min(length, itemsFrom);
      for (let i = prefix; i < end; i++) jsonItem(v[i], z + 1);
      return;
    }
    if (!plainInPlace(v)) bail();
    if (everyMember) return;
    const ancestors = plan.ancestors;
    // A subschema of no checks has not put it there.
    ancestors[z] = v;
    for (const k in v) if (!named.has(k)) looseMember(v[k], z, whole, ancestors);
  } else if (typeof v === "number") {
    if (v - v !== 0) bail();
  } else if (typeof v !== "string" && typeof v !== "boolean") bail();
}

/**
 * `plain` for a caller's object read in place: of no class, and without a
 * member named toJSON at all (read once here, it is not read again: the
 * copy path answers for such an object).
 */
function plainInPlace(v) {
  if (v.toJSON !== undefined) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * A member of an object read in place that no subschema was handed (see
 * `inPlaceCover`), at the object's level `z`: JSON where it is, inside
 * when `whole`, else a container only checked not to be one of the objects
 * it is in (`ancestors`). One JSON leaves out is left out.
 */
function looseMember(x, z, whole, ancestors) {
  if (typeof x === "object") {
    if (x === null) return;
    if (whole) jsonWhole(x, z + 1);
    else for (let d = 1; d <= z; d++) if (ancestors[d] === x) bail();
  } else if (typeof x === "number") {
    if (x - x !== 0) bail();
  } else if (typeof x === "bigint") bail();
}

/** An array's item, JSON whole (see `jsonWhole`): one JSON writes as null (undefined, a function, a symbol) is not. */
function jsonItem(x, z) {
  if (typeof x === "string" || typeof x === "boolean" || x === null) return;
  jsonWhole(x, z);
}

/**
 * Whether a caller's value is JSON all the way down, each member and item
 * read once, as `valueSnapshot` copies it whole: a finite number, a string,
 * a boolean, null, an array of such items, an object of no class without
 * toJSON of such own enumerable members (one JSON leaves out left out),
 * at most MAX_DEPTH containers deep (a cycle reaches that depth); BAIL
 * where not.
 */
function jsonWhole(x, z) {
  switch (typeof x) {
    case "string":
    case "boolean":
      return;
    case "number":
      if (x - x !== 0) bail();
      return;
    case "object":
      break;
    default:
      bail();
  }
  if (x === null) return;
  if (z > MAX_DEPTH) bail();
  if (Array.isArray(x)) {
    const length = x.length;
    for (let i = 0; i < length; i++) jsonItem(x[i], z + 1);
    return;
  }
  if (!plainInPlace(x)) bail();
  for (const k in x) {
    const y = x[k];
    if (y !== undefined && typeof y !== "function" && typeof y !== "symbol") jsonWhole(y, z + 1);
  }
}

// --- the first executor: JavaScript written from the program ---------------------

/** The shared helpers, as the functions written from programs receive them. */
const HELPERS = { bail, probe, equal, oneOf, unique, minLength, maxLength, multipleOf, pend, FORMATS, hasOwn, plain, jsonMembers, wellFormedAll, absentIfLeftOut, POLLUTION_PROBE, pendingChecks, pendingStrings, hasAll, sequenceMatch, plainEmail, asciiHostname, namesMatch, held, inPlaceCover, plainInPlace, jsonItem, jsonWhole, looseMember };

/** Whether object `v` has every member of `names` (as `memberSource` reads members in `mode`). */
function hasAll(v, names, mode) {
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const x = inherited(name) && !hasOwn(v, name) ? undefined : v[name];
    if (x === undefined || (mode === VALUE && absentIfLeftOut(x) === undefined)) return false;
  }
  return true;
}

/** A caller's member as JSON reads it: what JSON leaves out of an object (a function, a symbol) is absent. */
function absentIfLeftOut(x) {
  return typeof x === "function" || typeof x === "symbol" ? undefined : x;
}

/** Names inherited from Object.prototype: read as own members only. */
function inherited(name) {
  return name in Object.prototype;
}

/** A caller's object JSON writes as an object: of no class (of any realm), without toJSON. */
function plain(v) {
  if (typeof v.toJSON === "function") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

/** The members of a caller's object JSON writes: the own enumerable ones whose values it does not leave out. */
function jsonMembers(v) {
  let n = 0;
  for (const k in v) {
    const x = v[k];
    if (x !== undefined && typeof x !== "function" && typeof x !== "symbol") n++;
  }
  return n;
}

/** Whether every string in a caller's value (an array's items, at any depth) is well-formed UTF-16. */
function wellFormedAll(v) {
  if (typeof v === "string") return v.isWellFormed();
  if (typeof v !== "object" || v === null) return true;
  for (const k in v) if (!wellFormedAll(k) || !wellFormedAll(v[k])) return false;
  return true;
}

/** Lists longer than this are checked by a loop over them, not written out name by name. */
const WRITTEN_NAMES = 16;

/** A program larger than this (its JSON text, in characters) is interpreted rather than written out. */
const WRITTEN_PROGRAM = 200_000;

/** The member names a node reads of its value (for the reads made once at its start). */
function namesRead(node) {
  const names = [];
  const add = (name) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const check of node) {
    switch (check[0]) {
      case "required":
        if (check[1].length <= WRITTEN_NAMES) check[1].forEach(add);
        break;
      case "properties":
        for (const [name] of check[1]) add(name);
        break;
      case "dependentRequired":
        for (const [name, others] of check[1]) {
          add(name);
          others.forEach(add);
        }
        break;
      case "dependencies":
        for (const [name, others] of check[1]) {
          add(name);
          others.forEach(add);
        }
        for (const [name] of check[2]) add(name);
        break;
    }
  }
  return names;
}

/** Whether a node's checks look at an object (so the node tells objects apart at its start). */
function readsObjects(node) {
  return node.some((check) => ["required", "properties", "patternProperties", "dependentRequired", "dependencies", "additionalProperties", "unevaluatedProperties", "propertyNames", "minProperties", "maxProperties"].includes(check[0]));
}

/**
 * The program as one function written from source for `mode`, or
 * undefined where the runtime refuses to make one (the interpreter then
 * runs it); with `plan`, one that reads a caller's value where it lies
 * (see `inPlacePlan`).
 */
function written(spec, judgeNow, judgePending, mode, plan) {
  if (JSON.stringify(spec.nodes).length > WRITTEN_PROGRAM) return undefined;
  const { lines, constants } = writtenSource(spec, mode, plan);
  const make = functionFrom(["H", "K", "now", "judgePending", "P"], lines);
  return make === undefined ? undefined : make(HELPERS, constants, judgeNow, judgePending, plan);
}

/**
 * The source `written` makes its function of (`lines`, the body of a
 * function of H, the helpers, K, the `constants` it reads, now and
 * judgePending), for `written` and for the tests that read what a node's
 * function does.
 */
export function writtenSource(spec, mode, plan) {
  const constants = [];
  const constant = (value) => {
    constants.push(value);
    return `K[${constants.length - 1}]`;
  };
  const lines = [
    "const { bail, probe, equal, oneOf, unique, minLength, maxLength, multipleOf, pend, FORMATS, hasOwn, plain, jsonMembers, wellFormedAll, absentIfLeftOut, POLLUTION_PROBE, pendingChecks, pendingStrings, hasAll, sequenceMatch, plainEmail, asciiHostname, namesMatch, held, inPlaceCover, plainInPlace, jsonItem, jsonWhole, looseMember } = H;",
    "const A = P === undefined ? undefined : P.ancestors;",
    "let refs = 0, nesting = 0;",
  ];
  spec.nodes.forEach((node, index) => {
    // Of a value read in place, the subschema with its duty (see `inPlacePlan`).
    const duty = plan !== undefined && plan.duty[index];
    lines.push(`function n${index}(v, d, z) {`);
    if (node === true) lines.push(mode === TEXT ? "probe(v, z); return true;" : duty ? `const L = Array.isArray(v) ? v.length : 0;\n${inPlaceCoverSource(plan, index).join("\n")}\nreturn true;` : "return true;");
    else if (node === false) lines.push("return false;");
    else {
      const names = namesRead(node);
      const reads = new Map(names.map((name, i) => [name, `m${i}`]));
      if (duty && !plan.covers[index].whole) lines.push("if (typeof v === \"object\" && v !== null) A[z] = v;");
      // Read in place, an array's length is read once by each subschema.
      if (plan !== undefined) lines.push("const L = Array.isArray(v) ? v.length : 0;");
      if (readsObjects(node)) lines.push("const o = typeof v === \"object\" && v !== null && !Array.isArray(v);");
      names.forEach((name, i) => lines.push(`const m${i} = o ? ${memberSource(name, mode)} : undefined;`));
      // Of a parsed text, a node applied to the same value only on a
      // condition (a dependency's schema, if's then) covers the value when it
      // passes (see `coverage`): the node's own cover is then left out.
      const cover = duty ? inPlaceCoverSource(plan, index, reads) : coverSource(node, mode);
      const covers = mode === TEXT && cover.length > 0 && node.some(coversOnCondition);
      if (covers) lines.push("let covered = false;");
      for (const check of node) lines.push(...checkSource(check, constant, spec, reads, mode, covers, plan));
      if (covers) lines.push("if (!covered) {", ...cover, "}");
      else lines.push(...cover);
      lines.push("return true;");
    }
    lines.push("}");
  });
  // The run: a polluted Object.prototype would lend every object its
  // members; the strings set aside are judged once the rest passes.
  lines.push(
    "const run = (v) => {",
    "for (const name in POLLUTION_PROBE) bail();",
    "refs = 0; nesting = 0;",
    "if (pendingChecks.length !== 0) { pendingChecks.length = 0; pendingStrings.length = 0; }",
    `return n0(${plan !== undefined && plan.copies[0] ? "held(v)" : "v"}, 1, 1) && (pendingChecks.length === 0 || judgePending());`,
    "};",
    // For the collector (see `collector`): whether a node passes, decided
    // alone, and the first of an array's items from an index that does not.
    `const nodes = [${spec.nodes.map((_, index) => `n${index}`).join(", ")}];`,
    "run.passes = (n, v, z) => nodes[n](v, 0, z);",
    "run.firstFailing = (n, items, from, z) => { const fn = nodes[n]; for (let i = from; i < items.length; i++) if (!fn(items[i], 0, z)) return i; return -1; };",
    "run.reset = () => { refs = 0; nesting = 0; };",
    "return run;",
  );
  return { lines, constants };
}

/**
 * A member read: `v[name]`, only an own one for names Object.prototype
 * has; of a caller's value, what JSON leaves out (a function, a symbol)
 * reads as absent.
 */
function memberSource(name, mode) {
  const key = JSON.stringify(name);
  const read = inherited(name) ? `(hasOwn(v, ${key}) ? v[${key}] : undefined)` : `v[${key}]`;
  return mode === TEXT ? read : `absentIfLeftOut(${read})`;
}

/** `inPlaceCover` of node `index`, written out (see `inPlacePlan`). */
function inPlaceCoverSource(plan, index, reads = new Map()) {
  const { named, loose, everyMember, prefix, itemsFrom, whole } = plan.covers[index];
  const lines = ["if (typeof v === \"object\") { if (v !== null) {", `if (z > ${MAX_DEPTH}) bail();`];
  if (itemsFrom >= 0 && itemsFrom <= prefix) lines.push("if (Array.isArray(v)) {}");
  else lines.push(`if (Array.isArray(v)) { for (let i = ${prefix}, n = ${itemsFrom < 0 ? "L" : `Math.min(L, ${itemsFrom})`}; i < n; i++) jsonItem(v[i], z + 1); }`);
  lines.push("else { if (!plainInPlace(v)) bail();");
  for (const name of loose) lines.push(`looseMember(${reads.get(name)}, z, ${whole}, A);`);
  if (!everyMember) {
    const skip = named.size === 0 ? "" : `switch (k) { ${[...named].map((n) => `case ${JSON.stringify(n)}:`).join(" ")} continue; }`;
    const inside = whole ? "jsonWhole(x, z + 1);" : "for (let e = 1; e <= z; e++) if (A[e] === x) bail();";
    lines.push(
      "A[z] = v;",
      `for (const k in v) { ${skip} const x = v[k]; if (typeof x === "object") { if (x !== null) { ${inside} } } else if (typeof x === "number") { if (x - x !== 0) bail(); } else if (typeof x === "bigint") bail(); }`,
    );
  }
  lines.push("} } }", "else if (typeof v === \"number\") { if (v - v !== 0) bail(); }", "else if (typeof v !== \"string\" && typeof v !== \"boolean\") bail();");
  return lines;
}


/**
 * What a value that passed a node's `type`, `const` and `enum` may be, as
 * bits: null 1, boolean 2, a finite number 4, a number that may be
 * infinite 8 (with 4), string 16, array 32, object 64. An integer is
 * finite; so is a number a schema names.
 */
const PASSES_ANY = 127;
const PASSES_INFINITE = 8;
const PASSES_CONTAINERS = 32 | 64;

function passingTypes(check) {
  if (check[0] === "type") {
    const mask = check[1];
    return (mask & (1 | 2 | 16 | 32 | 64)) | (mask & 8 ? 4 | 8 : 0) | (mask & 4 ? 4 : 0);
  }
  const values = check[0] === "const" ? [check[1]] : check[1];
  let types = 0;
  for (const x of values) {
    if (x === null) types |= 1;
    else if (typeof x === "boolean") types |= 2;
    else if (typeof x === "number") types |= 4;
    else if (typeof x === "string") types |= 16;
    else types |= Array.isArray(x) ? 32 : 64;
  }
  return types;
}

/**
 * The applicators whose children a node's keywords reach, and `probes`:
 * the types (see `passingTypes`) of a value that passed the node that its
 * cover must look at, for `coverSource`: none where the node passes only
 * if a node it applies to the same value passed (a `$ref`, `allOf`,
 * `anyOf`, `oneOf`, or `if` with `else`), as a node that passed has
 * covered its value whole.
 */
function coverage(node) {
  let named;
  let everyMember = false;
  let prefix = 0;
  let itemsFrom = -1;
  let types = PASSES_ANY;
  let inPlace = false;
  for (const check of node) {
    switch (check[0]) {
      case "type":
      case "const":
      case "enum":
        types &= passingTypes(check);
        break;
      case "ref":
        inPlace = true;
        break;
      case "allOf":
      case "anyOf":
      case "oneOf":
        if (check[1].length > 0) inPlace = true;
        break;
      case "if":
        if (check[3] >= 0) inPlace = true;
        break;
      case "properties":
        named = check[1].map(([name]) => name);
        break;
      case "additionalProperties":
      case "unevaluatedProperties":
        everyMember = true;
        break;
      case "prefixItems":
        prefix = Math.max(prefix, check[1].length);
        break;
      case "items":
      case "unevaluatedItems":
        itemsFrom = itemsFrom < 0 ? check[2] : Math.min(itemsFrom, check[2]);
        break;
    }
  }
  return { named, everyMember, prefix, itemsFrom, probes: inPlace ? 0 : types };
}

/**
 * What a node adds once its keywords pass. A number must be finite and a
 * container within the core's nesting. Of a parsed text, the members and
 * items no child node received are probed (see `probe`), for the types a
 * value that passed the node may be (a boolean or an integer item costs no
 * probe); of a caller's value, nothing the schema does not read is read,
 * but what the node read must be JSON.
 */
function coverSource(node, mode) {
  if (mode === VALUE) {
    return [
      "if (typeof v === \"object\") { if (v !== null) { if (z > 127) bail(); if (!Array.isArray(v) && (v.constructor !== Object || v.toJSON !== undefined) && !plain(v)) bail(); } }",
      "else if (typeof v === \"number\") { if (v - v !== 0) bail(); }",
      "else if (typeof v !== \"string\" && typeof v !== \"boolean\") bail();",
    ];
  }
  const { named, everyMember, prefix, itemsFrom, probes } = coverage(node);
  const lines = [];
  if (probes & PASSES_INFINITE) lines.push("if (typeof v === \"number\") { if (v - v !== 0) bail(); }");
  if ((probes & PASSES_CONTAINERS) === 0) return lines;
  lines.push(`${lines.length === 0 ? "" : "else "}if (typeof v === "object" && v !== null) {`, "if (z > 127) bail();");
  // Arrays: the items before `items` (or `unevaluatedItems`) and after `prefixItems`.
  let array = "";
  if (itemsFrom < 0) array = `for (let i = ${prefix}; i < v.length; i++) ${probeSource("v[i]")}`;
  else if (itemsFrom > prefix) array = `for (let i = ${prefix}; i < Math.min(v.length, ${itemsFrom}); i++) ${probeSource("v[i]")}`;
  // Objects: the members no `properties` entry names, unless a keyword reads them all.
  let object = "";
  if (!everyMember) {
    if (named === undefined || named.length === 0) object = `for (const k in v) ${probeSource("v[k]")}`;
    else object = `for (const k in v) { switch (k) { ${named.map((n) => `case ${JSON.stringify(n)}:`).join(" ")} break; default: ${probeSource("v[k]")} } }`;
  }
  if ((probes & PASSES_CONTAINERS) === PASSES_CONTAINERS) {
    if (array !== "") lines.push(`if (Array.isArray(v)) { ${array} }`);
    if (object !== "") lines.push(`${array === "" ? "if (!Array.isArray(v))" : "else"} { ${object} }`);
  } else if (probes & 32) {
    if (array !== "") lines.push(array);
  } else if (object !== "") lines.push(object);
  lines.push("}");
  return lines;
}

/** `probe(item, z + 1)` written out for a scalar item, which is all most items are. */
function probeSource(item) {
  return `{ const x = ${item}; if (typeof x === "number") { if (x - x !== 0) bail(); } else if (typeof x === "object" && x !== null) probe(x, z + 1); }`;
}

/** A type mask's test of `v` (see `type_mask` in src/check_program.rs). */
function typeTest(mask, draft) {
  const parts = [];
  if (mask & 1) parts.push("v === null");
  if (mask & 2) parts.push("typeof v === \"boolean\"");
  if (mask & 8) parts.push("typeof v === \"number\"");
  else if (mask & 4) parts.push(draft === 4 ? "(Number.isInteger(v) && (Math.abs(v) <= 9007199254740992 || Math.abs(v) >= 9223372036854775808))" : "Number.isInteger(v)");
  if (mask & 16) parts.push("typeof v === \"string\"");
  if (mask & 32) parts.push("Array.isArray(v)");
  if (mask & 64) parts.push("(typeof v === \"object\" && v !== null && !Array.isArray(v))");
  return parts.length === 0 ? "false" : parts.join(" || ");
}

/** A call of node `n` on `value` at nesting level `z`, deferring string checks when `defer`. */
function call(n, value, z, defer = "d") {
  return `n${n}(${value}, ${defer}, ${z})`;
}

/** A member of `v`, read once at the node's start (see `namesRead`). */
function read(reads, name) {
  return reads.get(name);
}

const referencesReached = new WeakMap();

/**
 * For each node of a program, whether its checks, or those of a node they
 * apply, follow a reference (a node on a loop, or one not yet decided when
 * met again, counts as one that does).
 */
function reachesReference(spec) {
  let reached = referencesReached.get(spec);
  if (reached !== undefined) return reached;
  reached = new Array(spec.nodes.length).fill(undefined);
  const visit = (n) => {
    if (n < 0) return false;
    if (reached[n] !== undefined) return reached[n] !== false;
    // Met again before it is decided: a loop.
    reached[n] = null;
    const node = spec.nodes[n];
    let found = false;
    if (Array.isArray(node)) {
      for (const check of node) {
        if (check[0] === "ref") found = true;
        else for (const [child] of children(check)) if (visit(child)) found = true;
      }
    }
    reached[n] = found;
    return found;
  };
  for (let n = 0; n < spec.nodes.length; n++) visit(n);
  referencesReached.set(spec, reached);
  return reached;
}

/** Whether a check applies a node to the same value on a condition (see `written`). */
function coversOnCondition(check) {
  return (check[0] === "dependencies" && check[2].length > 0) || check[0] === "if";
}

/**
 * A check's source; `covered`: a node applied to the same value that
 * passed sets `covered` (see `written`); with `plan`, of a value read in
 * place: an array handed to a subschema is held first where the plan says
 * (see `held`), and an array's length is read once.
 */
function checkSource(check, constant, spec, reads, mode, covered = false, plan = undefined) {
  const [op] = check;
  const handed = (x, node) => (plan !== undefined && plan.copies[node] ? `held(${x})` : x);
  const length = plan === undefined ? "v.length" : "L";
  const present = (name) => `${read(reads, name)} !== undefined`;
  // A caller's member JSON leaves out (undefined, a function, a symbol) is absent.
  const skipLeftOut = mode === VALUE ? "const x = v[k]; if (x === undefined || typeof x === \"function\" || typeof x === \"symbol\") continue;" : "const x = v[k];";
  switch (op) {
    case "type":
      return [`if (!(${typeTest(check[1], spec.draft)})) return false;`];
    case "const":
    case "enum": {
      const values = op === "const" ? [check[1]] : check[1];
      const primitives = values.filter((x) => typeof x !== "object" || x === null);
      const containers = values.filter((x) => typeof x === "object" && x !== null);
      if (containers.length === 0 && primitives.length <= 4) {
        return [`if (!(${primitives.map((x) => `v === ${JSON.stringify(x)}`).join(" || ") || "false"})) return false;`];
      }
      return [`if (!oneOf(v, ${constant(new Set(primitives))}, ${constant(containers)})) return false;`];
    }
    case "min":
      return [`if (typeof v === "number" && !(v >= ${check[1]})) return false;`];
    case "max":
      return [`if (typeof v === "number" && !(v <= ${check[1]})) return false;`];
    case "xmin":
      return [`if (typeof v === "number" && !(v > ${check[1]})) return false;`];
    case "xmax":
      return [`if (typeof v === "number" && !(v < ${check[1]})) return false;`];
    case "mul": {
      const m = check[1];
      if (Number.isInteger(m) && m <= 9007199254740992) return [`if (typeof v === "number" && !(Number.isInteger(v) && v % ${m} === 0)) return false;`];
      const [scale, units] = decimalOf(m);
      return [`if (typeof v === "number" && !multipleOf(v, ${m}, ${exactBelow(m)}, ${scale}, ${units})) return false;`];
    }
    case "minLength":
      return [`if (typeof v === "string" && !minLength(v, ${check[1]})) return false;`];
    case "maxLength":
      return [`if (typeof v === "string" && !maxLength(v, ${check[1]})) return false;`];
    case "format":
      return [`if (typeof v === "string" && !FORMATS[${JSON.stringify(check[1])}](v)) return false;`];
    case "string":
      return [`if (typeof v === "string") { if (d) pend(${check[1]}, v); else if (!now(${check[1]}, v)) return false; }`];
    case "email":
      return [`if (typeof v === "string" && !plainEmail(v)) { if (d) pend(${check[1]}, v); else if (!now(${check[1]}, v)) return false; }`];
    case "hostname":
      return [
        `if (typeof v === "string") { const r = asciiHostname(v); if (r === 0) return false;`,
        `if (r < 0) { if (d) pend(${check[1]}, v); else if (!now(${check[1]}, v)) return false; } }`,
      ];
    case "pattern":
      return [
        `if (typeof v === "string") { const r = sequenceMatch(${constant(check[2])}, v); if (r === 0) return false;`,
        `if (r < 0) { if (d) pend(${check[1]}, v); else if (!now(${check[1]}, v)) return false; } }`,
      ];
    case "minItems":
      return [`if (Array.isArray(v) && ${length} < ${check[1]}) return false;`];
    case "maxItems":
      return [`if (Array.isArray(v) && ${length} > ${check[1]}) return false;`];
    case "unique":
      // Two lone surrogates are one U+FFFD to the core: such strings are left to it.
      return [mode === VALUE ? "if (Array.isArray(v) && (!unique(v) || !wellFormedAll(v))) return false;" : "if (Array.isArray(v) && !unique(v)) return false;"];
    case "minProperties":
    case "maxProperties": {
      const count = mode === VALUE ? "jsonMembers(v)" : "Object.keys(v).length";
      return [`if (o && ${count} ${op === "minProperties" ? "<" : ">"} ${check[1]}) return false;`];
    }
    case "required":
      if (check[1].length > WRITTEN_NAMES) return [`if (o && !hasAll(v, ${constant(check[1])}, ${mode})) return false;`];
      return [`if (o && !(${check[1].map(present).join(" && ")})) return false;`];
    case "dependentRequired":
      return check[1].map(([name, names]) => `if (${present(name)} && !(${names.map(present).join(" && ") || "true"})) return false;`);
    case "dependencies": {
      const lines = check[1].map(([name, names]) => `if (${present(name)} && !(${names.map(present).join(" && ") || "true"})) return false;`);
      for (const [name, node] of check[2]) lines.push(covered ? `if (${present(name)}) { if (!${call(node, "v", "z")}) return false; covered = true; }` : `if (${present(name)} && !${call(node, "v", "z")}) return false;`);
      return lines;
    }
    case "properties":
      return check[1].map(([name, node]) => {
        const m = read(reads, name);
        return `if (${m} !== undefined && !${call(node, handed(m, node), "z + 1")}) return false;`;
      });
    case "patternProperties": {
      const tests = check[1].map(([sequence, node]) => {
        const matched = `namesMatch(${constant(sequence)}, k)`;
        return spec.nodes[node] === false ? `if (${matched}) return false;` : `if (${matched} && !${call(node, "x", "z + 1")}) return false;`;
      });
      return [`if (o) { for (const k in v) { ${skipLeftOut} ${tests.join(" ")} } }`];
    }
    case "additionalProperties":
    case "unevaluatedProperties": {
      const [, named, node, patterns = []] = check;
      const matched = patterns.map((sequence) => `if (namesMatch(${constant(sequence)}, k)) continue;`).join(" ");
      const test = `${matched} ${spec.nodes[node] === false ? "return false;" : `if (!${call(node, handed("x", node), "z + 1")}) return false;`}`;
      if (named.length === 0) return [`if (o) { for (const k in v) { ${skipLeftOut} ${test} } }`];
      return [`if (o) { for (const k in v) { switch (k) { ${named.map((n) => `case ${JSON.stringify(n)}:`).join(" ")} break; default: { ${skipLeftOut} ${test} } } } }`];
    }
    case "propertyNames":
      return [`if (o) { for (const k in v) { ${mode === VALUE ? skipLeftOut : ""} if (!${call(check[1], "k", "z + 1")}) return false; } }`];
    case "items":
    case "unevaluatedItems": {
      const [, node, from] = check;
      if (spec.nodes[node] === false) return [`if (Array.isArray(v) && v.length > ${from}) return false;`];
      return [`if (Array.isArray(v)) { for (let i = ${from}, n = ${length}; i < n; i++) if (!${call(node, handed("v[i]", node), "z + 1")}) return false; }`];
    }
    case "prefixItems":
      return [`if (Array.isArray(v)) { const n = ${length};`, ...check[1].map((node, i) => `if (n > ${i} && !${call(node, handed(`v[${i}]`, node), "z + 1")}) return false;`), "}"];
    case "contains": {
      const [, node, min, max] = check;
      return [
        "if (Array.isArray(v)) {",
        "let found = 0;",
        `for (let i = 0; i < v.length; i++) if (${call(node, "v[i]", "z + 1", 0)}) { found++; ${max >= 0 ? `if (found > ${max}) return false;` : `if (found >= ${min}) break;`} }`,
        `if (found < ${min}) return false;`,
        "}",
      ];
    }
    case "allOf":
      return check[1].map((node) => `if (!${call(node, "v", "z")}) return false;`);
    case "anyOf":
      return [`if (!(${check[1].map((node) => call(node, "v", "z", 0)).join(" || ")})) return false;`];
    case "oneOf":
      return [
        "{ let matched = 0;",
        ...check[1].map((node) => `if (${call(node, "v", "z", 0)} && ++matched > 1) return false;`),
        "if (matched !== 1) return false; }",
      ];
    case "not":
      return [`if (${call(check[1], "v", "z", 0)}) return false;`];
    case "if": {
      const [, test, then, otherwise] = check;
      const yes = then >= 0 ? `if (!${call(then, "v", "z")}) return false;` : "";
      const no = otherwise >= 0 ? `if (!${call(otherwise, "v", "z")}) return false;` : "";
      return [`if (${call(test, "v", "z", 0)}) { ${covered ? "covered = true; " : ""}${yes} } else { ${no} }`];
    }
    case "ref":
      // A reference to a node that reaches no reference cannot nest: only
      // the count of references followed is kept.
      if (!reachesReference(spec)[check[1]]) return [`if (++refs > ${REFERENCES}) bail();`, `if (!${call(check[1], "v", "z")}) return false;`];
      return [
        `if (++refs > ${REFERENCES} || ++nesting > ${REFERENCE_NESTING}) bail();`,
        `{ const ok = ${call(check[1], "v", "z")}; nesting--; if (!ok) return false; }`,
      ];
    default:
      throw new Error(`unknown check ${op}`);
  }
}

// --- the second executor: the same program, interpreted -----------------------------

/**
 * Whether `v` is of a type in `mask` (the program's type bits: null 1,
 * boolean 2, integer 4, number 8, string 16, array 32, object 64), for the
 * interpreter and the closures; draft 4's integers are those the core reads
 * as whole numbers.
 */
function typed(mask, v, draft) {
  if (v === null) return (mask & 1) !== 0;
  switch (typeof v) {
    case "boolean":
      return (mask & 2) !== 0;
    case "number":
      if (mask & 8) return true;
      if (!(mask & 4) || !Number.isInteger(v)) return false;
      return draft !== 4 || Math.abs(v) <= 9007199254740992 || Math.abs(v) >= 9223372036854775808;
    case "string":
      return (mask & 16) !== 0;
    case "object":
      return Array.isArray(v) ? (mask & 32) !== 0 : (mask & 64) !== 0;
    default:
      return false;
  }
}

/**
 * `coverSource` for a caller's value, for the interpreter and the closures:
 * a value the program passed is one the core reads (a plain object or
 * array within the depth, a finite number, a string, a boolean, null).
 */
function classify(v, z) {
  if (typeof v === "object") {
    if (v !== null) {
      if (z > MAX_DEPTH) bail();
      if (!Array.isArray(v) && !plain(v)) bail();
    }
  } else if (typeof v === "number") {
    if (v - v !== 0) bail();
  } else if (typeof v !== "string" && typeof v !== "boolean") bail();
}

/**
 * `coverSource` for a parsed text, for the interpreter and the closures:
 * what no child node of a node passed received (`coverage`), probed.
 */
function cover({ named, everyMember, prefix, itemsFrom, probes }, v, z) {
  if ((probes & (PASSES_INFINITE | PASSES_CONTAINERS)) === 0) return;
  if (typeof v === "number") {
    if (v - v !== 0) bail();
    return;
  }
  if (typeof v !== "object" || v === null) return;
  if (z > MAX_DEPTH) bail();
  if (Array.isArray(v)) {
    const end = itemsFrom < 0 ? v.length : Math.min(v.length, Math.max(itemsFrom, prefix));
    for (let i = prefix; i < end; i++) probe(v[i], z + 1);
  } else if (!everyMember) {
    for (const k in v) if (named === undefined || !named.includes(k)) probe(v[k], z + 1);
  }
}

/**
 * The program run by walking it, for a runtime that makes no functions
 * from source. Its decisions are the written functions', check by check.
 */
function interpreted(spec, judgeNow, judgePending, mode, plan = undefined) {
  // Of a value read in place (see `inPlacePlan`): what a check hands a
  // subschema is held first, and `properties` checks the names `required`
  // lists, so that each is read once.
  const hand = plan === undefined ? (x) => x : (x, n) => (plan.copies[n] ? held(x) : x);
  const fusedRequired = (node, n) => {
    const listed = node.find((c) => c[0] === "required");
    if (plan === undefined || listed === undefined) return node;
    // The names no `properties` entry has: their values checked where read (-1).
    const loose = plan.covers[n] === undefined ? [] : plan.covers[n].loose.map((name) => [name, -1]);
    const props = node.find((c) => c[0] === "properties");
    const fused = ["properties", [...(props === undefined ? [] : props[1]), ...loose], new Set(listed[1]), plan.covers[n]?.whole];
    return [...node.filter((c) => c[0] !== "required" && c[0] !== "properties"), fused];
  };
  const nodes = spec.nodes.map((node, n) => (typeof node === "boolean" ? node : fusedRequired(node, n).map(prepared)));
  const covers = spec.nodes.map((node) => (typeof node === "boolean" ? null : coverage(node)));
  const draft = spec.draft;
  let refs = 0;
  let nesting = 0;

  function prepared(check) {
    if (check[0] === "enum" || check[0] === "const") {
      const values = check[0] === "const" ? [check[1]] : check[1];
      return ["in", new Set(values.filter((x) => typeof x !== "object" || x === null)), values.filter((x) => typeof x === "object" && x !== null)];
    }
    if (check[0] === "additionalProperties" || check[0] === "unevaluatedProperties") return ["additionalProperties", new Set(check[1]), check[2], check[3] ?? []];
    if (check[0] === "unevaluatedItems") return ["items", check[1], check[2]];
    if (check[0] === "mul") return ["mul", check[1], exactBelow(check[1]), ...decimalOf(check[1])];
    return check;
  }

  /** A member of object `v`, as `memberSource` reads it. */
  function member(v, name) {
    const x = inherited(name) && !hasOwn(v, name) ? undefined : v[name];
    return mode === VALUE ? absentIfLeftOut(x) : x;
  }

  function leftOut(x) {
    return mode === VALUE && (x === undefined || typeof x === "function" || typeof x === "symbol");
  }

  function node(n, v, d, z) {
    const checks = nodes[n];
    const duty = plan !== undefined && plan.duty[n];
    if (checks === true) {
      if (mode === TEXT) probe(v, z);
      else if (duty) inPlaceCover(plan, n, v, z);
      return true;
    }
    if (checks === false) return false;
    const o = typeof v === "object" && v !== null && !Array.isArray(v);
    if (duty && o) plan.ancestors[z] = v;
    // Read in place, an array's length is read once by each subschema.
    const L = plan !== undefined && Array.isArray(v) ? v.length : undefined;
    for (let c = 0; c < checks.length; c++) if (!check(checks[c], v, d, z, o, L)) return false;
    if (duty) inPlaceCover(plan, n, v, z, L);
    else if (mode === VALUE) classify(v, z);
    else cover(covers[n], v, z);
    return true;
  }

  function present(v, name) {
    return member(v, name) !== undefined;
  }

  function check(c, v, d, z, o, L) {
    switch (c[0]) {
      case "type":
        return typed(c[1], v, draft);
      case "in":
        return oneOf(v, c[1], c[2]);
      case "min":
        return typeof v !== "number" || v >= c[1];
      case "max":
        return typeof v !== "number" || v <= c[1];
      case "xmin":
        return typeof v !== "number" || v > c[1];
      case "xmax":
        return typeof v !== "number" || v < c[1];
      case "mul":
        return typeof v !== "number" || multipleOf(v, c[1], c[2], c[3], c[4]);
      case "minLength":
        return typeof v !== "string" || minLength(v, c[1]);
      case "maxLength":
        return typeof v !== "string" || maxLength(v, c[1]);
      case "format":
        return typeof v !== "string" || FORMATS[c[1]](v);
      case "pattern": {
        if (typeof v !== "string") return true;
        const matched = sequenceMatch(c[2], v);
        if (matched >= 0) return matched === 1;
        if (d) {
          pend(c[1], v);
          return true;
        }
        return judgeNow(c[1], v);
      }
      case "hostname": {
        if (typeof v !== "string") return true;
        const plainly = asciiHostname(v);
        if (plainly >= 0) return plainly === 1;
        if (d) {
          pend(c[1], v);
          return true;
        }
        return judgeNow(c[1], v);
      }
      case "email":
        if (typeof v !== "string" || plainEmail(v)) return true;
        if (d) {
          pend(c[1], v);
          return true;
        }
        return judgeNow(c[1], v);
      case "string":
        if (typeof v !== "string") return true;
        if (d) {
          pend(c[1], v);
          return true;
        }
        return judgeNow(c[1], v);
      case "minItems":
        return !Array.isArray(v) || (L === undefined ? v.length : L) >= c[1];
      case "maxItems":
        return !Array.isArray(v) || (L === undefined ? v.length : L) <= c[1];
      case "unique":
        return !Array.isArray(v) || (unique(v) && (mode === TEXT || wellFormedAll(v)));
      case "minProperties":
        return !o || (mode === VALUE ? jsonMembers(v) : Object.keys(v).length) >= c[1];
      case "maxProperties":
        return !o || (mode === VALUE ? jsonMembers(v) : Object.keys(v).length) <= c[1];
      case "required":
        if (!o) return true;
        for (const name of c[1]) if (!present(v, name)) return false;
        return true;
      case "dependentRequired":
        if (!o) return true;
        for (const [name, names] of c[1]) if (present(v, name) && !names.every((n) => present(v, n))) return false;
        return true;
      case "dependencies":
        if (!o) return true;
        for (const [name, names] of c[1]) if (present(v, name) && !names.every((n) => present(v, n))) return false;
        for (const [name, n] of c[2]) if (present(v, name) && !node(n, v, d, z)) return false;
        return true;
      case "properties":
        if (!o) return true;
        for (const [name, n] of c[1]) {
          const x = member(v, name);
          if (x === undefined) {
            if (c[2] !== undefined && c[2].has(name)) return false;
          } else if (n < 0) looseMember(x, z, c[3], plan.ancestors);
          else if (!node(n, hand(x, n), d, z + 1)) return false;
        }
        return true;
      case "patternProperties":
        if (!o) return true;
        for (const k in v) {
          const x = v[k];
          if (leftOut(x)) continue;
          for (const [sequence, n] of c[1]) if (namesMatch(sequence, k) && !node(n, x, d, z + 1)) return false;
        }
        return true;
      case "additionalProperties":
        if (!o) return true;
        members: for (const k in v) {
          if (c[1].has(k)) continue;
          const x = v[k];
          if (leftOut(x)) continue;
          for (const sequence of c[3]) if (namesMatch(sequence, k)) continue members;
          if (!node(c[2], hand(x, c[2]), d, z + 1)) return false;
        }
        return true;
      case "propertyNames":
        if (!o) return true;
        for (const k in v) if (!leftOut(v[k]) && !node(c[1], k, d, z + 1)) return false;
        return true;
      case "items":
        if (!Array.isArray(v)) return true;
        for (let i = c[2], n = L === undefined ? v.length : L; i < n; i++) if (!node(c[1], hand(v[i], c[1]), d, z + 1)) return false;
        return true;
      case "prefixItems":
        if (!Array.isArray(v)) return true;
        for (let i = 0, n = L === undefined ? v.length : L; i < c[1].length && i < n; i++) if (!node(c[1][i], hand(v[i], c[1][i]), d, z + 1)) return false;
        return true;
      case "contains": {
        if (!Array.isArray(v)) return true;
        const [, n, min, max] = c;
        let found = 0;
        for (let i = 0; i < v.length; i++) {
          if (node(n, v[i], 0, z + 1)) {
            found++;
            if (max >= 0) {
              if (found > max) return false;
            } else if (found >= min) break;
          }
        }
        return found >= min;
      }
      case "allOf":
        for (const n of c[1]) if (!node(n, v, d, z)) return false;
        return true;
      case "anyOf":
        for (const n of c[1]) if (node(n, v, 0, z)) return true;
        return false;
      case "oneOf": {
        let matched = 0;
        for (const n of c[1]) if (node(n, v, 0, z) && ++matched > 1) return false;
        return matched === 1;
      }
      case "not":
        return !node(c[1], v, 0, z);
      case "if":
        if (node(c[1], v, 0, z)) return c[2] < 0 || node(c[2], v, d, z);
        return c[3] < 0 || node(c[3], v, d, z);
      case "ref": {
        if (++refs > REFERENCES || ++nesting > REFERENCE_NESTING) bail();
        const ok = node(c[1], v, d, z);
        nesting--;
        return ok;
      }
      default:
        bail();
    }
  }

  const run = (v) => {
    for (const name in POLLUTION_PROBE) bail();
    refs = 0;
    nesting = 0;
    if (pendingChecks.length !== 0) {
      pendingChecks.length = 0;
      pendingStrings.length = 0;
    }
    return node(0, hand(v, 0), 1, 1) && (pendingChecks.length === 0 || judgePending());
  };
  // For the collector (see `collector`): one check of a node decided on
  // its own, its string checks judged at once, whether a node passes, the
  // first of an array's items from an index that does not, and the run's
  // counts reset.
  run.checkOf = (n, c, v, z) => {
    const o = typeof v === "object" && v !== null && !Array.isArray(v);
    return check(nodes[n][c], v, 0, z, o);
  };
  run.passes = (n, v, z) => node(n, v, 0, z);
  run.firstFailing = (n, items, from, z) => {
    for (let i = from; i < items.length; i++) if (!node(n, items[i], 0, z)) return i;
    return -1;
  };
  run.reset = () => {
    refs = 0;
    nesting = 0;
  };
  return run;
}

// --- the issues of a rejected value, collected here ------------------------------------

/** The checks that make at most one issue, on the value itself. */
const LEAF_CHECKS = new Set(["type", "const", "enum", "min", "max", "xmin", "xmax", "mul", "minLength", "maxLength", "format", "minItems", "maxItems", "minProperties", "maxProperties", "unique"]);

/**
 * The checks that make at most one issue, on the value itself, and whose
 * failure the core may have to judge (a string the program cannot match
 * alone, which the run then asks the core about).
 */
const STRING_CHECKS = new Set(["pattern", "email", "hostname", "string"]);

/** How `collector` visits a check, by its name; any other is an applicator only the core describes. */
const OTHER = 0;
const LEAF = 1;
const IF = 2;
const REQUIRED = 3;
const PROPERTIES = 4;
const ADDITIONAL = 5;
const ITEMS = 6;
const PREFIX_ITEMS = 7;
const ALL_OF = 8;
const REF = 9;
const ALTERNATIVES = 10;
const NOT = 11;
const VISIT_KINDS = new Map([
  ...[...LEAF_CHECKS, ...STRING_CHECKS].map((name) => [name, LEAF]),
  ["if", IF],
  ["required", REQUIRED],
  ["properties", PROPERTIES],
  ["additionalProperties", ADDITIONAL],
  ["items", ITEMS],
  ["prefixItems", PREFIX_ITEMS],
  ["allOf", ALL_OF],
  ["ref", REF],
  ["anyOf", ALTERNATIVES],
  ["oneOf", ALTERNATIVES],
  ["not", NOT],
]);

/**
 * The issue list of a value the program rejected, collected without the
 * core: every issue the core's validator finds (one a failing keyword, one
 * a missing `required` name, one for all of an object's properties
 * `additionalProperties: false` refuses), sorted as the core sorts them
 * (instance path, array indices as numbers; then code; then schema path),
 * the first `maxErrors` kept and `moreErrors` telling whether there were
 * more. What each says is the core's: the program gives each check's code,
 * params and predicate (`says` in src/check_program.rs) and the words
 * around them (`wording`); a sentence is the subject, the predicate and a
 * full stop, exactly the core's where redaction finds nothing to look at in
 * the subject (which this side looks for as the core does) and the
 * predicate (which the core looked at); a failing `if` lists the issues
 * of the branch that applies, a string only the core judges is asked
 * about alone. Anything else throws BAIL and the core lists the issues: an
 * applicator's failure only the core describes (`contains`,
 * `propertyNames`, dependencies, `items: false`, an `anyOf` or `oneOf`
 * whose failing branches fail in the subschemas they apply), more strings
 * for the core to judge than a few, a subschema two references reach for
 * one value (the core lists its issues once), a value past what the core
 * reads, a path or predicate redaction might change, a message past the
 * core's length. Subschemas that pass under those applicators are decided
 * by `inner` (the interpreter), exactly as the accepting run decides them.
 */
function collector(spec, inner) {
  const says = spec.says;
  const wording = spec.wording;
  const [rootSubject, atSubject] = wording.subjects;
  const secretWords = wording.secrets[0];
  const keyRun = new RegExp(wording.secrets[1]);
  const nodes = spec.nodes;
  const pointers = spec.pointers;
  // The schema path of each check of each node, made when first needed. A
  // node's issues name its own place in the schema: the core's path through
  // a reference starts again where it leads.
  const places = nodes.map(() => undefined);
  const placeOf = (n, c) => {
    const list = (places[n] ??= []);
    return (list[c] ??= `${pointers[n]}/${escapeToken(says[n][c][0])}`);
  };
  let found = [];
  let refs = 0;
  let nesting = 0;
  // The instance paths a reference led to each node for: undefined, the
  // one path, or a Set of them once there are two; `reachedNodes` lists
  // the nodes with any, for the next run to forget them.
  const reached = nodes.map(() => undefined);
  const reachedNodes = [];
  // The instance path of the value being visited: object keys as strings,
  // array indices as numbers.
  const trail = [];
  // Each check's kind, for the switch of `visit` (see VISIT_KINDS).
  const kinds = nodes.map((checks) => (typeof checks === "boolean" ? null : checks.map((check) => VISIT_KINDS.get(check[0]) ?? OTHER)));

  // The path of the first d tokens of `trail` as text ("/a/0"), `pathAt[d]`,
  // made when a reference asks for it and kept while d <= `pathsKnown`.
  const pathAt = [""];
  let pathsKnown = 0;

  /** `trail` one token longer; the path made for that level before is another's. */
  function enter(token) {
    if (pathsKnown >= trail.length + 1) pathsKnown = trail.length;
    trail.push(token);
  }

  /** The path of the whole `trail` as text, from the levels already made. */
  function pathText() {
    for (let d = pathsKnown; d < trail.length; d++) pathAt[d + 1] = `${pathAt[d]}/${trail[d]}`;
    pathsKnown = trail.length;
    return pathAt[trail.length];
  }

  function add(schemaPath, code, params, predicate) {
    found.push({ trail: trail.slice(), schemaPath, code, params, predicate });
  }

  // `failing`: the run of this mode already found that node `n` fails for `v`.
  function visit(n, v, z, failing = false) {
    const checks = nodes[n];
    if (checks === true) return;
    // A subschema that passes adds no issue.
    if (!failing && fast !== undefined && checks !== false && fast.passes(n, v, z)) return;
    if (checks === false) {
      add(pointers[n], "falseSchema", null, wording.falseSchema);
      return;
    }
    const said = says[n];
    const kind = kinds[n];
    const o = typeof v === "object" && v !== null && !Array.isArray(v);
    for (let c = 0; c < checks.length; c++) {
      const check = checks[c];
      switch (kind[c]) {
        case LEAF:
          if (!inner.checkOf(n, c, v, z)) add(placeOf(n, c), said[c][1], said[c][2], said[c][3]);
          break;
        case REQUIRED:
          if (o) {
            const names = check[1];
            const s = said[c];
            for (let i = 0; i < names.length; i++) {
              if (member(v, names[i]) !== undefined) continue;
              if (s[3] === null) bail();
              add(placeOf(n, c), s[1], s[2][i], s[3][i]);
            }
          }
          break;
        case PROPERTIES:
          if (o) {
            for (const [name, child] of check[1]) {
              const x = member(v, name);
              if (x === undefined) continue;
              enter(name);
              visit(child, x, z + 1);
              trail.pop();
            }
          }
          break;
        case ADDITIONAL:
          if (o) {
            const named = check[1];
            const child = check[2];
            // Names `patternProperties` matches are the core's to tell apart here.
            if (check[3] !== undefined && check[3].length > 0) {
              if (!inner.checkOf(n, c, v, z)) bail();
              break;
            }
            if (nodes[child] === false) {
              let count = 0;
              for (const k in v) if (!named.includes(k)) count++;
              if (count > 0) {
                const parts = said[c][3];
                if (parts === null) bail();
                add(placeOf(n, c), said[c][1], null, count === 1 ? parts[0] : `${parts[1]}${count}${parts[2]}`);
              }
            } else {
              for (const k in v) {
                if (named.includes(k)) continue;
                enter(k);
                visit(child, v[k], z + 1);
                trail.pop();
              }
            }
          }
          break;
        case ITEMS:
          if (Array.isArray(v)) {
            const child = check[1];
            if (v.length > check[2] && nodes[child] === false) bail();
            if (nodes[child] === true) break;
            const before = found.length;
            for (let i = check[2]; i < v.length; i++) {
              // The items that pass add no issue: the run finds the next
              // one that does not in a loop of its own.
              if (fast !== undefined && (i = fast.firstFailing(child, v, i, z + 1)) < 0) break;
              const x = v[i];
              enter(i);
              visit(child, x, z + 1, fast !== undefined);
              trail.pop();
              // The issues of the items after this one all sort after those
              // found in this array so far: past the cap, none is shown.
              if (found.length - before > cap) break;
            }
          }
          break;
        case PREFIX_ITEMS:
          if (Array.isArray(v)) {
            const children = check[1];
            for (let i = 0; i < children.length && i < v.length; i++) {
              enter(i);
              visit(children[i], v[i], z + 1);
              trail.pop();
            }
          }
          break;
        case ALL_OF:
          for (const child of check[1]) visit(child, v, z);
          break;
        case IF: {
          // The core lists the issues of `then` where `if` passes, of
          // `else` where it does not.
          const next = inner.passes(check[1], v, z) ? check[2] : check[3];
          if (next >= 0) visit(next, v, z);
          break;
        }
        case REF: {
          if (++refs > REFERENCES || ++nesting > REFERENCE_NESTING) bail();
          // The core lists a subschema's issues for a value once however
          // many references reach it: a second one is the core's to list.
          const path = pathText();
          const target = check[1];
          const paths = reached[target];
          if (paths === undefined) {
            reached[target] = path;
            reachedNodes.push(target);
          } else if (typeof paths === "string") {
            if (paths === path) bail();
            reached[target] = new Set([paths, path]);
          } else {
            if (paths.has(path)) bail();
            paths.add(path);
          }
          visit(check[1], v, z);
          nesting--;
          break;
        }
        case NOT:
          // One issue of its own, where the core says it (see `says` in src/check_program.rs).
          if (!inner.checkOf(n, c, v, z)) {
            if (said[c][1] === undefined) bail();
            add(placeOf(n, c), said[c][1], said[c][2], said[c][3]);
          }
          break;
        case ALTERNATIVES:
          if (!inner.checkOf(n, c, v, z)) add(placeOf(n, c), check[0], null, alternatives(check, v, z));
          break;
        default:
          // An applicator whose failure only the core describes: passing, it
          // adds no issue.
          if (!inner.checkOf(n, c, v, z)) bail();
      }
    }
  }

  /**
   * The predicate of a failing `anyOf` or `oneOf` as the core writes it:
   * more than one `oneOf` branch passing is said alone; else the first
   * problem of each of the first branches is named (with the place it is
   * at), which is known here only where each branch is a subschema of
   * checks on the value itself (see `firstProblem`).
   */
  function alternatives(check, v, z) {
    const children = check[1];
    const words = wording.branches;
    if (check[0] === "oneOf") {
      let passing = 0;
      for (const child of children) if (inner.passes(child, v, z)) passing++;
      if (passing > 1) return words.oneOfMany;
      if (passing === 1) bail();
    }
    const head = check[0] === "anyOf" ? words.anyOf : words.oneOfNone;
    if (head === null || children.length > words.most) bail();
    const [alternative, atPlace, beforeProblem, between, more, open, close] = words.words;
    const path = pointerOf(trail);
    const place = path === "" ? "" : `${atPlace}${path}`;
    const shown = Math.min(children.length, words.shown);
    let parts = "";
    for (let i = 0; i < shown; i++) parts += `${i === 0 ? "" : between}${alternative}${i + 1}${place}${beforeProblem}${firstProblem(children[i], v, z)}`;
    if (children.length > shown) parts += `${between}${children.length - shown}${more}`;
    return `${head}${open}${parts}${close}`;
  }

  /**
   * The predicate of the first issue a failing branch has, as the core
   * orders a subschema's checks; BAIL where the branch checks more than
   * the value itself (members, items, other subschemas) or says nothing
   * here.
   */
  function firstProblem(n, v, z, through = 0) {
    const checks = nodes[n];
    if (checks === false) return wording.falseSchema;
    if (checks === true) bail();
    // A branch that is one reference: the first problem of where it leads.
    if (checks.length === 1 && checks[0][0] === "ref") {
      if (through >= BRANCH_REFERENCES) bail();
      return firstProblem(checks[0][1], v, z, through + 1);
    }
    const said = says[n];
    // The first failing check of the value itself, where those are the
    // only checks that fail: the core lists their issues in the order of
    // the checks (an object's members, `required` among them, and the
    // subschemas it applies, it lists in an order of its own).
    let first = -1;
    for (let c = 0; c < checks.length; c++) {
      const name = checks[c][0];
      if (LEAF_CHECKS.has(name) || STRING_CHECKS.has(name)) {
        if (first < 0 && !inner.checkOf(n, c, v, z)) first = c;
      } else if (!inner.checkOf(n, c, v, z)) bail();
    }
    return first < 0 ? bail() : (said[first][3] ?? bail());
  }

  /** An issue's sentence as the core writes it, or BAIL where the core must write it. */
  function sentence(path, predicate) {
    if (predicate === null || predicate === undefined) bail();
    let byPath = sentences.get(predicate);
    if (byPath === undefined) sentences.set(predicate, (byPath = new Map()));
    let text = byPath.get(path);
    if (text === undefined) {
      text = sentenceOf(path, predicate);
      // The same mistakes come back; a stream of new paths is not all kept.
      if (byPath.size >= 256) byPath.clear();
      byPath.set(path, text);
    }
    return text;
  }

  /** Sentences already written, by predicate, then path. */
  const sentences = new Map();

  function sentenceOf(path, predicate) {
    let subject = rootSubject;
    if (path !== "") {
      subject = atSubject + path;
      // The core redacts what may hold a credential, and writes a JSON
      // Pointer's escapes and the characters a terminal acts on its own way.
      if (path.includes("~") || keyRun.test(subject) || mentionsSecret(subject)) bail();
      subject = escapedForDisplay(subject);
    }
    const text = `${subject} ${predicate}.`;
    if (text.length > MAX_MESSAGE) bail();
    return text;
  }

  function mentionsSecret(text) {
    const lower = text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
    for (let i = 0; i < secretWords.length; i++) if (lower.includes(secretWords[i])) return true;
    return false;
  }

  let fast;
  let cap = 0;
  return (v, mode, maxErrors, run) => {
    cap = maxErrors;
    for (const name in POLLUTION_PROBE) bail();
    if (maxErrors < 1) bail();
    sound(v, 1, mode);
    fast = run;
    fast?.reset();
    found = [];
    refs = 0;
    nesting = 0;
    for (let i = 0; i < reachedNodes.length; i++) reached[reachedNodes[i]] = undefined;
    reachedNodes.length = 0;
    pathsKnown = 0;
    inner.reset();
    try {
      // The run of this mode rejected the value: the root fails.
      visit(0, v, 1, fast !== undefined);
    } finally {
      if (trail.length !== 0) trail.length = 0;
    }
    if (found.length === 0) bail();
    const shown = Math.min(found.length, maxErrors);
    // The first `shown` in the core's order: a short list sorted whole, a
    // long one looked through once for them.
    const first = found.length > 2 * shown + 8 ? smallest(found, shown) : found.sort(compareIssues);
    const errors = new Array(shown);
    const trails = new Array(shown);
    for (let i = 0; i < shown; i++) {
      const { trail: at, schemaPath, code, params, predicate } = first[i];
      const path = pointerOf(at);
      const issue = { path, schemaPath, code, message: sentence(path, predicate) };
      if (params !== null) issue.params = copyParams(params);
      errors[i] = issue;
      trails[i] = at;
    }
    const moreErrors = found.length > maxErrors;
    found = [];
    return { errors, moreErrors, wording, trails };
  };
}

/** An instance path's tokens as a JSON Pointer. */
function pointerOf(trail) {
  let out = "";
  for (let i = 0; i < trail.length; i++) {
    const token = trail[i];
    out += typeof token === "number" ? `/${token}` : `/${escapeToken(token)}`;
  }
  return out;
}


/** References followed from an `anyOf` or `oneOf` branch to its first problem (see `firstProblem`). */
const BRANCH_REFERENCES = 16;

/** The longest issue message the core writes whole (`MAX_MESSAGE_CHARS`). */
const MAX_MESSAGE = 1000;

/** A JSON Pointer token. */
function escapeToken(key) {
  return key.includes("~") || key.includes("/") ? key.replace(/~/g, "~0").replace(/\//g, "~1") : key;
}

/** Params as the core gives them, a fresh object for each issue. */
function copyParams(params) {
  const copy = {};
  for (const key in params) {
    const value = params[key];
    copy[key] = Array.isArray(value) ? value.slice() : value;
  }
  return copy;
}

/** `text` with the characters a terminal acts on escaped, as the core's `escape_for_display` writes them. */
function escapedForDisplay(text) {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text)) return text;
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Throws BAIL unless the value reads as the core reads its JSON: finite
 * numbers, nesting within the core's, well-formed strings and keys (the
 * core reads a lone surrogate as U+FFFD), and, of a caller's value, plain
 * objects. One pass over the value, a call only for each container: an
 * array's or object's strings and numbers are looked at in its own loop.
 */
function sound(v, z, mode) {
  switch (typeof v) {
    case "number":
      if (v - v !== 0) bail();
      return;
    case "string":
      if (!v.isWellFormed()) bail();
      return;
    case "boolean":
      return;
    case "object":
      if (v === null) return;
      break;
    default:
      bail();
  }
  if (z > MAX_DEPTH) bail();
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === "number") {
        if (x - x !== 0) bail();
      } else if (typeof x === "string") {
        if (!x.isWellFormed()) bail();
      } else if (typeof x === "object") {
        if (x !== null) sound(x, z + 1, mode);
      } else if (typeof x !== "boolean") bail();
    }
    return;
  }
  if (mode === VALUE && !plain(v)) bail();
  for (const k in v) {
    if (!k.isWellFormed()) bail();
    const x = v[k];
    if (typeof x === "number") {
      if (x - x !== 0) bail();
    } else if (typeof x === "string") {
      if (!x.isWellFormed()) bail();
    } else if (typeof x === "object") {
      if (x !== null) sound(x, z + 1, mode);
    } else if (typeof x !== "boolean") bail();
  }
}

/** The first `k` of `issues` in the core's order (see `compareIssues`), of equal ones the first found. */
function smallest(issues, k) {
  const out = [];
  for (let i = 0; i < issues.length; i++) {
    const issue = issues[i];
    if (out.length === k && compareIssues(issue, out[k - 1]) >= 0) continue;
    let j = out.length < k ? out.length : k - 1;
    while (j > 0 && compareIssues(out[j - 1], issue) > 0) {
      out[j] = out[j - 1];
      j--;
    }
    out[j] = issue;
  }
  return out;
}

/** Issues in the core's order: instance path (array indices as numbers), code, schema path. */
function compareIssues(a, b) {
  return compareTrails(a.trail, b.trail) || compareText(a.code, b.code) || compareText(a.schemaPath, b.schemaPath);
}

/**
 * Two instance paths as the core compares their JSON Pointers: token by
 * token, two that Rust's `u64` parse reads as whole numbers by value, any
 * other two by their text; a path before the longer paths it begins. Two
 * tokens first differing at one place are members of the same container,
 * so both are indices or both keys.
 */
function compareTrails(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    const m = wholeNumber(String(x));
    const k = m === undefined ? undefined : wholeNumber(String(y));
    const order = k === undefined ? compareText(escapeToken(String(x)), escapeToken(String(y))) : m < k ? -1 : m > k ? 1 : 0;
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** A token Rust's `u64` parse reads (digits, maybe after a `+`), as a BigInt; else undefined. */
function wholeNumber(token) {
  if (!/^\+?[0-9]+$/.test(token)) return undefined;
  const n = BigInt(token);
  return n <= 0xffffffffffffffffn ? n : undefined;
}

/** Strings in the order of their UTF-8 bytes (code points), as Rust compares them. */
function compareText(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit ranked so that a surrogate (a code point past U+FFFF) sorts after U+E000–U+FFFF. */
function codePointRank(u) {
  if (u < 0xd800) return u;
  return u <= 0xdfff ? u + 0x2000 : u - 0x800;
}

/** A member of object `v` as the core reads it: own members only (see `memberSource`). */
function member(v, name) {
  const x = v[name];
  return x === undefined || (inherited(name) && !hasOwn(v, name)) ? undefined : x;
}

/**
 * The verdict's message (the core's `schema_message`) from the words the
 * program gives, the issues shown and whether there were more.
 */
export function rejectionMessage(wording, errors, moreErrors) {
  const [one, manyBefore, manyAfter, moreBefore, moreAfter] = wording.message;
  const first = errors[0].message;
  if (moreErrors) return `${moreBefore}${errors.length}${moreAfter}${first}`;
  if (errors.length === 1) return `${one}${first}`;
  return `${manyBefore}${errors.length}${manyAfter}${first}`;
}

/**
 * The verdict's `errorHash` as the core computes it (`error_hash` in
 * src/verdict.rs): the first 128 bits of SHA-256, in hex, of the failure
 * and the sorted distinct (path, code) pairs of the issues shown.
 */
export function errorHashOf(failure, errors) {
  const n = errors.length;
  let order = errors;
  if (n > 1) {
    order = errors.slice();
    if (n > 16) order.sort(comparePairs);
    else {
      // A few issues: sorted in place by insertion.
      for (let i = 1; i < n; i++) {
        const issue = order[i];
        let j = i;
        while (j > 0 && comparePairs(order[j - 1], issue) > 0) {
          order[j] = order[j - 1];
          j--;
        }
        order[j] = issue;
      }
    }
  }
  let text = failure;
  for (let i = 0; i < n; i++) {
    const { path, code } = order[i];
    if (i > 0 && path === order[i - 1].path && code === order[i - 1].code) continue;
    text += `\n${path}\u001f${code}`;
  }
  let hash = hashes.get(text);
  if (hash === undefined) {
    hash = sha256Head(text);
    if (hashes.size >= 256) hashes.clear();
    hashes.set(text, hash);
  }
  return hash;
}

/** Two issues by their (path, code) pairs, in the order of their UTF-8 bytes. */
function comparePairs(a, b) {
  return compareText(a.path, b.path) || compareText(a.code, b.code);
}

/** Error hashes already computed, by the text hashed (a repair loop meets the same list again). */
const hashes = new Map();
const utf8 = new TextEncoder();

const K256 = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The message schedule and the padded message of `sha256Head`, kept between calls (the buffer grows to the longest text hashed). */
const schedule = new Int32Array(64);
let message = new Uint8Array(1024);

/**
 * The first 128 bits of the SHA-256 of `text`'s UTF-8 bytes, as 32
 * lowercase hex digits. Written for the few hundred bytes of an issue
 * list: no allocation but the hex, the state in locals, an ASCII text
 * written into the buffer as it is.
 */
export function sha256Head(text) {
  let length = text.length;
  let ascii = true;
  for (let i = 0; i < length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  let bytes;
  if (!ascii) {
    bytes = utf8.encode(text);
    length = bytes.length;
  }
  const size = ((length + 72) >>> 6) << 6;
  if (message.length < size) message = new Uint8Array(size * 2);
  const m = message;
  if (ascii) for (let i = 0; i < length; i++) m[i] = text.charCodeAt(i);
  else m.set(bytes);
  m[length] = 0x80;
  m.fill(0, length + 1, size - 8);
  const high = Math.floor(length / 0x20000000);
  const low = (length * 8) >>> 0;
  m[size - 8] = high >>> 24;
  m[size - 7] = high >>> 16;
  m[size - 6] = high >>> 8;
  m[size - 5] = high;
  m[size - 4] = low >>> 24;
  m[size - 3] = low >>> 16;
  m[size - 2] = low >>> 8;
  m[size - 1] = low;
  const w = schedule;
  let h0 = 0x6a09e667 | 0;
  let h1 = 0xbb67ae85 | 0;
  let h2 = 0x3c6ef372 | 0;
  let h3 = 0xa54ff53a | 0;
  let h4 = 0x510e527f | 0;
  let h5 = 0x9b05688c | 0;
  let h6 = 0x1f83d9ab | 0;
  let h7 = 0x5be0cd19 | 0;
  for (let at = 0; at < size; at += 64) {
    for (let i = 0; i < 16; i++) {
      const j = at + i * 4;
      w[i] = (m[j] << 24) | (m[j + 1] << 16) | (m[j + 2] << 8) | m[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15];
      const b = w[i - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let k = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (k + s1 + ((e & f) ^ (~e & g)) + K256[i] + w[i]) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + k) | 0;
  }
  return hex8(h0) + hex8(h1) + hex8(h2) + hex8(h3);
}

/** Each byte as two lowercase hex digits. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** A 32-bit word as 8 lowercase hex digits. */
function hex8(word) {
  return HEX[word >>> 24] + HEX[(word >>> 16) & 0xff] + HEX[(word >>> 8) & 0xff] + HEX[word & 0xff];
}

/**
 * A rejected value's issues collected by its program (see `collector`):
 * `{ errors, moreErrors, wording, trails }` (`trails`: each issue's path as
 * keys, array indices as numbers), or undefined where the core must list
 * them. `mode` as for a run (TEXT: JSON.parse built it; VALUE: a whole
 * snapshot of a caller's value).
 */
export function collectedIssues(program, value, mode, maxErrors) {
  if (!programsOn) return undefined;
  try {
    return program.collect(value, mode, maxErrors);
  } catch (error) {
    if (error === BAIL || error instanceof RangeError) return undefined;
    throw error;
  }
}

// --- the third executor: the same program, as closures -----------------------------

/**
 * The program made into one closure per check and per node, with no
 * source written: the closures' code is shared by every schema, so the
 * engine compiles it once for all of them, and a schema checked now and
 * then runs compiled code from its first check (a function written for one
 * schema runs interpreted by the engine until that schema has been checked
 * many times). Its decisions are the interpreter's, check by check. Each
 * node visited adds one to `work.visits`.
 */
function closures(spec, judgeNow, judgePending, mode, work = { visits: 0 }, plan = undefined) {
  const draft = spec.draft;
  const asValue = mode === VALUE;
  // Of a value read in place (see `inPlacePlan`), an array handed to subschema n is held first where the plan says.
  const as = (x) => x;
  const handTo = (n) => (plan !== undefined && plan.copies[n] ? held : as);
  let refs = 0;
  let nesting = 0;
  // Node n's closure; a check reaches a node through this table, so that a
  // `$ref` loop is a loop of calls, not of making closures.
  const fns = new Array(spec.nodes.length);
  const at = (n) => (v, d, z) => fns[n](v, d, z);

  const leftOut = (x) => x === undefined || typeof x === "function" || typeof x === "symbol";
  /** The reader of member `name` of object `v`, as `memberSource` reads it. */
  const reader = (name) => {
    if (inherited(name)) return asValue ? (v) => absentIfLeftOut(hasOwn(v, name) ? v[name] : undefined) : (v) => (hasOwn(v, name) ? v[name] : undefined);
    return asValue ? (v) => absentIfLeftOut(v[name]) : (v) => v[name];
  };
  const presence = (names) => {
    const reads = names.map(reader);
    return (v) => {
      for (let i = 0; i < reads.length; i++) if (reads[i](v) === undefined) return false;
      return true;
    };
  };

  /** A string check only the core makes: set aside (`d`), or judged now. */
  const judged = (id) => (v, d) => {
    if (d) {
      pend(id, v);
      return true;
    }
    return judgeNow(id, v);
  };

  /** A check's closure; `required`: of a value read in place, the names the node's `required` lists, which its `properties` checks. */
  function check(c, required, whole) {
    switch (c[0]) {
      case "type": {
        const mask = c[1];
        return (v) => typed(mask, v, draft);
      }
      case "enum":
      case "const": {
        const values = c[0] === "const" ? [c[1]] : c[1];
        const primitives = new Set(values.filter((x) => typeof x !== "object" || x === null));
        const containers = values.filter((x) => typeof x === "object" && x !== null);
        return (v) => oneOf(v, primitives, containers);
      }
      case "min": {
        const m = c[1];
        return (v) => typeof v !== "number" || v >= m;
      }
      case "max": {
        const m = c[1];
        return (v) => typeof v !== "number" || v <= m;
      }
      case "xmin": {
        const m = c[1];
        return (v) => typeof v !== "number" || v > m;
      }
      case "xmax": {
        const m = c[1];
        return (v) => typeof v !== "number" || v < m;
      }
      case "mul": {
        const m = c[1];
        const exact = exactBelow(m);
        const [scale, units] = decimalOf(m);
        return (v) => typeof v !== "number" || multipleOf(v, m, exact, scale, units);
      }
      case "minLength": {
        const n = c[1];
        return (v) => typeof v !== "string" || minLength(v, n);
      }
      case "maxLength": {
        const n = c[1];
        return (v) => typeof v !== "string" || maxLength(v, n);
      }
      case "format": {
        const test = FORMATS[c[1]];
        return (v) => typeof v !== "string" || test(v);
      }
      case "pattern": {
        const sequence = c[2];
        const core = judged(c[1]);
        return (v, d) => {
          if (typeof v !== "string") return true;
          const matched = sequenceMatch(sequence, v);
          return matched >= 0 ? matched === 1 : core(v, d);
        };
      }
      case "hostname": {
        const core = judged(c[1]);
        return (v, d) => {
          if (typeof v !== "string") return true;
          const plainly = asciiHostname(v);
          return plainly >= 0 ? plainly === 1 : core(v, d);
        };
      }
      case "email": {
        const core = judged(c[1]);
        return (v, d) => typeof v !== "string" || plainEmail(v) || core(v, d);
      }
      case "string": {
        const core = judged(c[1]);
        return (v, d) => typeof v !== "string" || core(v, d);
      }
      case "minItems": {
        const n = c[1];
        return (v, d, z, o, L) => !Array.isArray(v) || (L === undefined ? v.length : L) >= n;
      }
      case "maxItems": {
        const n = c[1];
        return (v, d, z, o, L) => !Array.isArray(v) || (L === undefined ? v.length : L) <= n;
      }
      case "unique":
        return asValue ? (v) => !Array.isArray(v) || (unique(v) && wellFormedAll(v)) : (v) => !Array.isArray(v) || unique(v);
      case "minProperties": {
        const n = c[1];
        return asValue ? (v, d, z, o) => !o || jsonMembers(v) >= n : (v, d, z, o) => !o || Object.keys(v).length >= n;
      }
      case "maxProperties": {
        const n = c[1];
        return asValue ? (v, d, z, o) => !o || jsonMembers(v) <= n : (v, d, z, o) => !o || Object.keys(v).length <= n;
      }
      case "required": {
        const all = presence(c[1]);
        return (v, d, z, o) => !o || all(v);
      }
      case "dependentRequired":
      case "dependencies": {
        const present = c[1].map(([name]) => reader(name));
        const needs = c[1].map(([, names]) => presence(names));
        const schemas = c[0] === "dependencies" ? c[2] : [];
        const applies = schemas.map(([name]) => reader(name));
        const nodes = schemas.map(([, n]) => at(n));
        return (v, d, z, o) => {
          if (!o) return true;
          for (let i = 0; i < present.length; i++) if (present[i](v) !== undefined && !needs[i](v)) return false;
          for (let i = 0; i < applies.length; i++) if (applies[i](v) !== undefined && !nodes[i](v, d, z)) return false;
          return true;
        };
      }
      case "properties": {
        const reads = c[1].map(([name]) => reader(name));
        const ancestors = plan?.ancestors;
        // A name only `required` lists (-1): its value checked where read.
        const nodes = c[1].map(([, n]) => (n >= 0 ? at(n) : (x, d, z) => (looseMember(x, z - 1, whole, ancestors), true)));
        const hands = c[1].map(([, n]) => (n >= 0 ? handTo(n) : as));
        if (required !== undefined) {
          // Read in place, with the node's `required` (see `node`): each name read once.
          const needed = c[1].map(([name]) => required.includes(name));
          return (v, d, z, o) => {
            if (!o) return true;
            for (let i = 0; i < reads.length; i++) {
              const x = reads[i](v);
              if (x === undefined) {
                if (needed[i]) return false;
              } else if (!nodes[i](hands[i](x), d, z + 1)) return false;
            }
            return true;
          };
        }
        return (v, d, z, o) => {
          if (!o) return true;
          for (let i = 0; i < reads.length; i++) {
            const x = reads[i](v);
            if (x !== undefined && !nodes[i](hands[i](x), d, z + 1)) return false;
          }
          return true;
        };
      }
      case "patternProperties": {
        const sequences = c[1].map(([sequence]) => sequence);
        const nodes = c[1].map(([, n]) => at(n));
        return (v, d, z, o) => {
          if (!o) return true;
          for (const k in v) {
            const x = v[k];
            if (asValue && leftOut(x)) continue;
            for (let i = 0; i < sequences.length; i++) if (namesMatch(sequences[i], k) && !nodes[i](x, d, z + 1)) return false;
          }
          return true;
        };
      }
      case "additionalProperties":
      case "unevaluatedProperties": {
        const named = new Set(c[1]);
        const node = at(c[2]);
        const hand = handTo(c[2]);
        const patterns = c[3] ?? [];
        return (v, d, z, o) => {
          if (!o) return true;
          members: for (const k in v) {
            if (named.has(k)) continue;
            const x = v[k];
            if (asValue && leftOut(x)) continue;
            for (let i = 0; i < patterns.length; i++) if (namesMatch(patterns[i], k)) continue members;
            if (!node(hand(x), d, z + 1)) return false;
          }
          return true;
        };
      }
      case "propertyNames": {
        const node = at(c[1]);
        return (v, d, z, o) => {
          if (!o) return true;
          for (const k in v) if (!(asValue && leftOut(v[k])) && !node(k, d, z + 1)) return false;
          return true;
        };
      }
      case "items":
      case "unevaluatedItems": {
        const node = at(c[1]);
        const hand = handTo(c[1]);
        const from = c[2];
        return (v, d, z, o, L) => {
          if (!Array.isArray(v)) return true;
          for (let i = from, n = L === undefined ? v.length : L; i < n; i++) if (!node(hand(v[i]), d, z + 1)) return false;
          return true;
        };
      }
      case "prefixItems": {
        const nodes = c[1].map(at);
        const hands = c[1].map(handTo);
        return (v, d, z, o, L) => {
          if (!Array.isArray(v)) return true;
          for (let i = 0, n = L === undefined ? v.length : L; i < nodes.length && i < n; i++) if (!nodes[i](hands[i](v[i]), d, z + 1)) return false;
          return true;
        };
      }
      case "contains": {
        const node = at(c[1]);
        const min = c[2];
        const max = c[3];
        return (v, d, z) => {
          if (!Array.isArray(v)) return true;
          let found = 0;
          for (let i = 0; i < v.length; i++) {
            if (node(v[i], 0, z + 1)) {
              found++;
              if (max >= 0) {
                if (found > max) return false;
              } else if (found >= min) break;
            }
          }
          return found >= min;
        };
      }
      case "allOf": {
        const nodes = c[1].map(at);
        return (v, d, z) => {
          for (let i = 0; i < nodes.length; i++) if (!nodes[i](v, d, z)) return false;
          return true;
        };
      }
      case "anyOf": {
        const nodes = c[1].map(at);
        return (v, d, z) => {
          for (let i = 0; i < nodes.length; i++) if (nodes[i](v, 0, z)) return true;
          return false;
        };
      }
      case "oneOf": {
        const nodes = c[1].map(at);
        return (v, d, z) => {
          let matched = 0;
          for (let i = 0; i < nodes.length; i++) if (nodes[i](v, 0, z) && ++matched > 1) return false;
          return matched === 1;
        };
      }
      case "not": {
        const node = at(c[1]);
        return (v, d, z) => !node(v, 0, z);
      }
      case "if": {
        const test = at(c[1]);
        const then = c[2] < 0 ? undefined : at(c[2]);
        const otherwise = c[3] < 0 ? undefined : at(c[3]);
        return (v, d, z) => {
          if (test(v, 0, z)) return then === undefined || then(v, d, z);
          return otherwise === undefined || otherwise(v, d, z);
        };
      }
      case "ref": {
        const n = c[1];
        return (v, d, z) => {
          if (++refs > REFERENCES || ++nesting > REFERENCE_NESTING) bail();
          const ok = fns[n](v, d, z);
          nesting--;
          return ok;
        };
      }
      default:
        return bail;
    }
  }

  function node(checks, n) {
    // Of a value read in place, the subschema with its duty (see `inPlacePlan`).
    const duty = plan !== undefined && plan.duty[n];
    if (checks === true) {
      if (duty) {
        return (v, d, z) => {
          inPlaceCover(plan, n, v, z);
          return true;
        };
      }
      return asValue
        ? () => true
        : (v, d, z) => {
            probe(v, z);
            return true;
          };
    }
    if (checks === false) return () => false;
    // Read in place, `properties` checks the names `required` lists, so that each is read once.
    const listed = plan === undefined ? undefined : checks.find((c) => c[0] === "required");
    let made;
    if (listed === undefined) made = checks.map((c) => check(c, undefined));
    else {
      // The names no `properties` entry has, their values checked where read (-1).
      const props = checks.find((c) => c[0] === "properties");
      const loose = plan.covers[n] === undefined ? [] : plan.covers[n].loose.map((name) => [name, -1]);
      const fused = ["properties", [...(props === undefined ? [] : props[1]), ...loose]];
      made = [...checks.filter((c) => c[0] !== "required" && c[0] !== "properties"), fused].map((c) => check(c, c === fused ? listed[1] : undefined, plan.covers[n]?.whole));
    }
    if (plan !== undefined) {
      // Read in place: an array's length read once by each subschema.
      const ancestors = plan.ancestors;
      return (v, d, z) => {
        work.visits++;
        const o = typeof v === "object" && v !== null && !Array.isArray(v);
        if (duty && o) ancestors[z] = v;
        const L = Array.isArray(v) ? v.length : undefined;
        for (let c = 0; c < made.length; c++) if (!made[c](v, d, z, o, L)) return false;
        if (duty) inPlaceCover(plan, n, v, z, L);
        else classify(v, z);
        return true;
      };
    }
    const covered = asValue ? undefined : coverage(checks);
    if (!asValue && (covered.probes & (PASSES_INFINITE | PASSES_CONTAINERS)) === 0) {
      // Of a parsed text, nothing a value that passed may be is left to probe (see `coverage`).
      return (v, d, z) => {
        work.visits++;
        const o = typeof v === "object" && v !== null && !Array.isArray(v);
        for (let c = 0; c < made.length; c++) if (!made[c](v, d, z, o)) return false;
        return true;
      };
    }
    const end = asValue ? classify : (v, z) => cover(covered, v, z);
    return (v, d, z) => {
      work.visits++;
      const o = typeof v === "object" && v !== null && !Array.isArray(v);
      for (let c = 0; c < made.length; c++) if (!made[c](v, d, z, o)) return false;
      end(v, z);
      return true;
    };
  }

  for (let n = 0; n < spec.nodes.length; n++) fns[n] = node(spec.nodes[n], n);
  const root = fns[0];
  const rootHand = handTo(0);
  const run = (v) => {
    for (const name in POLLUTION_PROBE) bail();
    refs = 0;
    nesting = 0;
    if (pendingChecks.length !== 0) {
      pendingChecks.length = 0;
      pendingStrings.length = 0;
    }
    return root(rootHand(v), 1, 1) && (pendingChecks.length === 0 || judgePending());
  };
  // For the collector (see `collector`): whether a node passes, decided
  // alone with its string checks judged at once, the first of an array's
  // items from an index that does not, and the run's counts reset.
  run.passes = (n, v, z) => fns[n](v, 0, z);
  run.firstFailing = (n, items, from, z) => {
    const fn = fns[n];
    for (let i = from; i < items.length; i++) if (!fn(items[i], 0, z)) return i;
    return -1;
  };
  run.reset = () => {
    refs = 0;
    nesting = 0;
  };
  return run;
}

// --- the text path and the value path -------------------------------------------------

/**
 * checkOutput's verdict for a response text checked by the handle's
 * program, or undefined for the core's lane. Only a text JSON.parse reads
 * whole and the program accepts is answered here: the core then finds no
 * fence (JSON starts with none of its characters), no finish reason to
 * read, and the same JSON (JSON.parse keeps a duplicate key's last value,
 * at its first place, as the core's parser does); what JSON.parse accepts
 * and the core does not (an escaped lone surrogate, a number past the
 * double range, nesting past the core's limit) goes to the core.
 */
export function programVerdict(text, handle, schemaHash, requireObject, maxErrors) {
  const program = programOf(handle);
  if (program === null || !program.textSafe) return undefined;
  // An escape of a UTF-16 surrogate: the core refuses a lone one.
  if (text.includes("\\u") && /\\u[dD][89a-fA-F]/.test(text)) return undefined;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (requireObject && (typeof value !== "object" || value === null || Array.isArray(value))) return undefined;
  try {
    if (!program.run(value, TEXT)) return maxErrors === undefined ? undefined : rejectedVerdict(program, value, schemaHash, maxErrors);
  } catch (error) {
    // A stack that ran out in a deep walk: the core decides (and, should
    // its stack run out too, the instance recovers as for any call).
    if (error === BAIL || error instanceof RangeError) return undefined;
    throw error;
  }
  return { ok: true, value, rescue: "none", schemaHash, degraded: false, finishReason: null };
}

/** checkOutput's verdict on a parsed text the program rejected, its issues collected here; undefined where the core must list them. */
function rejectedVerdict(program, value, schemaHash, maxErrors) {
  const collected = collectedIssues(program, value, TEXT, maxErrors);
  if (collected === undefined) return undefined;
  const { errors, moreErrors, wording } = collected;
  return {
    ok: false,
    failure: "schema",
    message: rejectionMessage(wording, errors, moreErrors),
    errors,
    moreErrors,
    errorHash: errorHashOf("schema", errors),
    schemaHash,
    degraded: false,
    rescue: "none",
    finishReason: null,
  };
}

/** A program's answer on a value in VALUE mode: true, false, or undefined where it cannot say. */
export function valueVerdict(program, value) {
  if (!programsOn) return undefined;
  try {
    return program.runValue(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether a program accepts a value in VALUE mode (the value path:
 * `isValid`, `validate`, `~standard.validate`, on the snapshot of the
 * caller's value). False means only that the exact path must answer: the
 * value may be rejected, or the program may not say.
 */
export function valueAccepted(program, value) {
  if (!programsOn) return false;
  try {
    return program.runValue(value);
  } catch {
    return false;
  }
}
