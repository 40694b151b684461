//! A bounded LRU of compiled validators.
//!
//! Executors pass the same schema object on every call; compiling it each time
//! would cost more than validating. An agent's working set is its tools'
//! schemas, thousands for an aggregator of MCP servers, so the cache is
//! bounded by the memory its validators hold ([`DEFAULT_CACHE_BYTES`]) rather
//! than by their number; a caller may bound it by a count instead
//! ([`set_cache_capacity`]). Either bound keeps a stream of distinct schemas
//! (one per tenant, say) from growing memory without limit.
//!
//! An entry is found by its key (the schema's SHA-256 and the options) and
//! handed out only when the schema it was compiled from is the one asked
//! for, compared in full: a hash, however strong, is not what decides that a
//! response is checked against the right schema.
//!
//! A validator's memory is measured as it is compiled: the heap its
//! compilation keeps (see [`set_memory_meter`]; the package meters the wasm
//! heap's allocator) plus the texts it holds.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use lru::LruCache;

use super::CompiledSchema;

/// The bound on the memory the cached validators hold, unless a caller sets
/// one: 32 MiB, about 11,000 tool schemas of the public corpus the benchmark
/// uses (2.9 KiB each on the mean and the median, 4.5 KiB at the 90th
/// percentile, as the wasm heap counts them).
pub const DEFAULT_CACHE_BYTES: usize = 32 << 20;

/// A compiled validator and the canonical text of the schema it came from.
struct Entry {
    canonical: Arc<str>,
    compiled: Arc<CompiledSchema>,
}

/// What bounds the cache: the memory its validators hold, or their number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheBound {
    Bytes(usize),
    Count(usize),
}

struct Cache {
    entries: LruCache<String, Entry>,
    bound: CacheBound,
    /// The memory the entries' validators hold (see [`CompiledSchema::memory_bytes`]).
    bytes: usize,
}

impl Cache {
    /// Drops least-recently-used entries until the bound holds; the entry
    /// used last stays, however large.
    fn shrink(&mut self) {
        while self.entries.len() > 1 && self.over() {
            match self.entries.pop_lru() {
                Some((_, entry)) => {
                    self.bytes = self.bytes.saturating_sub(entry.compiled.memory_bytes())
                }
                None => break,
            }
        }
    }

    fn over(&self) -> bool {
        match self.bound {
            CacheBound::Bytes(limit) => self.bytes > limit,
            CacheBound::Count(limit) => self.entries.len() > limit,
        }
    }
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache {
        entries: LruCache::unbounded(),
        bound: CacheBound::Bytes(DEFAULT_CACHE_BYTES),
        bytes: 0,
    });
    static METER: Cell<Option<fn() -> usize>> = const { Cell::new(None) };
}

/// Gives the cache the measure of the heap in use, in bytes, with which it
/// weighs each validator as it is compiled (the wasm build meters its
/// allocator). Without one, validators weigh only the texts they hold.
pub fn set_memory_meter(meter: fn() -> usize) {
    METER.with(|m| m.set(Some(meter)));
}

/// The heap in use, as the meter gives it (0 without one).
pub(super) fn heap_in_use() -> usize {
    METER.with(Cell::get).map_or(0, |meter| meter())
}

/// The validator cached under `key`, if it was compiled from `canonical`.
pub(super) fn get(key: &str, canonical: &str) -> Option<Arc<CompiledSchema>> {
    CACHE.with(|c| {
        c.borrow_mut()
            .entries
            .get(key)
            .filter(|entry| &*entry.canonical == canonical)
            .map(|entry| Arc::clone(&entry.compiled))
    })
}

/// Caches `compiled` under `key`, replacing whatever was there.
pub(super) fn put(key: String, canonical: Arc<str>, compiled: Arc<CompiledSchema>) {
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        cache.bytes = cache.bytes.saturating_add(compiled.memory_bytes());
        let replaced = cache.entries.put(
            key,
            Entry {
                canonical,
                compiled,
            },
        );
        if let Some(old) = replaced {
            cache.bytes = cache.bytes.saturating_sub(old.compiled.memory_bytes());
        }
        cache.shrink();
    });
}

/// Drops every cached validator (validators already handed out stay usable).
pub fn clear_cache() {
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        cache.entries.clear();
        cache.bytes = 0;
    });
}

/// Bounds the cache by the number of validators it keeps (at least one).
pub fn set_cache_capacity(n: usize) {
    set_cache_bound(CacheBound::Count(n.max(1)));
}

/// Bounds the cache by the memory its validators hold, in bytes (the
/// validator used last stays, however large).
pub fn set_cache_memory(bytes: usize) {
    set_cache_bound(CacheBound::Bytes(bytes));
}

fn set_cache_bound(bound: CacheBound) {
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        cache.bound = bound;
        cache.shrink();
    });
}

/// What bounds the cache now.
pub fn cache_bound() -> CacheBound {
    CACHE.with(|c| c.borrow().bound)
}

pub fn cache_len() -> usize {
    CACHE.with(|c| c.borrow().entries.len())
}

/// The memory the cached validators hold, in bytes, as they were weighed.
pub fn cache_bytes() -> usize {
    CACHE.with(|c| c.borrow().bytes)
}
