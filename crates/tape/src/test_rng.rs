//! A small deterministic generator (xorshift64*) for the schema module's
//! generated-input tests (and the stream outline's, the partial values' and
//! the resumable parser's), so that a failure reproduces from its seed.
// `next` is the generator's step, public for the other crates' tests, not
// an iterator's.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::should_implement_trait
)]

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n).unwrap()).unwrap()
    }

    pub fn pick<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}
