#!/usr/bin/env bash
# Rebuilds vendor/jsonschema: the published jsonschema crate with the patches
# in patches/jsonschema-$VERSION-*.patch, applied in name order;
# vendor/jsonschema-regex, the crate jsonschema reads ECMA-262 patterns with,
# with patches/jsonschema-regex-$VERSION-*.patch; and vendor/fancy-regex, the
# engine jsonschema matches patterns with, with
# patches/fancy-regex-$FANCY_REGEX_VERSION-*.patch; and vendor/regex-syntax, the
# parser both read patterns with and the Unicode tables they use, with
# patches/regex-syntax-$REGEX_SYNTAX_VERSION-*.patch. Run it after changing a
# pinned version or a patch; the result is committed so that a build needs
# nothing but Cargo.
#
# Why patches: in wasm, jsonschema rebuilt the meta-schema validator for every
# schema it compiled (milliseconds each), which made every first check of a
# new schema slow; wasm-meta-cache keeps one per draft, as native builds
# already do. email-plain-address skips the full `email_address` parse (which
# walks the address several times and allocates) for plain ASCII
# dot-atom@host addresses, which that parse always accepts; the domain is
# still checked. email-plain-host goes one step further for `email`: the
# domain that shortcut reads label by label is one `is_valid_hostname`
# accepts unless it is longer than 253 bytes or has an A-label marker, so
# only those are read again (natively, the small benchmark extraction's
# whole check went from 11,125 to about 10,000 instructions).
# email-smtp-mailbox makes `email` and `idn-email` what the specification
# names, an RFC 5321 (RFC 6531) Mailbox: `email_address` by default also takes
# an RFC 5322 header's display text ("Name <a@b.co>"), and reads a quoted local
# part by RFC 5322's rules (a tab inside the quotes, no quoted space).
# external-schema-check adds ValidationOptions::with_schema_check and a
# feature that leaves the built-in meta-schema validators (over
# serde_json::Value) out, so that the package builds jsonschema's keyword
# validators for its tape representation only (crates/schema/src/schema/meta.rs).
# lean-regex-engines (jsonschema and fancy-regex) leaves regex's literal
# prefilters, bounded backtracker and one-pass DFA out: schema patterns
# match short strings, and the first two were about 100 KB of the wasm
# module; the one-pass DFA 7 KB gzip, with no measured change in speed.
# no-evaluate adds a feature that leaves `Validator::evaluate` (structured
# output) out, and with it every keyword's `evaluate`: the package never
# evaluates, but the validators' trait-object vtables kept that code in the
# wasm module.
# single-pattern-engine adds a feature under which the keywords compile every
# pattern on the fancy-regex path (as `PatternOptions::fancy_regex()`, the
# default, does), so they keep no second set of validators for the regex
# engine that only `PatternOptions::regex()` would choose.
# rfc4648-codecs decodes contentEncoding's base16/32/64 with a small decoder
# of its own instead of the data-encoding crate (53 KB raw, 14 KB gzip of
# the wasm module), accepting exactly what data-encoding accepted.
# work-bounded-errors adds Validator::iter_errors_bounded, which collects
# errors without the repeated work iter_errors does where references share a
# subschema or anyOf/oneOf contexts nest (time exponential in the schema),
# and exports LazyInstance so that a representation can report errors
# without copying the instance (which nothing then expects to find in them);
# required checks a long list against an
# object's member names gathered once instead of a lookup per name.
# ecma-unicode (in both crates, manifests only) asks regex, fancy-regex and
# regex-syntax for the Unicode properties an ECMA-262 pattern can name, not
# for all of them: `Age` and the grapheme, word and sentence break tables
# are left out of the wasm module, since `pattern` is ECMA-262.
# u-flag-dialect (jsonschema-regex) reads every pattern as ECMA-262 with the u
# flag's meaning and writes it out for fancy-regex: the translation it
# replaces rewrote only \d, \w, \s and `.`, and left patterns with
# look-arounds or back-references untranslated (where \d then matched any
# Unicode digit), read \b by Unicode word characters, and refused `[^]`
# and \k<name>. `\p{…}` names are those ECMA-262 lists, for format: regex too.
# view-sequence-parts (jsonschema-regex) gives a Sequence's form (its
# classes and state tables) as data: the package's check programs run the
# same matcher in JavaScript for a pattern that is one (src/check_program.rs).
# wrapped-empty-repeats (jsonschema-regex) writes a repeated atom that
# fancy-regex reads as nothing or as one look-around (`(?:)+`, `(?:(?=a))*`,
# which ECMA-262 repeats and fancy-regex refuses to) with a character
# repeated no times beside it: the same match, and one fancy-regex takes.
# grouped-atom-repeats (jsonschema-regex) lets Sequence::compile parse a
# pattern with a quantified group before declining it: the translation
# writes every quantified atom in a group (`(?:[a-z])+`), so its quick filter
# declined every pattern with a quantifier and each went to the regex engine,
# the meta-schema's `^[^#]*#?$` and anchor patterns among them (compiling
# those two was about a third of the first schema compile in the browser).
# The parsed form has no non-capturing groups; a repeated capture or a
# repeated group of several atoms is still declined.
# pattern-budget (jsonschema) and step-budget (fancy-regex) give every match
# a validation makes one shared allowance of work, so that a check bounds all
# its pattern work, not each match's: the backtrack limit alone let a response
# with many subjects each just under it cost minutes. The steps count the work
# the backtrack limit missed as well (each instruction, the text a
# backreference compares, the text a lookaround's inner engine may scan).
# idna2008 checks idn-hostname, idn-email and the A-labels of hostname by
# IDNA2008 (RFC 5890-5893) with packed tables of its own (RFC 5892's derived
# property, Bidi_Class and Joining_Type, from ICU4X's Unicode data; the
# engine's crates/schema/src/schema/idna2008_tests.rs holds them to that data and writes
# them again) instead of the idna crate's UTS 46 and the general categories
# of unicode-general-category: those were 57 KB gzip of the wasm module, the
# new check and its tables about 3 KB.
# work-reference-budget bounds the references a check follows: subschemas
# that each refer twice to the next made validation itself exponential in
# the schema's size.
# packed-unicode-tables (regex-syntax) keeps the Unicode tables a pattern's
# `\p{…}` classes and case folding read packed into bytes by the compiler
# instead of as arrays of `(char, char)` pairs: 154 KB raw and 40 KB gzip
# less of the wasm module, for the same classes (a unit test unpacks every
# table and compares it with the generated one). usable-property-names
# (regex-syntax) keeps in its name and value tables only the properties it
# has tables for, and one list of script names for Script and
# Script_Extensions: the other names were refused all the same (8 KB raw, 3.2 KB gzip).
# shared-sort (jsonschema, jsonschema-regex, regex-syntax) sorts through
# crates/guard-sort, which the package's own crates use too: one instance of
# the standard library's sort in the wasm module instead of one per element
# type and comparison (about 20 instances, 90 KB raw).
# single-map-with-patterns builds additionalProperties' validators for
# objects that also have patternProperties with the bucketed property map
# only, not also with the linear one small maps otherwise get: a second set
# of four large validators for a rare combination of keywords. boxed-match-sites
# boxes the closure that says where a pattern match could not finish before
# it reaches the cold code that records it, which was copied for each of
# about 60 call sites.
# lowercase-table (jsonschema) and ascii-property-names (fancy-regex) leave
# the standard library's Unicode lowercase table (11.7 KB raw, about 8 KB
# gzip of the wasm module) out: the IDNA2008 module lowercases a U-label's
# uppercase letters with 185 runs of its own, exactly as `char::to_lowercase`
# does where that gives one character, and a `\p{…}` name is ASCII.
# no-debug-output (fancy-regex) leaves the VM's trace printing out of
# wasm32-unknown-unknown builds, whose standard output prints nothing, and
# names a hard expression in a panic without formatting it: their `Debug`
# impls and the standard output were linked for text no one could read.
# plain-decimal writes a `multipleOf` error's multiple from serde_json's
# shortest digits, as `{}` writes an f64, so that the module holds one
# float printer instead of two (the standard library's is about 6 KB gzip).
# one-json-reader reads contentMediaType's JSON as bytes, as the package
# reads every JSON text, so that serde_json's parser is built once (over a
# slice) instead of twice (over a slice and over a str).
# exact-decimal-multiple (jsonschema-value) decides `multipleOf` on the
# decimals a number and its divisor print as, past i128 too, by the remainder
# modulo the divisor, instead of falling back on fraction's BigFraction (a
# rational read from about 16 digits of the binary value): the fallback was
# the only use of num-bigint and fraction in the wasm module (12.9 KB gzip).
# core-float-parse (serde_json) parses the numbers its float_roundtrip
# feature reads with the standard library's correctly rounded parser, which
# the tape parser links anyway, instead of a second one of serde_json's own
# (its lexical module and tables, no longer compiled: 9.8 KB gzip).
# literal-strategies-with-prefilters (regex-automata) leaves the meta
# regex's literal extraction and the strategies built on it (a literal
# search for the whole regex, reverse suffix and reverse inner searches) out
# of a build without the literal search engines, which the lean-regex-engines
# patches already leave out: without them no prefilter can be built at all
# (each of the prefilter's choices needs one), so those strategies were
# never chosen and the extraction's work was thrown away.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=0.61.2
# The version jsonschema $VERSION locks (see Cargo.lock).
FANCY_REGEX_VERSION=0.20.2
# The version Cargo.lock holds (regex, regex-automata, fancy-regex and
# jsonschema-regex all read patterns with it).
REGEX_SYNTAX_VERSION=0.8.12
# The versions Cargo.lock holds.
SERDE_JSON_VERSION=1.0.154
REGEX_AUTOMATA_VERSION=0.4.19

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "fetch-jsonschema"
version = "0.0.0"
edition = "2021"
[dependencies]
jsonschema = { version = "=$VERSION", default-features = false }
TOML
mkdir -p "$scratch/src" && touch "$scratch/src/lib.rs"
cargo fetch --quiet --manifest-path "$scratch/Cargo.toml"
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/jsonschema-$VERSION | head -n 1)

# The published manifest names test, bench and example targets whose files are not
# vendored, and dev-dependencies and lints that only the crate's own
# development needs.
trim_manifest() {
  python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sections = re.split(r'(?m)^(?=\[)', text)
drop = re.compile(r'^\[\[(test|bench|example)\]\]|^\[(target\.[^\]]*\.)?dev-dependencies|^\[lints')
kept = [s for s in sections if not drop.match(s)]
open(sys.argv[2], "w").write("".join(kept))
PY
}
# vendor_crate NAME VERSION SOURCE LICENSE: SOURCE's src/ (and docs/, which
# fancy-regex's crate documentation includes) and trimmed manifest into
# vendor/NAME with the LICENSE file given, then patches/NAME-VERSION-*.patch
# in name order.
vendor_crate() {
  local name=$1 version=$2 from=$3 license=$4 patch
  rm -rf "vendor/$name"
  mkdir -p "vendor/$name"
  cp -r "$from/src" "vendor/$name/"
  if [[ -f $from/build.rs ]]; then cp "$from/build.rs" "vendor/$name/"; fi
  if [[ -d $from/docs ]]; then cp -r "$from/docs" "vendor/$name/"; fi
  cp "$license" "vendor/$name/LICENSE"
  trim_manifest "$from/Cargo.toml" "vendor/$name/Cargo.toml"
  for patch in patches/"$name-$version"-*.patch; do
    [[ -e $patch ]] || continue
    patch --quiet --no-backup-if-mismatch -p1 -d "vendor/$name" < "$patch"
  done
  echo "vendor/$name is $name $version with" patches/"$name-$version"-*.patch
}
registry_src() {
  ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$1" | head -n 1
}
vendor_crate jsonschema "$VERSION" "$src" "$src/LICENSE"
# jsonschema-regex: its published crate has no LICENSE file; it comes from
# the same repository as jsonschema, under the same MIT license.
vendor_crate jsonschema-regex "$VERSION" "$(registry_src "jsonschema-regex-$VERSION")" "$src/LICENSE"
# jsonschema-value: the number semantics jsonschema's keywords share, from the
# same repository under the same license (its published crate has no LICENSE
# file either).
vendor_crate jsonschema-value "$VERSION" "$(registry_src "jsonschema-value-$VERSION")" "$src/LICENSE"
fancy=$(registry_src "fancy-regex-$FANCY_REGEX_VERSION")
vendor_crate fancy-regex "$FANCY_REGEX_VERSION" "$fancy" "$fancy/LICENSE"
# regex-syntax is dual licensed (MIT or Apache-2.0): both license files.
syntax=$(registry_src "regex-syntax-$REGEX_SYNTAX_VERSION")
vendor_crate regex-syntax "$REGEX_SYNTAX_VERSION" "$syntax" "$syntax/LICENSE-MIT"
mv vendor/regex-syntax/LICENSE vendor/regex-syntax/LICENSE-MIT
cp "$syntax/LICENSE-APACHE" vendor/regex-syntax/
# serde_json is dual licensed (MIT or Apache-2.0) too; its lexical module is
# what the core-float-parse patch leaves uncompiled.
json=$(registry_src "serde_json-$SERDE_JSON_VERSION")
vendor_crate serde_json "$SERDE_JSON_VERSION" "$json" "$json/LICENSE-MIT"
mv vendor/serde_json/LICENSE vendor/serde_json/LICENSE-MIT
cp "$json/LICENSE-APACHE" vendor/serde_json/
rm -r vendor/serde_json/src/lexical
# regex-automata is dual licensed (MIT or Apache-2.0) too.
automata=$(registry_src "regex-automata-$REGEX_AUTOMATA_VERSION")
vendor_crate regex-automata "$REGEX_AUTOMATA_VERSION" "$automata" "$automata/LICENSE-MIT"
mv vendor/regex-automata/LICENSE vendor/regex-automata/LICENSE-MIT
cp "$automata/LICENSE-APACHE" vendor/regex-automata/
cat > vendor/jsonschema/VENDORED.md <<MD
# jsonschema $VERSION, vendored with patches

Made by \`scripts/vendor-jsonschema.sh\` from the crate published on crates.io,
with these patches applied:

- \`patches/jsonschema-$VERSION-wasm-meta-cache.patch\`: wasm builds keep one
  meta-schema validator per draft instead of building one for every schema
  compiled.
- \`patches/jsonschema-$VERSION-email-plain-address.patch\`: \`email\` and
  \`idn-email\` accept a plain ASCII \`dot-atom@host\` address after checking
  only its domain, without the full \`email_address\` parse (which accepts
  every such address with the default options; other options, and every other
  address, still take the full parse).
- \`patches/jsonschema-$VERSION-email-plain-host.patch\`: for \`email\`, a
  plain address whose domain is at most 253 bytes and has no label with
  \`--\` as its third and fourth bytes is accepted without reading the domain
  again as a host name, and the address's bytes are looked up in tables
  rather than matched.
- \`patches/jsonschema-$VERSION-email-smtp-mailbox.patch\`: with the
  default options, \`email\` and \`idn-email\` are RFC 5321 (RFC 6531)
  Mailboxes: no display text, and a quoted local part holds what
  \`Quoted-string\` allows (no tab; a quoted-pair may quote a space).
- \`patches/jsonschema-$VERSION-external-schema-check.patch\`:
  \`ValidationOptions::with_schema_check\` checks schemas against their
  meta-schema with a caller's function, and the \`external-schema-check\`
  feature leaves the built-in meta-schema validators (over
  \`serde_json::Value\`) out of the build.
- \`patches/jsonschema-$VERSION-no-evaluate.patch\`: the \`no-evaluate\`
  feature leaves \`Validator::evaluate\` and \`jsonschema::evaluate\`
  (structured output) out of the build, and with them every keyword's
  \`evaluate\`; \`is_valid\`, \`validate\` and \`iter_errors\` are unchanged.
- \`patches/jsonschema-$VERSION-single-pattern-engine.patch\`: the
  \`single-pattern-engine\` feature compiles every pattern as
  \`PatternOptions::fancy_regex()\` (the default) does, whatever the pattern
  options say, so the keywords keep no validators for the regex engine.
- \`patches/jsonschema-$VERSION-rfc4648-codecs.patch\`: \`contentEncoding\`
  (base16, base32, base32hex, base64, base64url) is decoded by a small RFC
  4648 decoder in \`content_encoding.rs\` instead of the \`data-encoding\`
  crate; it accepts exactly the texts that crate accepted.
- \`patches/jsonschema-$VERSION-ecma-unicode.patch\` (manifest only): regex
  and fancy-regex with only the Unicode properties an ECMA-262 pattern can
  name; no \`Age\`, no grapheme, word or sentence break tables.
- \`patches/jsonschema-$VERSION-idna2008.patch\`: \`idn-hostname\`,
  \`idn-email\` and the A-labels of \`hostname\` are checked as IDNA2008
  (RFC 5890-5893) defines host names, by \`vendor/jsonschema/src/idna2008.rs\` and its
  packed tables of RFC 5892's derived property, Bidi_Class and
  Joining_Type (from ICU4X's Unicode data), instead of the \`idna\`
  crate's UTS 46 and \`unicode-general-category\`: the \`idna\` feature
  needs neither crate. A host name is mapped only as far as the label
  separators U+3002, U+FF0E and U+FF61 (read as \`.\`) and uppercase
  letters (read as lowercase); U-labels are checked as written.
- \`patches/jsonschema-$VERSION-lowercase-table.patch\`: the IDNA2008 module
  lowercases an uppercase letter of a U-label with a table of its own
  (\`LOWERCASE\` in \`vendor/jsonschema/src/idna2008/tables.rs\`: 185 runs of
  code points that one difference maps), which gives what the standard
  library's \`char::to_lowercase\` gives wherever that is one character (a
  unit test compares every code point), instead of that function, whose
  table of 1,400 pairs was 11.7 KB of the wasm module.
- \`patches/jsonschema-$VERSION-plain-decimal.patch\`: a \`multipleOf\` error's
  message writes the multiple with \`PlainDecimal\` (exported), which writes an
  \`f64\` in the positional notation \`{}\` does from the digits \`serde_json\`
  writes it with, instead of with the standard library's float printer.
- \`patches/jsonschema-$VERSION-one-json-reader.patch\`: \`contentMediaType\`
  \`application/json\` reads the string as bytes (\`serde_json::from_slice\`),
  as every other JSON text of the package is read, so that one instance of
  serde_json's parser serves both; a \`&str\` is UTF-8, so the same texts pass.
- \`patches/jsonschema-$VERSION-lean-regex-engines.patch\` (manifest only):
  regex and fancy-regex without the literal prefilters (aho-corasick, memchr),
  the bounded backtracker and the one-pass DFA; the lazy DFA stays.
- \`patches/jsonschema-$VERSION-pattern-budget.patch\`:
  \`with_pattern_budget(steps, run)\` gives every pattern match validation
  makes inside \`run\` one allowance of fancy-regex steps (see
  vendor/fancy-regex), \`begin_pattern_budget\`/\`end_pattern_budget\` one
  that spans calls, and \`outside_pattern_budget\` runs work the allowance
  must not pay for; a match it cannot pay for is unfinished, as at the
  backtrack limit, and validation then stops assuming outcomes.
- \`patches/jsonschema-$VERSION-work-bounded-errors.patch\`:
  \`Validator::iter_errors_bounded\` collects errors with the work bounded:
  a subschema that several references reach adds its errors for an instance
  node to a list once, each branch of an \`anyOf\`/\`oneOf\` context keeps
  its first error, and the contexts below one error collect a given number
  of branches at most (\`iter_errors\` is unchanged); \`json::LazyInstance\`
  is exported, so that a representation's nodes can override
  \`Node::lazy_value\` and report errors without a copy of the instance,
  which an error's \`Display\` and the error for a match that could not
  finish no longer need; \`required\` checks a list of more than 64 names
  against an object of more than 64 members by gathering the member names
  once instead of a lookup per name.
- \`patches/jsonschema-$VERSION-work-reference-budget.patch\`: the same
  allowance bounds the references validation follows
  (\`REFERENCES_PER_BUDGET\`); a reference it cannot pay for is not followed,
  and \`reference_refused()\` tells the caller that the outcome was not
  decided.
- \`patches/jsonschema-$VERSION-shared-sort.patch\`: every sort goes through
  \`guard_sort\` (crates/guard-sort, a path dependency), the stable sort
  the package's crates share, so that the wasm module holds one instance of
  the standard library's sort instead of one per element type and
  comparison; the order it gives is the stable sort's.
- \`patches/jsonschema-$VERSION-single-map-with-patterns.patch\`:
  \`additionalProperties\` beside \`properties\` and
  \`patternProperties\` looks declared names up in the bucketed map
  (\`BigValidatorsMap\`) however many there are, so those two validators
  are built for one map type instead of two.
- \`patches/jsonschema-$VERSION-boxed-match-sites.patch\`: the closure that
  says where a pattern match could not finish is boxed before the cold code
  that records such a match, which is then built once instead of once per
  call site.

Nothing else differs from
the published source except that the manifest drops test, bench,
dev-dependency and lint sections. MIT licensed (LICENSE).
MD
cat > vendor/jsonschema-value/VENDORED.md <<MD
# jsonschema-value $VERSION, vendored with patches

Made by \`scripts/vendor-jsonschema.sh\` from the crate published on
crates.io (the version jsonschema $VERSION depends on), with these patches
applied:

- \`patches/jsonschema-value-$VERSION-exact-decimal-multiple.patch\`:
  \`is_multiple_of_float\` decides whether the decimal a number prints as is
  a multiple of the decimal its divisor prints as exactly wherever they are
  finite: where the two scaled mantissas leave \`i128\`, by the remainder
  of the mantissa times a power of ten modulo the divisor, instead of
  \`fraction\`'s \`BigFraction\` of the two binary values, which read
  about 16 significant digits of each. Without the \`arbitrary-precision\`
  feature, nothing in the crate then uses \`fraction\` or \`num-bigint\`.

Nothing else differs from the published source except that the manifest
drops test, dev-dependency and lint sections. MIT licensed: the published
crate has no LICENSE file, so LICENSE is the one of jsonschema, which comes
from the same repository under the same license.
MD
cat > vendor/serde_json/VENDORED.md <<MD
# serde_json $SERDE_JSON_VERSION, vendored with patches

Made by \`scripts/vendor-jsonschema.sh\` from the crate published on
crates.io (the version Cargo.lock holds), with these patches applied:

- \`patches/serde_json-$SERDE_JSON_VERSION-core-float-parse.patch\`: with the
  \`float_roundtrip\` feature, a number with a fraction or an exponent is
  written out again from the digits the deserializer read and parsed by the
  standard library's \`str::parse::<f64>\` (\`f32\` for \`f32\` fields),
  which is correctly rounded as serde_json's own \`lexical\` module is; the
  module is not compiled, and the script leaves its files out.

Nothing else differs from the published source except that the manifest
drops test, bench, example and dev-dependency sections. Licensed MIT or
Apache-2.0 (LICENSE-MIT, LICENSE-APACHE, the crate's own).
MD
cat > vendor/regex-automata/VENDORED.md <<MD
# regex-automata $REGEX_AUTOMATA_VERSION, vendored with patches

Made by \`scripts/vendor-jsonschema.sh\` from the crate published on
crates.io (the version Cargo.lock holds), with these patches applied:

- \`patches/regex-automata-$REGEX_AUTOMATA_VERSION-literal-strategies-with-prefilters.patch\`:
  without the literal search engines (\`perf-literal-substring\`,
  \`perf-literal-multisubstring\`), the meta regex extracts no literals:
  it builds no prefilter of its own (a caller's still applies) and none of
  the strategies built on literals (a literal search standing in for the
  regex, the reverse suffix and reverse inner searches), which leaves that
  code out of the build. Without those engines no prefilter can be built
  (each of the prefilter's choices needs one of them), so the strategies
  were never chosen and every search runs as before. The manifest declares
  the crate's \`docsrs_regex\` cfg, as the published manifest's lint
  section does.

Nothing else differs from the published source except that the manifest
drops test, bench, example and dev-dependency sections. Licensed MIT or
Apache-2.0 (LICENSE-MIT, LICENSE-APACHE, the crate's own).
MD
cat > vendor/fancy-regex/VENDORED.md <<MD
# fancy-regex $FANCY_REGEX_VERSION, vendored with patches

Made by \`scripts/vendor-jsonschema.sh\` from the crate published on
crates.io (the version jsonschema $VERSION locks), with these patches applied:

- \`patches/fancy-regex-$FANCY_REGEX_VERSION-step-budget.patch\`:
  \`Regex::is_match_within(text, &mut steps)\` spends the backtracking VM's
  work from an allowance many calls can share, failing with
  \`RuntimeError::StepLimitExceeded\` (and leaving nothing) when it runs
  out. A step is one instruction or backtrack, one byte a backreference
  compares, or one byte a delegated search (a lookaround's body) may read:
  the longest text the delegated pattern can match and a character more, or
  the rest of the text when its matches are unbounded. Every other entry
  point runs with an unlimited allowance, as before.
- \`patches/fancy-regex-$FANCY_REGEX_VERSION-lean-regex-engines.patch\`
  (manifest only): regex-automata without the one-pass DFA, as jsonschema's
  own lean-regex-engines patch asks of regex.
- \`patches/fancy-regex-$FANCY_REGEX_VERSION-ascii-property-names.patch\`: a \`\\p{…}\`
  name is lowercased as ASCII (\`to_ascii_lowercase\`), which names the same
  properties (their names are ASCII) without the standard library's Unicode
  lowercase tables.
- \`patches/fancy-regex-$FANCY_REGEX_VERSION-no-debug-output.patch\`: the VM's trace
  printing is left out of wasm32-unknown-unknown builds, whose standard
  output prints nothing, and the panic for writing out a hard expression
  names it without formatting it: no \`Debug\` of the syntax tree or of the
  program, and no standard output, is built into the wasm module.
- \`patches/fancy-regex-$FANCY_REGEX_VERSION-saturating-sizes.patch\`: the least
  length of a repetition and of a delegate's fragments saturates instead of
  overflowing, so a pattern like \`(?<=\\1dM{7777…})\` with a count past
  usize is refused by the size limits, never a panic in a build with
  overflow checks.

Nothing else differs from the published source except that the manifest
drops test, bench, example and dev-dependency sections. MIT licensed
(LICENSE, the crate's own).
MD
cat > vendor/regex-syntax/VENDORED.md <<MD
# regex-syntax $REGEX_SYNTAX_VERSION, vendored with patches

Made by \`scripts/vendor-jsonschema.sh\` from the crate published on
crates.io (the version Cargo.lock holds), with these patches applied:

- \`patches/regex-syntax-$REGEX_SYNTAX_VERSION-packed-unicode-tables.patch\`:
  the general category, script, script extension and binary property
  tables, and the simple case folding table, are packed by the compiler
  (\`vendor/regex-syntax/src/unicode_tables/packed.rs\`: each range as its distance from the
  previous one and its length, in LEB128) and unpacked when a pattern asks
  for a class; the case folding table is unpacked once, when a
  case-insensitive pattern first needs it. The generated tables are
  unchanged and read only while compiling. The manifest declares the
  crate's \`docsrs_regex\` cfg, as the published manifest's lint section
  does.
- \`patches/regex-syntax-$REGEX_SYNTAX_VERSION-usable-property-names.patch\`:
  the property name and value tables keep only the properties the crate
  has tables for (binary properties, \`General_Category\`, \`Script\`,
  \`Script_Extensions\`, and \`Age\` and the break properties only with
  their features); any other name was refused for want of its table and is
  refused the same way without its entry. \`Script\` and
  \`Script_Extensions\` share one list of values, which the generated
  table holds twice.
- \`patches/regex-syntax-$REGEX_SYNTAX_VERSION-shared-sort.patch\`: every sort goes through
  \`guard_sort\` (crates/guard-sort, a path dependency), the stable sort
  the package's crates share, so that the wasm module holds one instance of
  the standard library's sort instead of one per element type and
  comparison; the order it gives is the stable sort's.

Nothing else differs from the published source except that the manifest
drops test, bench and dev-dependency sections. Licensed MIT or Apache-2.0
(LICENSE-MIT, LICENSE-APACHE, the crate's own).
MD
cat > vendor/jsonschema-regex/VENDORED.md <<MD
# jsonschema-regex $VERSION, vendored with patches

Made by \`scripts/vendor-jsonschema.sh\` from the crate published on
crates.io, with these patches applied:

- \`patches/jsonschema-regex-$VERSION-ecma-unicode.patch\` (manifest only):
  regex-syntax with only the Unicode properties an ECMA-262 pattern can name
  instead of its default features, which would bring in every Unicode table
  (\`Age\`, grapheme, word and sentence breaks) for all regex users.
- \`patches/jsonschema-regex-$VERSION-u-flag-dialect.patch\`:
  \`translate_ecma_regex\` (behind \`to_rust_regex\`) reads a pattern as
  ECMA-262 with the \`u\` flag's meaning (its module \`ecma\`) and writes it for
  fancy-regex, or says why it cannot; \`is_valid_ecma_regex\` takes only the
  \`\\p{…}\` names ECMA-262 lists.
- \`patches/jsonschema-regex-$VERSION-view-sequence-parts.patch\`:
  \`Sequence::parts\` gives a sequence's form (its classes and state tables)
  as data, so that the package's check programs can run the same matcher in
  JavaScript.
- \`patches/jsonschema-regex-$VERSION-wrapped-empty-repeats.patch\`: a
  repeated atom that fancy-regex reads as nothing or as one look-around
  (\`(?:)+\`, \`(?:(?=a))*\`) is written with a character repeated no times
  beside it, so that fancy-regex repeats it as ECMA-262 does.
- \`patches/jsonschema-regex-$VERSION-grouped-atom-repeats.patch\`:
  \`Sequence::compile\` takes a quantified atom in a non-capturing group
  (\`(?:[a-z])+\`, as \`translate_ecma_regex\` writes every quantified atom)
  as the atom repeated; a repeated capture or a repeated group of several
  atoms is still no sequence.
- \`patches/jsonschema-regex-$VERSION-shared-sort.patch\`: every sort goes through
  \`guard_sort\` (crates/guard-sort, a path dependency), the stable sort
  the package's crates share, so that the wasm module holds one instance of
  the standard library's sort instead of one per element type and
  comparison; the order it gives is the stable sort's.

Nothing else differs from the published source except that the manifest
drops dev-dependency and lint sections. MIT licensed: the published crate
has no LICENSE file, so LICENSE is the one of jsonschema, which comes from
the same repository under the same license.
MD
