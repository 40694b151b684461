//! A bounded LRU of compiled validators.
//!
//! Executors pass the same schema object on every call; compiling it each time
//! would cost more than validating. The bound keeps a stream of distinct
//! schemas (one per tenant, say) from growing memory without limit.

use std::cell::RefCell;
use std::num::NonZeroUsize;
use std::sync::Arc;

use lru::LruCache;

use super::CompiledSchema;

pub const DEFAULT_CACHE_CAPACITY: usize = 128;

thread_local! {
    static CACHE: RefCell<LruCache<String, Arc<CompiledSchema>>> =
        RefCell::new(LruCache::new(capacity(DEFAULT_CACHE_CAPACITY)));
}

fn capacity(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN)
}

pub(super) fn get(key: &str) -> Option<Arc<CompiledSchema>> {
    CACHE.with(|c| c.borrow_mut().get(key).cloned())
}

pub(super) fn put(key: String, compiled: Arc<CompiledSchema>) {
    CACHE.with(|c| {
        c.borrow_mut().put(key, compiled);
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
