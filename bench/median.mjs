// The median the benchmarks report (of rounds, of samples, of ratios), and
// the interleaved rounds they take it of.

/** The middle value of `xs` (the mean of the two middle ones for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Each case's mean ms per call in each of `rounds` rounds of `roundMs`,
 * `{ [case]: [ms, ...] }`, after three warm-up calls each: the cases
 * interleaved, in alternating order, so that drift hits all alike.
 */
export function interleavedRounds(cases, rounds, roundMs) {
  const perRound = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (const fn of Object.values(cases)) for (let i = 0; i < 3; i++) fn();
  const entries = Object.entries(cases);
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn] of round % 2 === 0 ? entries : [...entries].reverse()) {
      const start = performance.now();
      let calls = 0;
      let now = start;
      while (now - start < roundMs) {
        fn();
        calls++;
        now = performance.now();
      }
      perRound[name].push((now - start) / calls);
    }
  }
  return perRound;
}
