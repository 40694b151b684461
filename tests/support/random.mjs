// The tests' and benchmarks' seeded random-number generator (mulberry32):
// one sequence per seed, the same on every runtime and every run, so a
// failure replays from its seed and a benchmark's inputs never change.

/** A generator of numbers in [0, 1) from `seed`; its `below(n)` gives a whole number in [0, n). */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.below = (n) => Math.floor(next() * n);
  return next;
}
