//! Sorting through one instance of the standard library's sort.
//!
//! `slice::sort_by` is generic over the element and the comparison, so every
//! call site that sorts a different type (or with a different closure) puts
//! another copy of the whole sort (3 to 6 KB of wasm) in the module. These
//! functions sort the positions `0..len` instead, with the comparison behind
//! a `dyn` reference, so every crate of the package that sorts (its own, and
//! the vendored jsonschema, jsonschema-regex and regex-syntax) shares one
//! copy; the items are then moved into that order by swaps. Every sort here
//! is stable.
//!
//! The cost is an indirect call per comparison and a vector of positions:
//! small for what the package sorts (a schema's keywords and members, the
//! issues of a rejection, the duplicate names of an object, a character
//! class's ranges), which is short or sorted once per schema.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

use alloc::vec::Vec;
use core::cmp::Ordering;

/// Sorts `items` by `compare`, keeping equal items in their order.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let mut order = {
        let items = &*items;
        positions_in_order(
            items.len(),
            &mut |a, b| match (items.get(a), items.get(b)) {
                (Some(a), Some(b)) => compare(a, b),
                _ => Ordering::Equal,
            },
        )
    };
    permute(items, &mut order);
}

/// Sorts `items` by their order, keeping equal items in their order.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// Sorts `items` by the key `key` gives each, keeping items with equal keys
/// in their order.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The positions `0..len` in the order `compare` gives them (stable): the
/// one place the standard library's sort is instantiated.
#[inline(never)]
fn positions_in_order(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Moves `items` so that the item at position `i` becomes the one that was
/// at `order[i]`; `order` (a permutation of `0..items.len()`) is used up.
/// Each cycle of the permutation is followed once, by swaps; a visited
/// position is marked by pointing at itself.
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut at = start;
        while let Some(slot) = order.get_mut(at) {
            let from = core::mem::replace(slot, at);
            if from == at || from == start || from >= items.len() {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: the same seeds give the same lists.
    fn numbers(seed: u64, len: usize, range: u64) -> Vec<u64> {
        let mut state = seed | 1;
        (0..len)
            .map(|_| {
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                state.wrapping_mul(0x2545_f491_4f6c_dd1d) % range
            })
            .collect()
    }

    #[test]
    fn sorts_as_the_standard_library_does_stably() {
        for seed in 1..200u64 {
            for len in [0, 1, 2, 3, 7, 20, 33, 100] {
                // Pairs of (key, original position): equal keys must keep
                // their positions in order.
                let keys = numbers(seed, len, 1 + seed % 9);
                let mut ours: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
                let mut std = ours.clone();
                sort_by_key(&mut ours, |&(key, _)| key);
                std.sort_by_key(|&(key, _)| key);
                assert_eq!(ours, std, "seed {seed}, len {len}");
            }
        }
    }

    #[test]
    fn sorts_owned_values_without_losing_or_copying_any() {
        let mut words: Vec<String> = numbers(7, 50, 13).iter().map(|n| format!("w{n}")).collect();
        let mut std = words.clone();
        sort(&mut words);
        std.sort();
        assert_eq!(words, std);
        let mut reversed = std.clone();
        sort_by(&mut reversed, |a, b| b.cmp(a));
        std.reverse();
        assert_eq!(reversed, std);
    }
}
