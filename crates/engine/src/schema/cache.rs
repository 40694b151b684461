//! A bounded LRU of compiled validators.
//!
//! Executors pass the same schema object on every call; compiling it each time
//! would cost more than validating. The bound keeps a stream of distinct
//! schemas (one per tenant, say) from growing memory without limit.
//!
//! An entry is found by its key (the schema's SHA-256 and the options) and
//! handed out only when the schema it was compiled from is the one asked
//! for, compared in full: a hash, however strong, is not what decides that a
//! response is checked against the right schema.

use std::cell::RefCell;
use std::num::NonZeroUsize;
use std::sync::Arc;

use lru::LruCache;

use super::CompiledSchema;

pub const DEFAULT_CACHE_CAPACITY: usize = 128;

/// A compiled validator and the canonical text of the schema it came from.
struct Entry {
    canonical: Arc<str>,
    compiled: Arc<CompiledSchema>,
}

thread_local! {
    static CACHE: RefCell<LruCache<String, Entry>> =
        RefCell::new(LruCache::new(capacity(DEFAULT_CACHE_CAPACITY)));
}

fn capacity(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN)
}

/// The validator cached under `key`, if it was compiled from `canonical`.
pub(super) fn get(key: &str, canonical: &str) -> Option<Arc<CompiledSchema>> {
    CACHE.with(|c| {
        c.borrow_mut()
            .get(key)
            .filter(|entry| &*entry.canonical == canonical)
            .map(|entry| Arc::clone(&entry.compiled))
    })
}

/// Caches `compiled` under `key`, replacing whatever was there.
pub(super) fn put(key: String, canonical: Arc<str>, compiled: Arc<CompiledSchema>) {
    CACHE.with(|c| {
        c.borrow_mut().put(
            key,
            Entry {
                canonical,
                compiled,
            },
        );
    });
}

/// Drops every cached validator (validators already handed out stay usable).
pub fn clear_cache() {
    CACHE.with(|c| c.borrow_mut().clear());
}

/// Sets how many compiled validators are kept (at least one).
pub fn set_cache_capacity(n: usize) {
    CACHE.with(|c| c.borrow_mut().resize(capacity(n)));
}

pub fn cache_len() -> usize {
    CACHE.with(|c| c.borrow().len())
}
