// The regex dialect, held to the host's own engine: for generated ECMA-262
// patterns and strings, a `pattern` the guard compiles matches exactly what
// `new RegExp(pattern, "u")` matches, in Node and in Bun. The generator is
// seeded (a failure names its seed and pattern) and stays within the
// supported dialect, except that it also writes what the guard refuses,
// which must then be a SchemaError, never a different answer.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as guard from "../../../pkg/node.mjs";
import { prng } from "../../support/random.mjs";

const SEED = 0x5eed_2026;
const PATTERNS = 1_200;
const SUBJECTS = 14;

/** Characters on every boundary the dialect draws: ASCII word characters, Unicode letters and digits, white space and line terminators, an astral character. */
const ALPHABET = ["a", "b", "A", "_", "1", "é", "ß", "٣", " ", "\n", "\u2028", "\u00a0", "-", ".", "😀"];

function generator(random) {
  const pick = (items) => items[Math.floor(random() * items.length)];
  const chance = (p) => random() < p;
  return function pattern() {
    let groups = 0;
    /** Groups a back-reference may name: not inside or as a repeated atom, a negative look-around or a lookbehind. */
    const referable = [];
    const names = [];
    function atom(depth, context) {
      const roll = random();
      if (depth > 2 || roll < 0.35) {
        return pick([
          "a", "b", "é", "1", " ", "-", "\\-", "\\.", ".", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S",
          "[^]", "[]", "[ab]", "[^a\\d]", "[a-c]", "[\\w-]", "[^\\s]", "[é-ü]", "\\u{e9}", "\\x41", "\\p{L}",
          "\\p{Lu}", "\\P{L}", "\\p{Nd}", "[\\p{Ll}1]", "\\u{1F600}", "\\uD83D\\uDE00", "[\\uD800-\\uDFFF]", "\\n", "\\t",
        ]);
      }
      if (roll < 0.45) return pick(["^", "$", "\\b", "\\B"]);
      if (roll < 0.55 && !context.behind && referable.length > 0) {
        const group = pick(referable);
        const name = names[group - 1];
        return name !== undefined && chance(0.5) ? `\\k<${name}>` : `\\${group}`;
      }
      if (roll < 0.7) {
        const look = pick(["(?=", "(?!", "(?<=", "(?<!"]);
        const negative = look.includes("!");
        const behind = look.startsWith("(?<");
        return `${look}${disjunction(depth + 1, { ...context, negative: context.negative || negative, behind: context.behind || behind })})`;
      }
      const kind = pick(["(", "(?:", "(?<"]);
      if (kind === "(?:") return `(?:${disjunction(depth + 1, context)})`;
      const number = ++groups;
      let open = "(";
      if (kind === "(?<") {
        names[number - 1] = `n${number}`;
        open = `(?<n${number}>`;
      }
      const body = disjunction(depth + 1, context);
      const group = `${open}${body})`;
      context.captured.push({ number, excluded: context.negative || context.behind || context.repeated });
      return group;
    }
    function term(depth, context) {
      const quantify = chance(0.3);
      const inner = { ...context, captured: [], repeated: context.repeated || quantify };
      const text = atom(depth, inner);
      const quantifiable = !/^(?:\^|\$|\\b|\\B|\(\?[=!<][^]*)$/.test(text) || /^\(\?<[A-Za-z]/.test(text);
      const quantifier = quantify && quantifiable ? pick(["*", "+", "?", "{2}", "{0,2}", "*?", "+?", "??", "{1,}"]) : "";
      for (const { number, excluded } of inner.captured) {
        if (!excluded && quantifier === "") referable.push(number);
        context.captured.push({ number, excluded: true });
      }
      return text + quantifier;
    }
    function alternative(depth, context) {
      const count = 1 + Math.floor(random() * 3);
      let out = "";
      for (let i = 0; i < count; i++) out += term(depth, context);
      return out;
    }
    function disjunction(depth, context) {
      let out = alternative(depth, context);
      while (chance(0.2)) out += `|${alternative(depth, context)}`;
      return out;
    }
    return disjunction(0, { captured: [], negative: false, behind: false, repeated: false });
  };
}

function subject(random) {
  const length = Math.floor(random() * 6);
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return out;
}

describe("the regex dialect against the host's RegExp with the u flag", () => {
  test(`${PATTERNS} generated patterns (seed ${SEED.toString(16)}) match as new RegExp(pattern, "u") does`, () => {
    const random = prng(SEED);
    const next = generator(random);
    let compared = 0;
    let refused = 0;
    let invalid = 0;
    for (let i = 0; i < PATTERNS; i++) {
      const source = next();
      let host;
      try {
        host = new RegExp(source, "u");
      } catch {
        invalid++;
        continue;
      }
      // V8 (Node) also tries a match from between the two halves of a
      // surrogate pair, where an assertion such as \B can hold; the
      // specification (and JavaScriptCore, Bun's engine) starts matches at
      // code points only. On a subject with an astral character the search
      // is written out from the start, which every engine reads as the
      // specification does.
      const fromStart = new RegExp(`^[^]*?(?:${source})`, "u");
      let validator;
      try {
        validator = guard.compileSchema({ type: "string", pattern: source });
      } catch (error) {
        assert.equal(error.code, "invalid_schema", `/${source}/u: ${error.message}`);
        refused++;
        continue;
      }
      for (let j = 0; j < SUBJECTS; j++) {
        const text = subject(random);
        const expected = /[\u{10000}-\u{10FFFF}]/u.test(text) ? fromStart.test(text) : host.test(text);
        assert.equal(validator.isValid(text), expected, `/${source}/u on ${JSON.stringify(text)} (pattern ${i} of seed ${SEED.toString(16)})`);
        compared++;
      }
    }
    // The generator must mostly stay inside the dialect, or the test says little.
    assert.ok(compared > PATTERNS * SUBJECTS * 0.6, `only ${compared} comparisons (${refused} refused, ${invalid} not ECMA-262)`);
  });
});
